package password_test

import (
	"strings"
	"testing"

	"applicantportal/internal/password"
)

func TestHashAndVerify(t *testing.T) {
	hash, err := password.Hash("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not an argon2id PHC string with the default parameters", hash)
	}
	tests := []struct {
		name     string
		password string
		want     bool
	}{
		{"RightPasswordMatches", "correct horse battery staple", true},
		{"WrongPasswordFails", "correct horse battery stapl", false},
		{"EmptyPasswordFails", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := password.Verify(tt.password, hash)
			if err != nil || got != tt.want {
				t.Fatalf("Verify = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	t.Run("SamePasswordGetsAFreshSalt", func(t *testing.T) {
		again, _ := password.Hash("correct horse battery staple")
		if again == hash {
			t.Fatal("two hashes of one password are equal: salt not random")
		}
	})
}

func TestVerifyRejectsMalformedHashes(t *testing.T) {
	for _, enc := range []string{"", "plain", "$argon2i$v=19$m=1,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=x$c2FsdA$a2V5", "$argon2id$v=19$m=8,t=1,p=1$!!$a2V5"} {
		if ok, err := password.Verify("x", enc); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want false and an error", enc, ok, err)
		}
	}
}

func TestCommonPasswords(t *testing.T) {
	tests := []struct {
		pw             string
		common, repeat bool
	}{
		{"password", true, false},
		{"PassWord", true, false},
		{"ｐａｓｓｗｏｒｄ", true, false}, // full-width letters fold to ASCII
		{"123456", true, false},
		{"passwordpassword", true, true}, // listed itself, and password twice
		{"SunshineSunshine", false, true},
		{"QwertyQwertyQwerty", false, true},
		{"correct horse battery staple", false, false},
	}
	for _, tt := range tests {
		if got := password.IsCommon(tt.pw); got != tt.common {
			t.Errorf("IsCommon(%q) = %v; want %v", tt.pw, got, tt.common)
		}
		if got := password.IsRepeatedCommon(tt.pw); got != tt.repeat {
			t.Errorf("IsRepeatedCommon(%q) = %v; want %v", tt.pw, got, tt.repeat)
		}
	}
}

func TestNormalizeComposesDecomposedForms(t *testing.T) {
	composed, decomposed := "caf\u00e9 au lait", "cafe\u0301 au lait"
	if composed == decomposed || password.Normalize(decomposed) != password.Normalize(composed) {
		t.Fatalf("NFKC(%q) = %q; want %q", decomposed, password.Normalize(decomposed), composed)
	}
}
