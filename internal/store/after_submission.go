package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"applicantportal/internal/portal"
)

// What every action on a screening after submission shares: its row in
// the audit trail, its webhook event, its notice to the applicant, all
// written in the action's own transaction, and its event to the
// applicant's open pages, published after the commit.

// audit appends the action to the audit trail, with who acts as ctx says
// (portal.ActorFrom) and the applicant's company; subject 0 is an act on
// no known applicant (a failed login with an unknown username).
func (s *conn) audit(ctx context.Context, q queryer, subjectID int64, action, detail string) error {
	var companyID int64
	if subjectID != 0 {
		if err := q.QueryRowContext(ctx, `SELECT company_id FROM subjects WHERE id = $1`, subjectID).Scan(&companyID); err != nil {
			return fmt.Errorf("store: audit %s: %w", action, err)
		}
	}
	return s.appendAudit(ctx, q, s.auditRow(ctx, companyID, subjectID, action, detail))
}

// auditCompany appends an action on a company's own settings (its webhook
// endpoints, its API keys), which concerns no applicant: subject 0.
func (s *conn) auditCompany(ctx context.Context, q queryer, companyID int64, action, detail string) error {
	return s.appendAudit(ctx, q, s.auditRow(ctx, companyID, 0, action, detail))
}

// asApplicant is ctx with the applicant subjectID as who acts, from the
// address ctx names, unless an operator or an API key acts: the
// endpoints that sign in learn who the applicant is only as they check
// the credential.
func asApplicant(ctx context.Context, subjectID int64) context.Context {
	a := portal.ActorFrom(ctx)
	if a.Kind != portal.ActorApplicant && a.Kind != portal.ActorSystem {
		return ctx
	}
	a.Kind, a.ID = portal.ActorApplicant, subjectID
	return portal.WithActor(ctx, a)
}

func (s *conn) auditRow(ctx context.Context, companyID, subjectID int64, action, detail string) auditRow {
	return auditRow{companyID: companyID, subjectID: subjectID, actor: portal.ActorFrom(ctx), action: action, detail: detail, at: ms(s.now())}
}

// AuditService is portal.AuditService on the store.
type AuditService struct{ db *DB }

var _ portal.AuditService = (*AuditService)(nil)

// FindAudit lists the trail newest first. A company's listing of an
// applicant of another company is empty, as for one without actions.
func (s *AuditService) FindAudit(ctx context.Context, f portal.AuditFilter) ([]portal.AuditEntry, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = portal.DefaultAuditLimit
	}
	rows, err := s.db.db.QueryContext(ctx, `SELECT id, company_id, subject_id, actor, actor_id, actor_name, address, action, detail, created_at
		FROM audit_log WHERE ($1 = 0 OR company_id = $1) AND ($2 = 0 OR subject_id = $2) ORDER BY id DESC LIMIT $3`,
		f.CompanyID, f.SubjectID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: audit: %w", err)
	}
	defer rows.Close()
	out := []portal.AuditEntry{}
	for rows.Next() {
		var e portal.AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &e.CompanyID, &e.SubjectID, &e.Actor.Kind, &e.Actor.ID, &e.Actor.Name, &e.Actor.Address,
			&e.Action, &e.Detail, &at); err != nil {
			return nil, fmt.Errorf("store: audit: %w", err)
		}
		e.At = fromMS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// noticeOf writes a notice in the applicant's language.
type noticeOf func(m *messageTexts) portal.Notice

// notifyApplicant queues the notice, in the applicant's language, by the applicant's chosen method
// (primaryNotificationMethod): e-mail to its address, a text to its
// mobile number, or both. Before personal information is saved it goes by
// e-mail to the address they were invited at. It answers the channels
// used ("email", "text"), which a delivery that must be recorded (the
// free copy of the report) keeps.
func (s *conn) notifyApplicant(ctx context.Context, q queryer, subjectID int64, notice noticeOf) ([]string, error) {
	var email string
	var locale portal.Locale
	if err := q.QueryRowContext(ctx, `SELECT email, locale FROM subjects WHERE id = $1`, subjectID).Scan(&email, &locale); err != nil {
		return nil, notFound(err, "Subject")
	}
	n := notice(messagesIn(locale))
	method := portal.NotificationMethod{Type: portal.NotifyByEmail, Email: email}
	dial := "1"
	p, err := findPersonalInfo(ctx, q, s.cfg.Sealer, subjectID)
	if err != nil {
		return nil, err
	}
	if p != nil && p.PrimaryNotificationMethod.Type != "" {
		method = p.PrimaryNotificationMethod
		if p.DaytimeDialCode != "" {
			dial = p.DaytimeDialCode
		}
	}
	now := s.now()
	var used []string
	if method.Type != portal.NotifyByText && method.Email != "" {
		if err := s.enqueueMail(ctx, q, now, method.Email, n.Subject, n.Body, 0); err != nil {
			return nil, err
		}
		used = append(used, portal.NotifyByEmail)
	}
	if method.Type != portal.NotifyByEmail && method.Text != "" {
		if err := s.queueText(ctx, q, subjectID, textNumber(dial, method.Text), n.Text); err != nil {
			return nil, err
		}
		used = append(used, portal.NotifyByText)
	}
	return used, nil
}

// textNumber is a mobile number in E.164 form: + dial code and digits.
func textNumber(dial, number string) string {
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return r
			}
			return -1
		}, s)
	}
	return "+" + digits(dial) + digits(number)
}

// queueText queues a text message for the SMS provider.
func (s *conn) queueText(ctx context.Context, q queryer, subjectID int64, to, body string) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO sms_outbox (subject_id, to_number, body, created_at) VALUES ($1, $2, $3, $4)`,
		subjectID, to, body, ms(s.now())); err != nil {
		return fmt.Errorf("store: queue text message: %w", err)
	}
	return nil
}

// publishScreening tells the applicant's open pages that kind changed
// (portal.ScreeningTopic), after the change committed. A failure is
// logged, not returned: the change stands, and the page reads it at its
// next load or reconnect.
func (s *conn) publishScreening(ctx context.Context, subjectID int64, kind string) {
	payload, err := json.Marshal(portal.ScreeningEvent{Kind: kind})
	if err == nil {
		err = (&DB{s}).Publish(ctx, portal.ScreeningTopic(subjectID), payload)
	}
	if err != nil {
		s.cfg.Logger.Warn("screening: publishing an event failed", "subject", subjectID, "kind", kind, "err", err)
	}
}
