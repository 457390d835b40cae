package seal_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"applicantportal/internal/seal"
)

func mustRing(tb testing.TB, keys ...[]byte) *seal.Sealer {
	tb.Helper()
	s, err := seal.NewRing(keys)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// sealFormat2 seals as SealFor did before key ids: format byte 2, nonce,
// ciphertext and tag, the format byte and the place authenticated.
func sealFormat2(tb testing.TB, key, plaintext []byte, boundTo string) []byte {
	tb.Helper()
	block, err := aes.NewCipher(key)
	if err != nil {
		tb.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]byte, 1+aead.NonceSize())
	out[0] = 2
	rand.Read(out[1:])
	return aead.Seal(out, out[1:], plaintext, append([]byte{2}, boundTo...))
}

// TestKeyRing: the first key of a ring seals, naming itself; every key
// opens what it sealed; values from before key ids open with whichever key
// of the ring opens them.
func TestKeyRing(t *testing.T) {
	a, b, c := mustKey(t), mustKey(t), mustKey(t)
	const place = "personal_info.sealed/42"
	plain := []byte("123456789")
	sealFor := func(keys ...[]byte) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			v, err := mustRing(t, keys...).SealFor(plain, place)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	format2 := func(key []byte) func(t *testing.T) []byte {
		return func(t *testing.T) []byte { return sealFormat2(t, key, plain, place) }
	}
	for _, tc := range []struct {
		name   string
		sealed func(t *testing.T) []byte
		ring   [][]byte
		place  string
		open   bool
	}{
		{"SealedByTheFirstKeyOpensWithIt", sealFor(a, b), [][]byte{a}, place, true},
		{"SealedByAnOldKeyOpensWhileTheRingHoldsIt", sealFor(a), [][]byte{b, a}, place, true},
		{"SealedByTheNewKeyOpensWhereItIsSecond", sealFor(b), [][]byte{a, b}, place, true},
		{"ErrKeyNotInTheRing", sealFor(a), [][]byte{b, c}, place, false},
		{"ErrAnotherPlace", sealFor(a), [][]byte{a}, "personal_info.sealed/43", false},
		{"Format2OpensWithTheFirstKey", format2(a), [][]byte{a, b}, place, true},
		{"Format2OpensWithALaterKey", format2(a), [][]byte{b, c, a}, place, true},
		{"ErrFormat2KeyNotInTheRing", format2(a), [][]byte{b, c}, place, false},
		{"ErrFormat2AnotherPlace", format2(a), [][]byte{a}, "personal_info.sealed/43", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mustRing(t, tc.ring...).OpenFor(tc.sealed(t), tc.place)
			if tc.open && (err != nil || !bytes.Equal(got, plain)) {
				t.Fatalf("OpenFor = %q, %v; want the plaintext", got, err)
			}
			if !tc.open && !errors.Is(err, seal.ErrOpen) {
				t.Fatalf("OpenFor = %q, %v; want ErrOpen", got, err)
			}
		})
	}

	t.Run("ValueNamesTheSealingKey", func(t *testing.T) {
		s := mustRing(t, b, a)
		v, err := s.SealFor(plain, place)
		if err != nil {
			t.Fatal(err)
		}
		if v[0] != 3 || seal.KeyID(v) != seal.Fingerprint(b) || !bytes.HasPrefix(v, s.Prefix()) || !seal.IsBound(v) {
			t.Fatalf("value starts %x; want format 3 and the id %s", v[:seal.PrefixSize], seal.Fingerprint(b))
		}
		if s.Fingerprint() != seal.Fingerprint(b) || strings.Join(s.Fingerprints(), ",") != seal.Fingerprint(b)+","+seal.Fingerprint(a) {
			t.Errorf("fingerprints %s / %v", s.Fingerprint(), s.Fingerprints())
		}
		if !s.Holds(seal.Fingerprint(a)) || s.Holds(seal.Fingerprint(c)) {
			t.Error("Holds answers wrong")
		}
	})
	t.Run("ErrKeyIDChanged", func(t *testing.T) {
		// The id is authenticated: pointing a value at another key of the
		// ring does not open it, nor does that key.
		v, err := mustRing(t, a).SealFor(plain, place)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := hex.DecodeString(seal.Fingerprint(b))
		copy(v[1:seal.PrefixSize], id)
		if _, err := mustRing(t, a, b).OpenFor(v, place); !errors.Is(err, seal.ErrOpen) {
			t.Fatalf("OpenFor with the id changed = %v; want ErrOpen", err)
		}
	})
	t.Run("Format1OpensWithAnyKeyOfTheRing", func(t *testing.T) {
		v, err := mustRing(t, a).Seal(plain)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := mustRing(t, b, a).Open(v); err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("Open = %q, %v", got, err)
		}
		if _, err := mustRing(t, b).Open(v); !errors.Is(err, seal.ErrOpen) {
			t.Fatalf("Open without its key = %v; want ErrOpen", err)
		}
	})
	t.Run("KeyIDOfOlderFormatsIsEmpty", func(t *testing.T) {
		if id := seal.KeyID(sealFormat2(t, a, plain, place)); id != "" {
			t.Errorf("KeyID of a format 2 value = %q", id)
		}
	})
}

