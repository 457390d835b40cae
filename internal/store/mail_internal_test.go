package store

import (
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
)

// TestMailSubjectsAreOneLine: a company name with a line break (companies
// are named by the provider, not through the API) made a subject that
// internal/mail refuses, so the e-mail failed ten times and was given up
// (found by QA). The break becomes a space; the header stays one line.
func TestMailSubjectsAreOneLine(t *testing.T) {
	const name = "Evil Co\r\nBcc: victim@evil.test\t\x00"
	const want = "Evil Co Bcc: victim@evil.test"
	tests := []struct {
		name    string
		subject string
	}{
		{"Invitation", first(englishMessages.invitationMail(name, "Dana", "https://x", time.Hour))},
		{"Reminder", first(englishMessages.invitationReminderMail(name, "Dana", "https://x", time.Hour, "https://s"))},
		{"ProgressReminder", first(englishMessages.progressReminderMail(name, "Dana", "sign", "https://x", "https://s"))},
		{"ChatWaiting", first(englishMessages.chatWaitingMail(name, "Dana"))},
		{"PreAdverse", englishMessages.preAdverseNotice(&portal.AdverseAction{CompanyName: name}).Subject},
		{"FinalAdverse", spanishMessages.finalAdverseNotice(&portal.AdverseAction{CompanyName: name}).Subject},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.ContainsFunc(tt.subject, func(r rune) bool { return r < ' ' }) || !strings.Contains(tt.subject, want) {
				t.Errorf("subject %q, want one line naming %q", tt.subject, want)
			}
		})
	}
}

func first(subject, _ string) string { return subject }
