package smssandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	smssandbox "applicantportal/internal/sandbox/sms"
)

func TestSendText(t *testing.T) {
	for _, tc := range []struct {
		name, to, body string
		refused        bool // for good
		temporary      bool
	}{
		{"USMobile", "+12025550143", "Your background check moved.", false, false},
		{"GermanMobile", "+4915112345678", "Hallo", false, false},
		{"NotE164", "2025550143", "Hello", true, false},
		{"Formatted", "+1 (202) 555-0143", "Hello", true, false},
		{"TooShort", "+1202555014", "Hello", true, false},
		{"UKLandline", "+442079460000", "Hello", true, false},
		{"Empty", "+12025550143", " ", true, false},
		{"TooLong", "+12025550143", strings.Repeat("a", 1601), true, false},
		{"CarrierDown", smssandbox.TemporaryFailureNumber, "Hello", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := smssandbox.New().SendText(context.Background(), tc.to, tc.body)
			var refused *portal.TextRefused
			switch {
			case tc.refused:
				if !errors.As(err, &refused) {
					t.Errorf("err %v, want a refusal", err)
				}
			case tc.temporary:
				if err == nil || errors.As(err, &refused) {
					t.Errorf("err %v, want a temporary failure", err)
				}
			default:
				if err != nil || !strings.HasPrefix(id, "SM") || len(id) != 34 {
					t.Errorf("id %q, err %v", id, err)
				}
			}
		})
	}
}
