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
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// KeySize is the length of an AES-256 key in bytes.
const KeySize = 32

// KeyFileName is the file under the data folder that holds the generated key
// when PORTAL_DATA_KEY is not set.
const KeyFileName = "data.key"

// The first byte of every sealed value names its format, so a key rotation
// can tell old values from new ones and open both.
const (
	// version is a value sealed by Seal: bound to nothing, so it opens
	// wherever it is copied. Values of this format are only read to be
	// resealed with SealFor.
	version byte = 1
	// versionBound is a value sealed by SealFor before key ids: bound to
	// the place it belongs to, which is authenticated with it. It names no
	// key, so it is opened by trying each key of the ring.
	versionBound byte = 2
	// versionKeyed is a value sealed by SealFor: the format byte, the id of
	// the key that sealed it (IDSize bytes), then nonce, ciphertext and
	// tag. The id is authenticated with the place, so it cannot be changed
	// to send the value to another key.
	versionKeyed byte = 3
)

// IDSize is the length of a key id in bytes: the first bytes of the key's
// SHA-256 (Fingerprint is their hex).
const IDSize = 8

// ErrOpen is returned when a sealed value cannot be opened: it was altered,
// truncated, sealed with another key or is not a sealed value at all.
var ErrOpen = errors.New("seal: cannot open sealed value")

// key is one key of a ring.
type key struct {
	id   [IDSize]byte
	aead cipher.AEAD
}

// ring is the keys a Sealer holds at one moment: the first seals, all
// open. It is never changed once made; a reload makes a new one.
type ring struct {
	keys []*key
	byID map[[IDSize]byte]*key
}

// Sealer seals and opens values with a ring of keys, each named by its id:
// the first key seals, every key opens, so values sealed before a key
// rotation and after it both open while the rotation reseals the old ones.
// A Sealer made by Load from a data folder follows its key file: it rereads
// the file when it meets a key id it does not hold, and checks at most once
// a second whether the file changed before it seals. It is safe for
// concurrent use.
type Sealer struct {
	ring atomic.Pointer[ring]
	// derive is HMAC-SHA256 keyed by a key derived from the first data key
	// the Sealer was made with, for DeriveKey.
	derive []byte
	// file is the key file the ring follows, nil when the keys were given.
	file *keyFile
}

// keyFile is a data folder's data.key as last read.
type keyFile struct {
	path string
	now  func() time.Time
	mu   sync.Mutex // one reread at a time
	info os.FileInfo
	// checked is when the file was last looked at, in Unix nanoseconds.
	checked atomic.Int64
}

// New returns a Sealer for one 32-byte key.
func New(k []byte) (*Sealer, error) { return NewRing([][]byte{k}) }

// NewRing returns a Sealer for several 32-byte keys: the first seals, all
// open.
func NewRing(keys [][]byte) (*Sealer, error) {
	r, err := newRing(keys)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, keys[0])
	mac.Write([]byte("portal: derived keys"))
	s := &Sealer{derive: mac.Sum(nil)}
	s.ring.Store(r)
	return s, nil
}

func newRing(keys [][]byte) (*ring, error) {
	if len(keys) == 0 {
		return nil, errors.New("seal: no key")
	}
	r := &ring{byID: make(map[[IDSize]byte]*key, len(keys))}
	for _, k := range keys {
		if len(k) != KeySize {
			return nil, fmt.Errorf("seal: key is %d bytes, want %d", len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("seal: %w", err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("seal: %w", err)
		}
		sum := sha256.Sum256(k)
		rk := &key{aead: aead}
		copy(rk.id[:], sum[:IDSize])
		if _, dup := r.byID[rk.id]; dup {
			continue // the same key twice: the first place counts
		}
		r.keys = append(r.keys, rk)
		r.byID[rk.id] = rk
	}
	return r, nil
}

// Fingerprint names a key without revealing it: the first 8 bytes of its
// SHA-256, in hex. It is the key's id in sealed values. A backup records
// it, so an operator can tell which key opens it
// (`base64 -d data.key | sha256sum | cut -c1-16`).
func Fingerprint(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:IDSize])
}

// Fingerprint is the fingerprint of the key that seals.
func (s *Sealer) Fingerprint() string {
	r := s.current(false)
	return hex.EncodeToString(r.keys[0].id[:])
}

