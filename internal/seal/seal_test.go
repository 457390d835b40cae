package seal_test

import (
	"bytes"
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

func mustKey(tb testing.TB) []byte {
	tb.Helper()
	key := make([]byte, seal.KeySize)
	if _, err := rand.Read(key); err != nil {
		tb.Fatal(err)
	}
	return key
}

func mustSealer(tb testing.TB, key []byte) *seal.Sealer {
	tb.Helper()
	s, err := seal.New(key)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestSealer(t *testing.T) {
	t.Run("RoundTripGivesThePlaintextBack", func(t *testing.T) {
		s := mustSealer(t, mustKey(t))
		sealed, err := s.Seal([]byte("123456789"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Open(sealed)
		if err != nil {
			t.Fatal(err)
		} else if string(got) != "123456789" {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("SealedValueHoldsNoPlaintext", func(t *testing.T) {
		s := mustSealer(t, mustKey(t))
		sealed, err := s.Seal([]byte("123456789"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(sealed, []byte("123456789")) || bytes.Contains(sealed, []byte("6789")) {
			t.Fatalf("sealed value contains the plaintext: %x", sealed)
		}
	})

	t.Run("SameValueSealsDifferentlyEachTime", func(t *testing.T) {
		s := mustSealer(t, mustKey(t))
		a, _ := s.Seal([]byte("123456789"))
		b, _ := s.Seal([]byte("123456789"))
		if bytes.Equal(a, b) {
			t.Fatal("two seals of the same value are equal; nonce not random")
		}
	})

	t.Run("SealedValueStartsWithVersionByte", func(t *testing.T) {
		s := mustSealer(t, mustKey(t))
		sealed, _ := s.Seal([]byte("x"))
		if sealed[0] != 1 {
			t.Fatalf("version byte = %d, want 1", sealed[0])
		} else if want := 1 + 12 + 1 + 16; len(sealed) != want {
			t.Fatalf("len = %d, want %d (version, nonce, ciphertext, tag)", len(sealed), want)
		}
	})

	t.Run("TamperedValueRejected", func(t *testing.T) {
		s := mustSealer(t, mustKey(t))
		sealed, _ := s.Seal([]byte("123456789"))
		for i := range sealed {
			altered := bytes.Clone(sealed)
			altered[i] ^= 0x01
			if _, err := s.Open(altered); !errors.Is(err, seal.ErrOpen) {
				t.Fatalf("byte %d altered: err = %v, want ErrOpen", i, err)
			}
		}
	})

	t.Run("TruncatedValueRejected", func(t *testing.T) {
		s := mustSealer(t, mustKey(t))
		sealed, _ := s.Seal([]byte("123456789"))
		for _, n := range []int{0, 1, 13, len(sealed) - 1} {
			if _, err := s.Open(sealed[:n]); !errors.Is(err, seal.ErrOpen) {
				t.Fatalf("truncated to %d: err = %v, want ErrOpen", n, err)
			}
		}
	})

	t.Run("WrongKeyRejected", func(t *testing.T) {
		sealed, _ := mustSealer(t, mustKey(t)).Seal([]byte("123456789"))
		if _, err := mustSealer(t, mustKey(t)).Open(sealed); !errors.Is(err, seal.ErrOpen) {
			t.Fatalf("err = %v, want ErrOpen", err)
		}
	})

	t.Run("KeyOfWrongSizeRejected", func(t *testing.T) {
		for _, n := range []int{0, 16, 24, 31, 33} {
			if _, err := seal.New(make([]byte, n)); err == nil {
				t.Fatalf("New accepted a %d-byte key", n)
			}
		}
	})
}

func TestSealString(t *testing.T) {
	s := mustSealer(t, mustKey(t))

	t.Run("EmptyStringStaysNil", func(t *testing.T) {
		sealed, err := s.SealString("")
		if err != nil {
			t.Fatal(err)
		} else if sealed != nil {
			t.Fatalf("sealed = %x, want nil", sealed)
		}
		got, err := s.OpenString(nil)
		if err != nil {
			t.Fatal(err)
		} else if got != "" {
			t.Fatalf("got %q, want empty", got)
		}
	})

	t.Run("RoundTripGivesTheStringBack", func(t *testing.T) {
		sealed, err := s.SealString("1990-04-01")
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.OpenString(sealed)
		if err != nil {
			t.Fatal(err)
		} else if got != "1990-04-01" {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("TamperedStringRejected", func(t *testing.T) {
		sealed, _ := s.SealString("1990-04-01")
		sealed[len(sealed)-1] ^= 0x80
		if _, err := s.OpenString(sealed); !errors.Is(err, seal.ErrOpen) {
			t.Fatalf("err = %v, want ErrOpen", err)
		}
	})
}

func TestLoadOrCreateKey(t *testing.T) {
	t.Run("KeyFileCreatedOwnerOnlyAndReused", func(t *testing.T) {
		dir := t.TempDir()
		key, err := seal.LoadOrCreateKey("", dir)
		if err != nil {
			t.Fatal(err)
		} else if len(key) != seal.KeySize {
			t.Fatalf("key is %d bytes", len(key))
		}
		fi, err := os.Stat(filepath.Join(dir, seal.KeyFileName))
		if err != nil {
			t.Fatal(err)
		} else if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Fatalf("key file mode = %o, want 600", perm)
		}
		again, err := seal.LoadOrCreateKey("", dir)
		if err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(key, again) {
			t.Fatal("second start generated a new key instead of reusing the file")
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Fatalf("data folder holds %d entries, want only %s", len(entries), seal.KeyFileName)
		}
	})

	t.Run("MissingDataFolderCreated", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data", "nested")
		if _, err := seal.LoadOrCreateKey("", dir); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, seal.KeyFileName)); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("CorruptKeyFileRejected", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, seal.KeyFileName), []byte("not a key"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := seal.LoadOrCreateKey("", dir); err == nil {
			t.Fatal("corrupt key file accepted")
		}
	})

	t.Run("Base64EnvKeyUsedAndNoFileWritten", func(t *testing.T) {
		dir := t.TempDir()
		want := mustKey(t)
		got, err := seal.LoadOrCreateKey(base64.StdEncoding.EncodeToString(want), dir)
		if err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(got, want) {
			t.Fatal("key differs from the env value")
		}
		if _, err := os.Stat(filepath.Join(dir, seal.KeyFileName)); !os.IsNotExist(err) {
			t.Fatalf("key file written although the env key is set: %v", err)
		}
	})

	t.Run("HexEnvKeyUsed", func(t *testing.T) {
		want := mustKey(t)
		got, err := seal.LoadOrCreateKey(hex.EncodeToString(want), t.TempDir())
		if err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(got, want) {
			t.Fatal("key differs from the env value")
		}
	})

	t.Run("BadEnvKeyRejectedWithClearError", func(t *testing.T) {
		for name, v := range map[string]string{
			"NotEncoded":   "correct horse battery staple",
			"ShortBase64":  base64.StdEncoding.EncodeToString(make([]byte, 16)),
			"LongBase64":   base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xff}, 48)),
			"ShortHex":     strings.Repeat("ab", 16),
			"HexWithJunkZ": strings.Repeat("ab", 31) + "zz",
		} {
			t.Run(name, func(t *testing.T) {
				_, err := seal.LoadOrCreateKey(v, t.TempDir())
				if err == nil {
					t.Fatal("bad key accepted")
				} else if !strings.Contains(err.Error(), "PORTAL_DATA_KEY") {
					t.Fatalf("error does not name PORTAL_DATA_KEY: %v", err)
				}
			})
		}
	})
}

func TestSealFor(t *testing.T) {
	s := mustSealer(t, mustKey(t))
	const jane, john = "personal_info.sealed/1", "personal_info.sealed/2"
	sealed, err := s.SealFor([]byte("123456789"), jane)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OpensWhereItWasSealed", func(t *testing.T) {
		got, err := s.OpenFor(sealed, jane)
		if err != nil || string(got) != "123456789" {
			t.Fatalf("got %q, %v", got, err)
		}
		if !seal.IsBound(sealed) {
			t.Error("IsBound = false for a SealFor value")
		}
	})
	t.Run("ErrOpenInAnotherRow", func(t *testing.T) {
		for _, place := range []string{john, "personal_info.other/1", "", jane + " "} {
			if _, err := s.OpenFor(sealed, place); !errors.Is(err, seal.ErrOpen) {
				t.Errorf("opened for %q: err = %v, want ErrOpen", place, err)
			}
		}
	})
	t.Run("ErrOpenUnbound", func(t *testing.T) {
		if _, err := s.Open(sealed); !errors.Is(err, seal.ErrOpen) {
			t.Errorf("Open of a bound value: err = %v, want ErrOpen", err)
		}
		old, _ := s.Seal([]byte("123456789"))
		if _, err := s.OpenFor(old, jane); !errors.Is(err, seal.ErrOpen) {
			t.Errorf("OpenFor of an unbound value: err = %v, want ErrOpen", err)
		}
		if seal.IsBound(old) {
			t.Error("IsBound = true for a Seal value")
		}
	})
	t.Run("ErrOpenTampered", func(t *testing.T) {
		for i := range sealed {
			altered := bytes.Clone(sealed)
			altered[i] ^= 0x01
			if _, err := s.OpenFor(altered, jane); !errors.Is(err, seal.ErrOpen) {
				t.Fatalf("byte %d altered: err = %v, want ErrOpen", i, err)
			}
		}
	})
}

// TestSealUsesAFreshNonceEachTime: each sealed value carries its own
// random nonce (GCM must never see one twice under a key), in both the
// older unbound format and the keyed one.
func TestSealUsesAFreshNonceEachTime(t *testing.T) {
	s := mustSealer(t, mustKey(t))
	for _, tt := range []struct {
		name             string
		seal             func() ([]byte, error)
		nonceFrom, until int
	}{
		{"Unbound", func() ([]byte, error) { return s.Seal([]byte("123456789")) }, 1, 1 + 12},
		{"Bound", func() ([]byte, error) { return s.SealFor([]byte("123456789"), "personal_info.sealed/1") }, seal.PrefixSize, seal.PrefixSize + 12},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[string]bool{}
			for range 1000 {
				v, err := tt.seal()
				if err != nil {
					t.Fatal(err)
				}
				nonce := string(v[tt.nonceFrom:tt.until])
				if seen[nonce] {
					t.Fatalf("nonce %x used twice", nonce)
				}
				seen[nonce] = true
			}
		})
	}
}
