package portal_test

import (
	"errors"
	"strings"
	"testing"

	"applicantportal/internal/phone"
	"applicantportal/internal/portal"
)

func TestValidEmail(t *testing.T) {
	tests := []struct {
		email string
		want  bool
	}{
		{"jane@example.com", true},
		{" Jane.Doe+jobs@Mail.Example.co.uk ", true},
		{"o'neil@example.org", true},
		{"a@b-c.io", true},
		{strings.Repeat("a", 64) + "@example.com", true},
		{"a@" + strings.Repeat("b", 63) + ".com", true},
		{"", false},
		{"jane", false},
		{"@example.com", false},
		{"jane@", false},
		{"jane@localhost", false},
		{"jane@@example.com", false},
		{"jane@x@example.com", false},
		{"jane doe@example.com", false},
		{"jane\t@example.com", false},
		{"jane\n@example.com", false},
		{"jane\x00@example.com", false},
		{".jane@example.com", false},
		{"jane.@example.com", false},
		{"ja..ne@example.com", false},
		{"\"jane\"@example.com", false},
		{"jane@[192.0.2.1]", false},
		{"jane@192.0.2.1", false},
		{"jane@-example.com", false},
		{"jane@example-.com", false},
		{"jane@example..com", false},
		{"jane@.example.com", false},
		{"jane@example.com.", false},
		{"jane@exämple.com", false},
		{"jäne@example.com", false},
		{strings.Repeat("a", 65) + "@example.com", false},
		{"a@" + strings.Repeat("b", 64) + ".com", false},
		{"a@" + strings.Repeat("b.", 126) + "com", false}, // 255 characters
	}
	for _, tt := range tests {
		if got := portal.ValidEmail(tt.email); got != tt.want {
			t.Errorf("ValidEmail(%q) = %v; want %v", tt.email, got, tt.want)
		}
	}
}

func TestSubjectUpdateValidate(t *testing.T) {
	s := func(v string) *string { return &v }
	rules := portal.SubjectRules{ValidPhone: phone.Valid}
	tests := []struct {
		name      string
		upd       portal.SubjectUpdate
		wantField string // "" when valid
	}{
		{"NothingSet", portal.SubjectUpdate{}, ""},
		{"NamesTrimmed", portal.SubjectUpdate{FirstName: s("  Jane-Marie "), LastName: s("O’Neil")}, ""},
		{"WhitespaceFirstName", portal.SubjectUpdate{FirstName: s("   ")}, "firstName"},
		{"EmptyLastName", portal.SubjectUpdate{LastName: s("")}, "lastName"},
		{"FirstNameOf50", portal.SubjectUpdate{FirstName: s(strings.Repeat("é", 50))}, ""},
		{"FirstNameOver50", portal.SubjectUpdate{FirstName: s(strings.Repeat("a", 51))}, "firstName"},
		{"LastNameOf900000", portal.SubjectUpdate{LastName: s(strings.Repeat("a", 900000))}, "lastName"},
		{"DigitsInName", portal.SubjectUpdate{LastName: s("D0e")}, "lastName"},
		{"TabInName", portal.SubjectUpdate{FirstName: s("Ja\tne")}, "firstName"},
		{"NewlineInName", portal.SubjectUpdate{FirstName: s("Ja\nne")}, "firstName"},
		{"OnlyPunctuation", portal.SubjectUpdate{FirstName: s("'-.")}, "firstName"},
		{"NULInName", portal.SubjectUpdate{FirstName: s("Ja\x00ne")}, "firstName"},
		{"ValidEmail", portal.SubjectUpdate{Email: s("new@example.org")}, ""},
		{"EmptyEmail", portal.SubjectUpdate{Email: s(" ")}, "email"},
		{"LooseEmail", portal.SubjectUpdate{Email: s("a@b")}, "email"},
		{"EmailOver254", portal.SubjectUpdate{Email: s(strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63) + ".com")}, "email"},
		{"NANPPhone", portal.SubjectUpdate{Phone: s("(202) 456-1111")}, ""},
		{"InternationalPhone", portal.SubjectUpdate{Phone: s("+44 20 7946 0958")}, ""},
		{"PhoneCleared", portal.SubjectUpdate{Phone: s("")}, ""},
		{"FakePhone", portal.SubjectUpdate{Phone: s("123")}, "phone"},
		{"FreeTextPhone", portal.SubjectUpdate{Phone: s("call me maybe")}, "phone"},
		{"PhoneOver32", portal.SubjectUpdate{Phone: s(strings.Repeat("2", 33))}, "phone"},
		{"PhoneWithNewline", portal.SubjectUpdate{Phone: s("202\n456 1111")}, "phone"},
		{"UnknownDialCode", portal.SubjectUpdate{Phone: s("+999 1234567")}, "phone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.upd.Validate(rules)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Validate = %v; want nil", err)
				}
				return
			}
			var pe *portal.Error
			if !errors.As(err, &pe) || pe.Code != portal.EINVALID || len(pe.Fields) != 1 || pe.Fields[0].Field != tt.wantField {
				t.Fatalf("Validate = %v; want one error on %s", err, tt.wantField)
			}
		})
	}
}

func TestNewSubjectValidateUsesTheSameRules(t *testing.T) {
	rules := portal.SubjectRules{ValidPhone: phone.Valid}
	n := portal.NewSubject{CompanyID: 1, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe", Phone: "202 456 1111"}
	if err := n.Validate(rules); err != nil {
		t.Fatalf("valid invitation: %v", err)
	}
	bad := n
	bad.CompanyID, bad.FirstName, bad.Email, bad.Phone = 0, strings.Repeat("a", 51), "jane@localhost", "12"
	var pe *portal.Error
	if err := bad.Validate(rules); !errors.As(err, &pe) || len(pe.Fields) != 4 {
		t.Fatalf("Validate = %v; want errors on company, email, firstName and phone", err)
	}
}

func TestPlausibleToken(t *testing.T) {
	for token, want := range map[string]bool{
		"Xy3_-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL": true,
		"":                       false,
		"abc def":                false,
		"abc\x00def":             false,
		"abc\u0085def":           false,
		"abcdéf":                 false,
		strings.Repeat("a", 128): true,
		strings.Repeat("a", 129): false,
	} {
		if got := portal.PlausibleToken(token); got != want {
			t.Errorf("PlausibleToken(%q) = %v; want %v", token, got, want)
		}
	}
}