// Fingerprints are the fingerprints of the ring's keys, the sealing key
// first.
func (s *Sealer) Fingerprints() []string {
	r := s.current(false)
	out := make([]string, len(r.keys))
	for i, k := range r.keys {
		out[i] = hex.EncodeToString(k.id[:])
	}
	return out
}

// Holds reports whether the ring holds the key of a fingerprint.
func (s *Sealer) Holds(fingerprint string) bool {
	return slices.Contains(s.Fingerprints(), fingerprint)
}

// Prefix is how every value SealFor makes now begins: the format byte and
// the sealing key's id. A value that does not begin so is sealed with
// another key, or in an older format, and a key rotation reseals it.
func (s *Sealer) Prefix() []byte {
	r := s.current(true)
	return append([]byte{versionKeyed}, r.keys[0].id[:]...)
}

// PrefixSize is the length of Prefix.
const PrefixSize = 1 + IDSize

// KeyID is the fingerprint of the key that sealed a value, "" for a value
// of a format that names none (sealed before key ids, or not sealed).
func KeyID(sealed []byte) string {
	if len(sealed) < PrefixSize || sealed[0] != versionKeyed {
		return ""
	}
	return hex.EncodeToString(sealed[1:PrefixSize])
}

// DeriveKey returns a 32-byte key for one purpose (the sandbox provider's
// callback secret), derived from the data key: every instance with the same
// data key derives the same one, and it reveals nothing about the data key.
// It derives from the key that sealed when the Sealer was made.
func (s *Sealer) DeriveKey(purpose string) []byte {
	mac := hmac.New(sha256.New, s.derive)
	mac.Write([]byte(purpose))
	return mac.Sum(nil)
}

// FileCheckInterval is how often, at most, a Sealer following a key file
// looks at it before sealing.
const FileCheckInterval = time.Second

// current is the ring now. For a Sealer that follows a key file, sealing
// (forSealing) looks at the file at most once a second and rereads it when
// it changed, so a rotation's new first key is used within a second.
func (s *Sealer) current(forSealing bool) *ring {
	if forSealing && s.file != nil {
		now := s.file.now().UnixNano()
		if last := s.file.checked.Load(); now-last >= int64(FileCheckInterval) && s.file.checked.CompareAndSwap(last, now) {
			s.reload()
		}
	}
	return s.ring.Load()
}

// reload rereads the key file when it changed since it was last read. A
// file that cannot be read keeps the ring as it was: the server goes on
// with the keys it has.
func (s *Sealer) reload() bool {
	f := s.file
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	info, err := os.Stat(f.path)
	if err != nil || (f.info != nil && os.SameFile(info, f.info) && info.ModTime().Equal(f.info.ModTime()) && info.Size() == f.info.Size()) {
		return false
	}
	keys, info, err := readKeyFile(f.path)
	if err != nil {
		return false
	}
	r, err := newRing(keys)
	if err != nil {
		return false
	}
	f.info = info
	s.ring.Store(r)
	return true
}

// Seal encrypts plaintext with the sealing key, bound to nothing: the
// format of values stored before SealFor existed, kept so tests and
// conversions can make and open them. Store new values with SealFor. The
// result is version byte, random nonce, ciphertext and tag; the version
// byte is authenticated too.
func (s *Sealer) Seal(plaintext []byte) ([]byte, error) {
	aead := s.current(true).keys[0].aead
	nonceSize := aead.NonceSize()
	out := make([]byte, 1+nonceSize, 1+nonceSize+len(plaintext)+aead.Overhead())
	out[0] = version
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("seal: nonce: %w", err)
	}
	return aead.Seal(out, out[1:], plaintext, out[:1]), nil // #nosec G407 -- the nonce is the crypto/rand bytes just read into out[1:]
}

// Open decrypts a value made by Seal, with whichever key of the ring opens
// it. Any alteration, or a key the ring does not hold, gives ErrOpen.
func (s *Sealer) Open(sealed []byte) ([]byte, error) {
	if len(sealed) == 0 || sealed[0] != version {
		return nil, ErrOpen
	}
	for _, k := range s.current(false).keys {
		nonceSize := k.aead.NonceSize()
		if len(sealed) < 1+nonceSize+k.aead.Overhead() {
			return nil, ErrOpen
		}
		if plaintext, err := k.aead.Open(nil, sealed[1:1+nonceSize], sealed[1+nonceSize:], sealed[:1]); err == nil {
			return plaintext, nil
		}
	}
	return nil, ErrOpen
}