// TestLoadKeys: PORTAL_DATA_KEY and data.key each hold one key or several,
// the sealing one first.
func TestLoadKeys(t *testing.T) {
	a, b := mustKey(t), mustKey(t)
	b64 := base64.StdEncoding.EncodeToString
	for _, tc := range []struct {
		name, env, file string
		want            [][]byte
		wantErr         string
	}{
		{name: "OneKeyInTheEnvironment", env: b64(a), want: [][]byte{a}},
		{name: "SeveralKeysInTheEnvironmentFirstSeals", env: b64(b) + ", " + hex.EncodeToString(a), want: [][]byte{b, a}},
		{name: "ErrABadSecondKey", env: b64(b) + ",nope", wantErr: "key 2"},
		{name: "OneKeyInTheFile", file: b64(a) + "\n", want: [][]byte{a}},
		{name: "SeveralLinesInTheFileFirstSeals", file: b64(b) + "\n\n" + b64(a) + "\n", want: [][]byte{b, a}},
		{name: "ErrABadLine", file: b64(b) + "\nnope\n", wantErr: "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(dir, seal.KeyFileName), []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			keys, err := seal.LoadKeys(tc.env, dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("LoadKeys = %v; want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(keys) != len(tc.want) {
				t.Fatalf("LoadKeys = %d keys, %v; want %d", len(keys), err, len(tc.want))
			}
			for i := range keys {
				if !bytes.Equal(keys[i], tc.want[i]) {
					t.Errorf("key %d differs", i+1)
				}
			}
			s, err := seal.Load(tc.env, dir)
			if err != nil || s.Fingerprint() != seal.Fingerprint(tc.want[0]) {
				t.Errorf("Load seals with %v, %v; want the first key", s, err)
			}
		})
	}
}

// TestAddKeyFile: the new key goes first in data.key, the old ones after,
// in a file readable by its owner only, and a Sealer following the file
// opens what the new key sealed.
func TestAddKeyFile(t *testing.T) {
	dir := t.TempDir()
	serving, err := seal.Load("", dir)
	if err != nil {
		t.Fatal(err)
	}
	old, err := seal.LoadKeys("", dir)
	if err != nil {
		t.Fatal(err)
	}
	id, err := seal.AddKeyFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.LoadKeys("", dir)
	if err != nil || len(keys) != 2 || seal.Fingerprint(keys[0]) != id || !bytes.Equal(keys[1], old[0]) {
		t.Fatalf("data.key after AddKeyFile: %d keys, %v; want the new key %s first and the old one after", len(keys), err, id)
	}
	if fi, err := os.Stat(filepath.Join(dir, seal.KeyFileName)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("data.key: %v, %v; want mode 0600", fi, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the data folder holds %d files; want data.key alone", len(entries))
	}
	rotator, err := seal.Load("", dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rotator.SealFor([]byte("x"), "p")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := serving.OpenFor(v, "p"); err != nil || string(got) != "x" {
		t.Fatalf("the serving Sealer opening a value of the new key = %q, %v; want it to reread data.key", got, err)
	}
}
