package store

// Stub of the reminders until the mail is built (issue 13, mail): replaced by mail.go.

import (
	"context"

	"applicantportal/internal/portal"
)

func (o *OperatorService) SendInvitationReminders(ctx context.Context, baseURL string) (int, error) {
	return 0, portal.Errorf(portal.EUNAVAILABLE, "Not built yet.")
}