// SealFor seals plaintext with the sealing key, bound to a place: boundTo
// names where the value is stored (table, column and the owning row, e.g.
// "personal_info.sealed/42") and is authenticated as associated data with
// the format byte and the key id, so the value opens only with OpenFor and
// the same boundTo. A value copied into another applicant's row, or another
// column, does not open.
func (s *Sealer) SealFor(plaintext []byte, boundTo string) ([]byte, error) {
	k := s.current(true).keys[0]
	nonceSize := k.aead.NonceSize()
	out := make([]byte, PrefixSize+nonceSize, PrefixSize+nonceSize+len(plaintext)+k.aead.Overhead())
	out[0] = versionKeyed
	copy(out[1:PrefixSize], k.id[:])
	if _, err := rand.Read(out[PrefixSize:]); err != nil {
		return nil, fmt.Errorf("seal: nonce: %w", err)
	}
	return k.aead.Seal(out, out[PrefixSize:], plaintext, boundData(out[:PrefixSize], boundTo)), nil // #nosec G407 -- the nonce is the crypto/rand bytes just read into out[PrefixSize:]
}

// OpenFor opens a value made by SealFor with the same boundTo: one naming
// its key with that key (rereading the key file once when the ring does
// not hold it), one of the format before key ids with whichever key of the
// ring opens it. Another place, an unbound value, any alteration or a key
// the ring does not hold gives ErrOpen.
func (s *Sealer) OpenFor(sealed []byte, boundTo string) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, ErrOpen
	}
	switch sealed[0] {
	case versionKeyed:
		if len(sealed) < PrefixSize {
			return nil, ErrOpen
		}
		var id [IDSize]byte
		copy(id[:], sealed[1:PrefixSize])
		k := s.current(false).byID[id]
		if k == nil && s.reload() {
			k = s.current(false).byID[id]
		}
		if k == nil {
			return nil, ErrOpen
		}
		return openWith(k, sealed, PrefixSize, boundData(sealed[:PrefixSize], boundTo))
	case versionBound:
		ad := boundData(sealed[:1], boundTo)
		for _, k := range s.current(false).keys {
			if plaintext, err := openWith(k, sealed, 1, ad); err == nil {
				return plaintext, nil
			}
		}
	}
	return nil, ErrOpen
}

func openWith(k *key, sealed []byte, at int, ad []byte) ([]byte, error) {
	nonceSize := k.aead.NonceSize()
	if len(sealed) < at+nonceSize+k.aead.Overhead() {
		return nil, ErrOpen
	}
	plaintext, err := k.aead.Open(nil, sealed[at:at+nonceSize], sealed[at+nonceSize:], ad)
	if err != nil {
		return nil, ErrOpen
	}
	return plaintext, nil
}

// IsBound reports whether a sealed value has one of SealFor's formats, so
// that code converting older values can skip those already converted.
func IsBound(sealed []byte) bool {
	return len(sealed) > 0 && (sealed[0] == versionBound || sealed[0] == versionKeyed)
}

// boundData is the associated data of a bound value: its format byte (and
// key id) then the place.
func boundData(head []byte, boundTo string) []byte {
	return append(append(make([]byte, 0, len(head)+len(boundTo)), head...), boundTo...)
}

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

// LoadOrCreateKey returns the data key that seals: the first of
// LoadKeys.
func LoadOrCreateKey(envValue, dataDir string) ([]byte, error) {
	keys, err := LoadKeys(envValue, dataDir)
	if err != nil {
		return nil, err
	}
	return keys[0], nil
}

