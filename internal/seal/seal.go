// Package seal encrypts personal data at rest (SSN, date of birth, driver's
// licence and identification numbers) with AES-256-GCM, so a copy of the
// database alone reveals none of it.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the length of an AES-256 key in bytes.
const KeySize = 32

// KeyFileName is the file under the data folder that holds the generated key
// when PORTAL_DATA_KEY is not set.
const KeyFileName = "data.key"

// The first byte of every sealed value names its format and key, so a
// later key rotation can tell old values from new ones and open both.
const (
	// version is a value sealed by Seal: bound to nothing, so it opens
	// wherever it is copied. Values of this format are only read to be
	// resealed with SealFor.
	version byte = 1
	// versionBound is a value sealed by SealFor: bound to the place it
	// belongs to, which is authenticated with it.
	versionBound byte = 2
)

// ErrOpen is returned when a sealed value cannot be opened: it was altered,
// truncated, sealed with another key or is not a sealed value at all.
var ErrOpen = errors.New("seal: cannot open sealed value")

// Sealer seals and opens values with one key. It is safe for concurrent use.
type Sealer struct {
	aead cipher.AEAD
	// derive is HMAC-SHA256 keyed by a key derived from the data key, for
	// DeriveKey.
	derive []byte
	// fingerprint names the key (Fingerprint).
	fingerprint string
}

// New returns a Sealer for a 32-byte key.
func New(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("seal: key is %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("portal: derived keys"))
	return &Sealer{aead: aead, derive: mac.Sum(nil), fingerprint: Fingerprint(key)}, nil
}

// Fingerprint names a key without revealing it: the first 8 bytes of its
// SHA-256, in hex. A backup records it, so an operator can tell which key
// opens it (`base64 -d data.key | sha256sum | cut -c1-16`).
func Fingerprint(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:8])
}

// Fingerprint is the fingerprint of the sealer's key.
func (s *Sealer) Fingerprint() string { return s.fingerprint }

// DeriveKey returns a 32-byte key for one purpose (the sandbox provider's
// callback secret), derived from the data key: every instance with the same
// data key derives the same one, and it reveals nothing about the data key.
func (s *Sealer) DeriveKey(purpose string) []byte {
	mac := hmac.New(sha256.New, s.derive)
	mac.Write([]byte(purpose))
	return mac.Sum(nil)
}

// Seal encrypts plaintext, bound to nothing: the format of values stored
// before SealFor existed, kept so tests and conversions can make and open
// them. Store new values with SealFor. The result is version byte, random
// nonce, ciphertext and tag; the version byte is authenticated too.
func (s *Sealer) Seal(plaintext []byte) ([]byte, error) {
	nonceSize := s.aead.NonceSize()
	out := make([]byte, 1+nonceSize, 1+nonceSize+len(plaintext)+s.aead.Overhead())
	out[0] = version
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("seal: nonce: %w", err)
	}
	return s.aead.Seal(out, out[1:], plaintext, out[:1]), nil
}

// Open decrypts a value made by Seal. Any alteration, or another key, gives
// ErrOpen.
func (s *Sealer) Open(sealed []byte) ([]byte, error) {
	nonceSize := s.aead.NonceSize()
	if len(sealed) < 1+nonceSize+s.aead.Overhead() || sealed[0] != version {
		return nil, ErrOpen
	}
	plaintext, err := s.aead.Open(nil, sealed[1:1+nonceSize], sealed[1+nonceSize:], sealed[:1])
	if err != nil {
		return nil, ErrOpen
	}
	return plaintext, nil
}

// SealFor seals plaintext bound to a place: boundTo names where the value
// is stored (table, column and the owning row, e.g.
// "personal_info.sealed/42") and is authenticated as associated data with
// the format byte, so the value opens only with OpenFor and the same
// boundTo. A value copied into another applicant's row, or another column,
// does not open.
func (s *Sealer) SealFor(plaintext []byte, boundTo string) ([]byte, error) {
	nonceSize := s.aead.NonceSize()
	out := make([]byte, 1+nonceSize, 1+nonceSize+len(plaintext)+s.aead.Overhead())
	out[0] = versionBound
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("seal: nonce: %w", err)
	}
	return s.aead.Seal(out, out[1:], plaintext, boundData(boundTo)), nil
}

