package portal

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

func (r SignRequest) checkSSN(fe *FieldErrors, s Signer) {
	if r.NoSSN {
		// Bounded, as everything that is sealed and printed on the PDF;
		// the number as long as the personal information form allows.
		switch country := strings.TrimSpace(r.IdentificationCountry); {
		case country == "":
			fe.Add("identificationCountry", "Identification country is required when you have no SSN.")
		case utf8.RuneCountInString(country) > MaxIdentificationCountryLength || strings.ContainsFunc(country, unicode.IsControl):
			fe.Addf("identificationCountry", "Enter the country's name, at most %d characters.", MaxIdentificationCountryLength)
		}
		switch number := strings.TrimSpace(r.IdentificationNumber); {
		case number == "":
			fe.Add("identificationNumber", "Identification number is required when you have no SSN.")
		case utf8.RuneCountInString(number) > MaxIdentificationLength || strings.ContainsFunc(number, unicode.IsControl):
			fe.Addf("identificationNumber", "Enter the identification number as printed, at most %d characters.", MaxIdentificationLength)
		}
		return
	}
	four := strings.TrimSpace(r.LastFourSSN)
	switch {
	case four == "":
		fe.Add("lastFourSSN", "Enter the last four digits of your SSN, or tick that you have none.")
	case len(four) != 4 || strings.Trim(four, "0123456789") != "":
		fe.Add("lastFourSSN", "Enter exactly four digits.")
	case s.SSN != "":
		if err := CheckLastFourSSN(four, s.SSN); err != nil {
			*fe = append(*fe, ssnMismatch("lastFourSSN", SSNMismatchMessage))
		}
	}
}

// EventSSNMismatch is the app's event name for a rejected SSN check.
const EventSSNMismatch = "ssn-mismatch"

// SSNMismatchMessage is the field message of a failed SSN check.
const SSNMismatchMessage = "The last four digits do not match the SSN on your application. Please check them, or correct your SSN."

// CheckLastFourSSN compares the last four digits the applicant entered with
// the last four digits of the stored SSN (spec section 5). Both empty counts
// as valid; a mismatch is a validation error on the lastFourSSN field.
func CheckLastFourSSN(entered, storedSSN string) error {
	if strings.TrimSpace(entered) == lastFourOf(ssnDigits(storedSSN)) {
		return nil
	}
	return FieldErrors{ssnMismatch("lastFourSSN", SSNMismatchMessage)}.Err()
}

// CheckSSNAgainstSignatures runs the SSN check the other way round: legal
// documents are signed before personal information in setup, so an SSN
// saved later must end in the last four digits typed when signing (the DOT
// release asks for them). signed are the digits of each signature that
// asked for them, oldest first; the first that the SSN does not end in is
// named in the error on the ssn field.
func CheckSSNAgainstSignatures(ssn string, signed []string) error {
	for _, four := range signed {
		if four == "" {
			continue
		}
		if CheckLastFourSSN(four, ssn) != nil {
			f := FieldErrorf("ssn", "This SSN does not end in %s, the last four digits you entered when signing your legal documents. Check the SSN, or the digits you signed with.",
				four)
			f.Code = EventSSNMismatch
			return FieldErrors{f}.Err()
		}
	}
	return nil
}

func ssnMismatch(field, message string) FieldError {
	return FieldError{Field: field, Message: message, Code: EventSSNMismatch}
}

// IsSSNMismatch reports whether err carries the SSN check's rejection (from
// CheckLastFourSSN, CheckSSNAgainstSignatures or SignRequest.Validate): the
// app raises the ssn-mismatch event on it.
func IsSSNMismatch(err error) bool {
	var pe *Error
	if !errors.As(err, &pe) {
		return false
	}
	for _, f := range pe.Fields {
		if f.Code == EventSSNMismatch {
			return true
		}
	}
	return false
}

func ssnDigits(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func lastFourOf(s string) string {
	if len(s) > 4 {
		return s[len(s)-4:]
	}
	return s
}
