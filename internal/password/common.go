package password

import (
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// Normalize is the form of a password that is checked, hashed and
// verified: NFKC, so a password typed with another keyboard or input method
// (a composed or a decomposed é, a full-width digit) is the same password.
func Normalize(pw string) string { return norm.NFKC.String(pw) }

// Fold is the form compared with the common-password list and with the
// username: NFKC, lowercased, NFKC again (lowercasing can leave a string
// that is not NFKC).
func Fold(s string) string { return norm.NFKC.String(strings.ToLower(norm.NFKC.String(s))) }

// commonPasswords is the shipped list (see common-passwords.NOTICE): one
// folded password a line, in order of frequency.
//
//go:embed common-passwords.txt
var commonPasswords string

// sortedCommon is the list sorted once, on first use, for binary search.
// The strings share the embedded text, so it costs one slice header each.
var sortedCommon = sync.OnceValue(func() []string {
	list := strings.Fields(commonPasswords)
	slices.Sort(list)
	return list
})

// IsCommon reports whether the password, folded, is in the list of common
// and breached passwords.
func IsCommon(pw string) bool {
	list := sortedCommon()
	k := Fold(pw)
	i := sort.SearchStrings(list, k)
	return i < len(list) && list[i] == k
}

// IsRepeatedCommon reports whether the password is a listed password
// typed twice or more ("passwordpassword", "qwertyqwertyqwerty").
func IsRepeatedCommon(pw string) bool {
	r := []rune(Fold(pw))
	for size := 1; size <= len(r)/2; size++ {
		if len(r)%size != 0 {
			continue
		}
		unit := string(r[:size])
		if strings.Repeat(unit, len(r)/size) == string(r) && IsCommon(unit) {
			return true
		}
	}
	return false
}
