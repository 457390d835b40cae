package phone_test

import (
	"testing"

	"applicantportal/internal/phone"
)

func TestValid(t *testing.T) {
	tests := []struct {
		name     string
		dialCode string
		number   string
		want     bool
	}{
		{"USNumberAccepted", "1", "2024561111", true},
		{"USNumberWithSeparatorsAccepted", "1", "(202) 456-1111", true},
		{"USNumberWithDotsAccepted", "1", "202.456.1111", true},
		{"DialCodeWithPlusAccepted", "+1", "2024561111", true},
		{"CanadianRealFormatAcceptedUnderNANP", "1", "6132392000", true},
		{"USNumberTooShortRejected", "1", "202456111", false},
		{"USNumberTooLongRejected", "1", "20245611112", false},
		{"AreaCodeStartingWithOneRejected", "1", "1024561111", false},
		{"LettersRejected", "1", "202456ABCD", false},
		{"EmptyNumberRejected", "1", "", false},
		{"OnlySeparatorsRejected", "1", " - ", false},
		{"UKNumberAcceptedWithDialCode44", "44", "2079460000", true},
		{"UKNumberWithTrunkZeroAccepted", "44", "020 7946 0000", true},
		{"UKMobileAccepted", "44", "7400123456", true},
		{"UKMobileUnderUSDialCodeRejected", "1", "7400123456", false},
		{"USNumberUnderUKDialCodeRejected", "44", "2024561111", false},
		{"UnknownDialCodeRejected", "999", "2024561111", false},
		{"EmptyDialCodeRejected", "", "2024561111", false},
		{"DialCodeWithLettersRejected", "1a", "2024561111", false},
		{"DialCodeWithLeadingZeroRejected", "01", "2024561111", false},
		{"PlusInNumberRejected", "1", "+12024561111", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := phone.Valid(tt.dialCode, tt.number); got != tt.want {
				t.Fatalf("Valid(%q, %q) = %v, want %v", tt.dialCode, tt.number, got, tt.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name     string
		dialCode string
		number   string
		want     string
	}{
		{"USNumberAsE164", "1", "(202) 456-1111", "+12024561111"},
		{"UKNumberDropsTrunkZero", "44", "020 7946 0000", "+442079460000"},
		{"InvalidNumberIsEmpty", "1", "12345", ""},
		{"UnknownDialCodeIsEmpty", "999", "2024561111", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := phone.Format(tt.dialCode, tt.number); got != tt.want {
				t.Fatalf("Format(%q, %q) = %q, want %q", tt.dialCode, tt.number, got, tt.want)
			}
		})
	}
}
