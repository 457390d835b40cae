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
