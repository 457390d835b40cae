package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// ReportService is portal.ReportService on the store: the identity
// confirmation before a report opens (report_grants for the sessions that
// passed, report_identity_checks for the wrong answers), and the record
// of each view and download (report_views and the audit trail).
type ReportService struct{ db *DB }

var _ portal.ReportService = (*ReportService)(nil)

// Reports hands out the report service.
func (db *DB) Reports() *ReportService { return &ReportService{db} }

// FindReportAccess reads the session's grant and the applicant's lock.
func (s *ReportService) FindReportAccess(ctx context.Context, subjectID, familyID int64) (*portal.ReportAccess, error) {
	return s.reportAccess(ctx, s.db.db, subjectID, familyID)
}

func (s *ReportService) reportAccess(ctx context.Context, q queryer, subjectID, familyID int64) (*portal.ReportAccess, error) {
	now := s.db.now()
	p, err := findPersonalInfo(ctx, q, s.db.cfg.Sealer, subjectID)
	if err != nil {
		return nil, err
	}
	a := &portal.ReportAccess{SSNRequired: p == nil || !p.NoSSN, TriesLeft: portal.ReportMaxTries}
	var expires int64
	err = q.QueryRowContext(ctx, `SELECT expires_at FROM report_grants WHERE family_id = $1 AND subject_id = $2`, familyID, subjectID).Scan(&expires)
	switch {
	case err == nil && expires > ms(now):
		t := fromMS(expires)
		a.GrantedUntil = &t
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("store: report grant: %w", err)
	}
	failures, locked, err := identityChecks(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	if locked.Valid && locked.Int64 > ms(now) {
		t := fromMS(locked.Int64)
		a.LockedUntil = &t
		a.TriesLeft = 0
	} else {
		a.TriesLeft = portal.ReportMaxTries - failures
	}
	return a, nil
}

// identityChecks reads the wrong answers in a row and the lock.
func identityChecks(ctx context.Context, q queryer, subjectID int64) (int, sql.NullInt64, error) {
	var failures int
	var locked sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT failures, locked_until FROM report_identity_checks WHERE subject_id = $1`, subjectID).Scan(&failures, &locked)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, locked, fmt.Errorf("store: report identity checks: %w", err)
	}
	return failures, locked, nil
}

// ConfirmReportIdentity checks the answer under the applicant's lock, so
// two sessions answering at once count every wrong answer. A wrong answer
// is committed (the count, the audit) before its error is returned.
func (s *ReportService) ConfirmReportIdentity(ctx context.Context, subjectID, familyID int64, id portal.ReportIdentity) (*portal.ReportAccess, error) {
	var answer error
	var access *portal.ReportAccess
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		answer = nil
		if _, err := s.db.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		now := s.db.now()
		failures, locked, err := identityChecks(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if locked.Valid && locked.Int64 > ms(now) {
			return portal.ReportLocked(fromMS(locked.Int64), now)
		}
		if locked.Valid {
			failures = 0 // the lock ended: five more tries
		}
		p, err := findPersonalInfo(ctx, tx, s.db.cfg.Sealer, subjectID)
		if err != nil {
			return err
		}
		if p == nil || p.DOB == "" {
			return portal.ErrReportNoIdentity
		}
		if err := id.Validate(!p.NoSSN); err != nil {
			return err
		}
		var lockedUntil *int64
		if id.Matches(p) {
			failures = 0
			if _, err := tx.ExecContext(ctx, `INSERT INTO report_grants (family_id, subject_id, expires_at) VALUES ($1, $2, $3)
				ON CONFLICT (family_id) DO UPDATE SET subject_id = excluded.subject_id, expires_at = excluded.expires_at`,
				familyID, subjectID, ms(now.Add(portal.ReportGrantTTL))); err != nil {
				return fmt.Errorf("store: report grant: %w", err)
			}
			if err := s.db.audit(ctx, tx, subjectID, "report.identity-confirmed", "reports open to this session for 15 minutes"); err != nil {
				return err
			}
		} else {
			failures++
			if err := s.db.audit(ctx, tx, subjectID, "report.identity-failed", fmt.Sprintf("wrong answer %d of %d", failures, portal.ReportMaxTries)); err != nil {
				return err
			}
			answer = portal.ReportMismatch(!p.NoSSN, portal.ReportMaxTries-failures)
			if failures >= portal.ReportMaxTries {
				until := now.Add(portal.ReportLockTTL)
				lockedUntil, failures = new(int64), 0
				*lockedUntil = ms(until)
				answer = portal.ReportLocked(until, now)
				if err := s.db.audit(ctx, tx, subjectID, "report.identity-locked", "locked until "+until.UTC().Format(time.RFC3339)); err != nil {
					return err
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO report_identity_checks (subject_id, failures, locked_until) VALUES ($1, $2, $3)
			ON CONFLICT (subject_id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until`,
			subjectID, failures, lockedUntil); err != nil {
			return fmt.Errorf("store: report identity checks: %w", err)
		}
		if answer == nil {
			access, err = s.reportAccess(ctx, tx, subjectID, familyID)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return access, answer
}

// OpenReport checks the session's grant, records the view or download,
// then opens the report through the document service.
func (s *ReportService) OpenReport(ctx context.Context, r portal.ReportRead) (*portal.File, io.ReadCloser, error) {
	missing, ok := reportMissing[r.Kind]
	if !ok {
		return nil, nil, portal.Errorf(portal.EINVALID, "Unknown report kind %q.", r.Kind)
	}
	if r.Disposition != portal.ReportInline && r.Disposition != portal.ReportAttachment {
		return nil, nil, portal.Errorf(portal.EMALFORMED, "disposition is inline (the viewer) or attachment (a download).")
	}
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		now := s.db.now()
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM subject_reports WHERE subject_id = $1 AND kind = $2`, r.SubjectID, string(r.Kind)).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return &portal.Error{Code: portal.ENOTFOUND, Message: missing}
		}
		if err != nil {
			return fmt.Errorf("store: report: %w", err)
		}
		err = tx.QueryRowContext(ctx, `SELECT 1 FROM report_grants WHERE family_id = $1 AND subject_id = $2 AND expires_at > $3`,
			r.FamilyID, r.SubjectID, ms(now)).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return portal.ErrReportConfirmFirst
		}
		if err != nil {
			return fmt.Errorf("store: report grant: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO report_views (subject_id, family_id, kind, disposition, address, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, r.SubjectID, r.FamilyID, string(r.Kind), r.Disposition, portal.ActorFrom(ctx).Address, ms(now)); err != nil {
			return fmt.Errorf("store: record report view: %w", err)
		}
		action := map[string]string{portal.ReportInline: "report.viewed", portal.ReportAttachment: "report.downloaded"}[r.Disposition]
		return s.db.audit(ctx, tx, r.SubjectID, action, portal.ReportTitle(r.Kind))
	})
	if err != nil {
		return nil, nil, err
	}
	return s.db.Documents().OpenReport(ctx, r.SubjectID, r.Kind)
}

// OperatorReportService is portal.OperatorReportService on the store.
type OperatorReportService struct{ db *DB }

var _ portal.OperatorReportService = (*OperatorReportService)(nil)

// FindReportViews lists the applicant's views and downloads, newest
// first, with the free copy's delivery.
func (s *OperatorReportService) FindReportViews(ctx context.Context, companyID, subjectID int64) (*portal.ReportViews, error) {
	var company int64
	if err := s.db.db.QueryRowContext(ctx, `SELECT company_id FROM subjects WHERE id = $1`, subjectID).Scan(&company); err != nil || (companyID != 0 && company != companyID) {
		if err == nil {
			err = sql.ErrNoRows
		}
		return nil, notFound(err, "Applicant")
	}
	out := &portal.ReportViews{Views: []portal.ReportView{}}
	rows, err := s.db.db.QueryContext(ctx, `SELECT kind, disposition, address, created_at FROM report_views WHERE subject_id = $1 ORDER BY id DESC`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: report views: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		v := portal.ReportView{SubjectID: subjectID}
		var at int64
		if err := rows.Scan(&v.Kind, &v.Disposition, &v.Address, &at); err != nil {
			return nil, fmt.Errorf("store: report views: %w", err)
		}
		v.At = fromMS(at)
		out.Views = append(out.Views, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: report views: %w", err)
	}
	if out.FreeCopy, err = findReportCopy(ctx, s.db.db, subjectID); err != nil {
		return nil, err
	}
	if out.FreeCopyAsked, err = freeCopyAsked(ctx, s.db.db, subjectID); err != nil {
		return nil, err
	}
	return out, nil
}

// findReportCopy is the free copy's delivery, or nil.
func findReportCopy(ctx context.Context, q queryer, subjectID int64) (*portal.ReportCopy, error) {
	var channels string
	var at int64
	err := q.QueryRowContext(ctx, `SELECT channels, sent_at FROM report_copies WHERE subject_id = $1`, subjectID).Scan(&channels, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: report copy: %w", err)
	}
	c := &portal.ReportCopy{SentAt: fromMS(at), Channels: []string{}}
	if channels != "" {
		c.Channels = strings.Split(channels, ",")
	}
	return c, nil
}

// freeCopyAsked reports whether the applicant ticked "send me a free copy"
// on the authorization (stored with its signature, outside the sealed
// fields).
func freeCopyAsked(ctx context.Context, q queryer, subjectID int64) (bool, error) {
	var fields string
	err := q.QueryRowContext(ctx, `SELECT s.fields FROM legal_signatures s JOIN legal_documents d ON d.id = s.document_id
		WHERE s.subject_id = $1 AND d.document_type = $2 AND s.instance = '' ORDER BY s.id DESC LIMIT 1`,
		subjectID, portal.FreeReportCopyDocumentType).Scan(&fields)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: free copy asked: %w", err)
	}
	var f portal.SignatureFields
	if err := json.Unmarshal([]byte(fields), &f); err != nil {
		return false, fmt.Errorf("store: free copy asked: %w", err)
	}
	return f.FreeReportCopy, nil
}

// tellReportAttached tells the applicant that a report was attached, in
// the attachment's transaction: the free copy of the background report to
// one who asked for it, once (recorded in report_copies); otherwise that
// the report is ready, or was updated, to read in the portal. Everyone may
// read their report; the law gives the copy to those who asked.
func (s *conn) tellReportAttached(ctx context.Context, tx *sql.Tx, subjectID int64, kind portal.ReportKind, replaced bool) error {
	var first string
	if err := tx.QueryRowContext(ctx, `SELECT first_name FROM subjects WHERE id = $1`, subjectID).Scan(&first); err != nil {
		return notFound(err, "Applicant")
	}
	if kind == portal.ReportBackground {
		asked, err := freeCopyAsked(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		sent, err := findReportCopy(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if asked && sent == nil {
			channels, err := s.notifyApplicant(ctx, tx, subjectID, func(m *messageTexts) portal.Notice { return m.freeCopyNotice(first) })
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO report_copies (subject_id, channels, sent_at) VALUES ($1, $2, $3)`,
				subjectID, strings.Join(channels, ","), ms(s.now())); err != nil {
				return fmt.Errorf("store: record report copy: %w", err)
			}
			return s.audit(ctx, tx, subjectID, "report.free-copy-sent", "by "+strings.Join(channels, " and "))
		}
	}
	_, err := s.notifyApplicant(ctx, tx, subjectID, func(m *messageTexts) portal.Notice { return m.reportNotice(first, kind, replaced) })
	return err
}
