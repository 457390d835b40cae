package store

import (
	"context"

	"applicantportal/internal/portal"
)

// AuditForTest appends an action to the audit trail as the services do.
func (s *DB) AuditForTest(ctx context.Context, subjectID int64, action, detail string) error {
	return s.audit(ctx, s.db, subjectID, action, detail)
}

// NotifyForTest sends a notice to the applicant as the services do.
func (s *DB) NotifyForTest(ctx context.Context, subjectID int64, n portal.Notice) ([]string, error) {
	return s.notifyApplicant(ctx, s.db, subjectID, func(*messageTexts) portal.Notice { return n })
}

// AuditCompanyForTest appends an action on a company as the services do.
func (s *DB) AuditCompanyForTest(ctx context.Context, companyID int64, action, detail string) error {
	return s.auditCompany(ctx, s.db, companyID, action, detail)
}
