package store

import (
	"context"

	"applicantportal/internal/portal"
)

// MaintenanceService is portal.MaintenanceService on the store.
type MaintenanceService struct{ db *DB }

var _ portal.MaintenanceService = (*MaintenanceService)(nil)

// Outbox lists the e-mail outbox.
func (s *MaintenanceService) Outbox(ctx context.Context) ([]portal.Mail, error) {
	return s.db.Outbox(ctx)
}

// TextOutbox lists the text messages, as DB.TextOutbox.
func (s *MaintenanceService) TextOutbox(ctx context.Context) ([]portal.TextMessage, error) {
	return s.db.TextOutbox(ctx)
}

// Sweep deletes expired rows (DB.Sweep).
func (s *MaintenanceService) Sweep(ctx context.Context) (portal.SweepResult, error) {
	return s.db.Sweep(ctx)
}