// LoadKeys returns the data keys, the one that seals first. When envValue
// (PORTAL_DATA_KEY) is set it holds one key or several separated by commas,
// each 32 bytes written as standard base64 or as hex. Otherwise the keys
// are read from <dataDir>/data.key, one base64 key a line, which is created
// with a new random key, readable by its owner only, when it does not
// exist.
func LoadKeys(envValue, dataDir string) ([][]byte, error) {
	if strings.TrimSpace(envValue) != "" {
		return envKeys(envValue)
	}
	path := filepath.Join(dataDir, KeyFileName)
	if err := createKeyFile(dataDir); err != nil {
		return nil, err
	}
	keys, _, err := readKeyFile(path)
	return keys, err
}

// Load returns the Sealer of the data keys LoadKeys finds. When they come
// from data.key the Sealer follows the file, so a server picks up a key
// that `portal keys rotate` added while it runs.
func Load(envValue, dataDir string) (*Sealer, error) {
	if strings.TrimSpace(envValue) != "" {
		keys, err := envKeys(envValue)
		if err != nil {
			return nil, err
		}
		return NewRing(keys)
	}
	if err := createKeyFile(dataDir); err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, KeyFileName)
	keys, info, err := readKeyFile(path)
	if err != nil {
		return nil, err
	}
	s, err := NewRing(keys)
	if err != nil {
		return nil, err
	}
	s.file = &keyFile{path: path, info: info, now: time.Now}
	s.file.checked.Store(time.Now().UnixNano())
	return s, nil
}

func envKeys(envValue string) ([][]byte, error) {
	var keys [][]byte
	for i, v := range strings.Split(envValue, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		k, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("seal: PORTAL_DATA_KEY: key %d: %w", i+1, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, errors.New("seal: PORTAL_DATA_KEY holds no key")
	}
	return keys, nil
}

// readKeyFile reads a key file: one base64 key a line, the sealing key
// first; blank lines are skipped. info is the file as read.
func readKeyFile(path string) ([][]byte, os.FileInfo, error) {
	f, err := os.Open(path) // #nosec G304 -- the key file of the configured data folder
	if err != nil {
		return nil, nil, fmt.Errorf("seal: read key: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("seal: read key: %w", err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, fmt.Errorf("seal: read key: %w", err)
	}
	var keys [][]byte
	for i, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		k, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(k) != KeySize {
			return nil, nil, fmt.Errorf("seal: %s line %d does not hold a base64 %d-byte key", path, i+1, KeySize)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("seal: %s does not hold a base64 %d-byte key", path, KeySize)
	}
	return keys, info, nil
}

// createKeyFile writes data.key with a new random key when it does not
// exist.
func createKeyFile(dataDir string) error {
	path := filepath.Join(dataDir, KeyFileName)
	if _, err := os.Stat(path); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("seal: read key: %w", err)
	}
	k, err := newKey()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("seal: create data folder: %w", err)
	}
	// The key is written to a temporary file and then linked into place, so
	// when two processes start at once on the same folder only one key wins
	// and neither reads a half-written file.
	tmp, err := writeTempKeyFile(dataDir, [][]byte{k})
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("seal: create key file: %w", err)
	}
	return nil
}

// AddKeyFile generates a new key and puts it first in <dataDir>/data.key,
// the keys it held kept after it: from then on the new key seals and the
// old ones still open. The file is replaced at once (a temporary file
// renamed into place), readable by its owner only. It returns the new
// key's fingerprint, never the key.
func AddKeyFile(dataDir string) (string, error) {
	path := filepath.Join(dataDir, KeyFileName)
	keys, _, err := readKeyFile(path)
	if err != nil {
		return "", err
	}
	k, err := newKey()
	if err != nil {
		return "", err
	}
	tmp, err := writeTempKeyFile(dataDir, append([][]byte{k}, keys...))
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("seal: replace key file: %w", err)
	}
	return Fingerprint(k), nil
}

func newKey() ([]byte, error) {
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("seal: generate key: %w", err)
	}
	return k, nil
}

// writeTempKeyFile writes keys, one base64 line each, to a new file in dir
// readable by its owner only, and returns its name.
func writeTempKeyFile(dir string, keys [][]byte) (string, error) {
	tmp, err := os.CreateTemp(dir, KeyFileName+".*")
	if err != nil {
		return "", fmt.Errorf("seal: create key file: %w", err)
	}
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(base64.StdEncoding.EncodeToString(k) + "\n")
	}
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.WriteString(b.String())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("seal: write key file: %w", err)
	}
	return tmp.Name(), nil
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