// OpenFor opens a value made by SealFor with the same boundTo. Another
// place, an unbound value, any alteration or another key gives ErrOpen.
func (s *Sealer) OpenFor(sealed []byte, boundTo string) ([]byte, error) {
	nonceSize := s.aead.NonceSize()
	if len(sealed) < 1+nonceSize+s.aead.Overhead() || sealed[0] != versionBound {
		return nil, ErrOpen
	}
	plaintext, err := s.aead.Open(nil, sealed[1:1+nonceSize], sealed[1+nonceSize:], boundData(boundTo))
	if err != nil {
		return nil, ErrOpen
	}
	return plaintext, nil
}

// IsBound reports whether a sealed value has SealFor's format, so that
// code converting older values can skip those already converted.
func IsBound(sealed []byte) bool { return len(sealed) > 0 && sealed[0] == versionBound }

func boundData(boundTo string) []byte { return append([]byte{versionBound}, boundTo...) }

// SealString seals a string. An empty string gives nil, so a column can keep
// "not given" apart from a given value without opening it.
func (s *Sealer) SealString(plaintext string) ([]byte, error) {
	if plaintext == "" {
		return nil, nil
	}
	return s.Seal([]byte(plaintext))
}

// OpenString opens a value made by SealString. Nil or empty gives "".
func (s *Sealer) OpenString(sealed []byte) (string, error) {
	if len(sealed) == 0 {
		return "", nil
	}
	plaintext, err := s.Open(sealed)
	if err != nil {
		return "", err
	}
	return string(plaintext), nil
}

// LoadOrCreateKey returns the data key. When envValue (PORTAL_DATA_KEY) is
// set it must be 32 bytes written as standard base64 or as hex. Otherwise
// the key is read from <dataDir>/data.key (base64), which is created with a
// new random key, readable by its owner only, when it does not exist.
func LoadOrCreateKey(envValue, dataDir string) ([]byte, error) {
	if v := strings.TrimSpace(envValue); v != "" {
		key, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("seal: PORTAL_DATA_KEY: %w", err)
		}
		return key, nil
	}

	path := filepath.Join(dataDir, KeyFileName)
	b, err := os.ReadFile(path)
	if err == nil {
		key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(key) != KeySize {
			return nil, fmt.Errorf("seal: %s does not hold a base64 %d-byte key", path, KeySize)
		}
		return key, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("seal: read key: %w", err)
	}

	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("seal: generate key: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("seal: create data folder: %w", err)
	}
	// The key is written to a temporary file and then linked into place, so
	// when two processes start at once on the same folder only one key wins
	// and neither reads a half-written file.
	tmp, err := os.CreateTemp(dataDir, KeyFileName+".*")
	if err != nil {
		return nil, fmt.Errorf("seal: create key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("seal: create key file: %w", err)
	}
	if _, err := tmp.WriteString(base64.StdEncoding.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("seal: write key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("seal: write key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return LoadOrCreateKey("", dataDir)
	} else if err != nil {
		return nil, fmt.Errorf("seal: create key file: %w", err)
	}
	return key, nil
}

// decodeKey accepts hex (64 characters) or standard base64 (44 characters).
// A 64-character value made only of hex digits is read as hex.
func decodeKey(v string) ([]byte, error) {
	if len(v) == hex.EncodedLen(KeySize) {
		if key, err := hex.DecodeString(v); err == nil {
			return key, nil
		}
	}
	key, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("not base64 or hex; want %d random bytes, e.g. from `openssl rand -base64 32`", KeySize)
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("decodes to %d bytes, want %d", len(key), KeySize)
	}
	return key, nil
}
