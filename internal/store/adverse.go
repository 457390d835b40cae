package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// The pre-adverse and final adverse-action notices (portal/adverse.go).

// AdverseActionService is portal.AdverseActionService on the store.
type AdverseActionService struct{ db *DB }

var _ portal.AdverseActionService = (*AdverseActionService)(nil)

// OperatorAdverseActionService is portal.OperatorAdverseActionService on
// the store.
type OperatorAdverseActionService struct{ db *DB }

var _ portal.OperatorAdverseActionService = (*OperatorAdverseActionService)(nil)

// FindAdverseAction answers the applicant's own adverse action.
func (s *AdverseActionService) FindAdverseAction(ctx context.Context, subjectID int64) (*portal.AdverseAction, error) {
	return s.db.findAdverseAction(ctx, s.db.db, 0, subjectID)
}

// FindAdverseAction answers an applicant's adverse action within the
// operator's company.
func (s *OperatorAdverseActionService) FindAdverseAction(ctx context.Context, companyID, subjectID int64) (*portal.AdverseAction, error) {
	if _, err := adverseSubject(ctx, s.db.db, companyID, subjectID); err != nil {
		return nil, err
	}
	return s.db.findAdverseAction(ctx, s.db.db, companyID, subjectID)
}

// SendPreAdverseAction records the notice with the business day its
// waiting period ends, moves the profile to PRE_ADVERSE_ACTION, and
// tells the applicant and the employer's systems.
func (s *OperatorAdverseActionService) SendPreAdverseAction(ctx context.Context, r portal.PreAdverseRequest) (*portal.AdverseAction, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return s.send(ctx, r.CompanyID, r.SubjectID, func(tx *sql.Tx, sub *portal.Subject) (*portal.AdverseAction, *adverseTelling, error) {
		switch sub.StatusID {
		case portal.StatusFinalizationComplete, portal.StatusComplete, portal.StatusQA:
		default:
			return nil, nil, portal.Errorf(portal.ECONFLICT, "Applicant %d has not submitted (order status %d, %s): a pre-adverse notice follows the report.",
				sub.ID, sub.StatusID, sub.StatusID.Text())
		}
		if prev, err := s.db.findAdverseAction(ctx, tx, 0, sub.ID); err == nil {
			return nil, nil, portal.Errorf(portal.ECONFLICT, "Applicant %d already has a pre-adverse notice, sent %s.", sub.ID, portal.LongDate(prev.SentAt))
		} else if portal.ErrorCode(err) != portal.ENOTFOUND {
			return nil, nil, err
		}
		days, err := adverseWaitingDays(ctx, tx, sub.CompanyID)
		if err != nil {
			return nil, nil, err
		}
		if r.WaitingDays != nil {
			days = *r.WaitingDays
		}
		now := s.db.now()
		ends := portal.WaitingPeriodEnds(now, days)
		if _, err := tx.ExecContext(ctx, `INSERT INTO adverse_actions (subject_id, sent_at, waiting_days, ends_on, note, based_on)
			VALUES ($1, $2, $3, $4, $5, $6)`, sub.ID, ms(now), days, ends.Format(time.DateOnly), strings.TrimSpace(r.Note),
			strings.Join(r.BasedOn, ",")); err != nil {
			return nil, nil, fmt.Errorf("store: pre-adverse notice: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET status_id = $1 WHERE subject_id = $2`,
			portal.ProfileStatusPreAdverseAction, sub.ID); err != nil {
			return nil, nil, fmt.Errorf("store: pre-adverse notice: %w", err)
		}
		a, err := s.db.findAdverseAction(ctx, tx, 0, sub.ID)
		if err != nil {
			return nil, nil, err
		}
		return a, &adverseTelling{event: portal.WebhookPreAdverseAction, action: "adverse.pre",
			detail: fmt.Sprintf("pre-adverse notice: %d business days, ends %s", days, ends.Format(time.DateOnly)),
			notice: (*messageTexts).preAdverseNotice}, nil
	})
}

// SendFinalAdverseAction records the final notice once the waiting period
// has passed. The profile stays PRE_ADVERSE_ACTION (65): the spec shows
// it to the applicant as complete, which the screening is, while FINAL
// (41) and CLOSED (42) would show "pending" again; the notice's own state
// says the decision was made.
func (s *OperatorAdverseActionService) SendFinalAdverseAction(ctx context.Context, r portal.FinalAdverseRequest) (*portal.AdverseAction, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return s.send(ctx, r.CompanyID, r.SubjectID, func(tx *sql.Tx, sub *portal.Subject) (*portal.AdverseAction, *adverseTelling, error) {
		a, err := s.db.findAdverseAction(ctx, tx, 0, sub.ID)
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			return nil, nil, portal.Errorf(portal.ECONFLICT, "Applicant %d has no pre-adverse notice: send one first (portal adverse pre).", sub.ID)
		} else if err != nil {
			return nil, nil, err
		}
		now := s.db.now()
		switch {
		case a.FinalAt != nil:
			return nil, nil, portal.Errorf(portal.ECONFLICT, "Applicant %d's final adverse-action notice was sent %s.", sub.ID, portal.LongDate(*a.FinalAt))
		case !portal.Day(now).After(a.EndsOn):
			return nil, nil, portal.Errorf(portal.ECONFLICT, "The waiting period ends on %s: send the final notice after it.", portal.LongDate(a.EndsOn))
		}
		// A dispute still open means the report may change (FCRA 611): the
		// decision waits for its reinvestigation.
		var open int64
		var due int64
		err = tx.QueryRowContext(ctx, `SELECT id, due_at FROM disputes WHERE subject_id = $1 AND state <> $2 ORDER BY id LIMIT 1`,
			sub.ID, portal.DisputeResolved).Scan(&open, &due)
		if err == nil {
			return nil, nil, portal.Errorf(portal.ECONFLICT, "Applicant %d's dispute %d is still being reinvestigated (due %s): resolve it (portal dispute resolve) before the final notice.",
				sub.ID, open, portal.LongDate(fromMS(due)))
		} else if !errors.Is(err, sql.ErrNoRows) {
			return nil, nil, fmt.Errorf("store: open disputes: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE adverse_actions SET final_at = $1, final_note = $2 WHERE id = $3`,
			ms(now), strings.TrimSpace(r.Note), a.ID); err != nil {
			return nil, nil, fmt.Errorf("store: final adverse-action notice: %w", err)
		}
		if a, err = s.db.findAdverseAction(ctx, tx, 0, sub.ID); err != nil {
			return nil, nil, err
		}
		return a, &adverseTelling{event: portal.WebhookFinalAdverseAction, action: "adverse.final",
			detail: "final adverse-action notice", notice: (*messageTexts).finalAdverseNotice}, nil
	})
}

// adverseWebhook is the data of the adverse_action.* webhook events.
type adverseWebhook struct {
	AdverseActionID int64  `json:"adverseActionId"`
	State           string `json:"state"`
	WaitingDays     int    `json:"waitingDays"`
	EndsOn          string `json:"endsOn"`
}

// adverseTelling is how a notice is told: its webhook event, its audit
// action and detail, and the applicant's notice.
type adverseTelling struct {
	event, action, detail string
	notice                func(m *messageTexts, a *portal.AdverseAction) portal.Notice
}

// send runs a notice's use case in one transaction: act records it on the
// operator's applicant, then the audit row, the webhook event and the
// notice to the applicant; after the commit, the applicant's open pages
// hear of it.
func (s *OperatorAdverseActionService) send(ctx context.Context, companyID, subjectID int64,
	act func(tx *sql.Tx, sub *portal.Subject) (*portal.AdverseAction, *adverseTelling, error)) (*portal.AdverseAction, error) {
	var out *portal.AdverseAction
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		sub, err := adverseSubject(ctx, tx, companyID, subjectID)
		if err != nil {
			return err
		}
		a, tell, err := act(tx, sub)
		if err != nil {
			return err
		}
		if err := s.db.audit(ctx, tx, a.SubjectID, tell.action, tell.detail); err != nil {
			return err
		}
		if err := s.db.queueWebhook(ctx, tx, a.SubjectID, tell.event, adverseWebhook{AdverseActionID: a.ID, State: a.State(),
			WaitingDays: a.WaitingDays, EndsOn: a.EndsOn.Format(time.DateOnly)}); err != nil {
			return err
		}
		if _, err := s.db.notifyApplicant(ctx, tx, a.SubjectID, func(m *messageTexts) portal.Notice { return tell.notice(m, a) }); err != nil {
			return err
		}
		out = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.db.publishScreening(ctx, out.SubjectID, portal.ScreeningChangedAdverse)
	return out, nil
}

// adverseSubject is the applicant an operator of companyID (0: any) acts
// on; one of another company is ENOTFOUND.
func adverseSubject(ctx context.Context, q queryer, companyID, subjectID int64) (*portal.Subject, error) {
	sub, err := scanSubject(q.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1
		AND (CAST($2 AS BIGINT) = 0 OR company_id = $2)`, subjectID, companyID))
	if err != nil {
		return nil, notFound(err, "Applicant")
	}
	return sub, nil
}

// adverseWaitingDays is the company's waiting period in business days.
func adverseWaitingDays(ctx context.Context, q queryer, companyID int64) (int, error) {
	var days int
	if err := q.QueryRowContext(ctx, `SELECT adverse_action_waiting_days FROM companies WHERE id = $1`, companyID).Scan(&days); err != nil {
		return 0, notFound(err, "Company")
	}
	return days, nil
}

// findAdverseAction reads the subject's notice, with the business days
// left by the clock, within companyID (0: any).
func (s *conn) findAdverseAction(ctx context.Context, q queryer, companyID, subjectID int64) (*portal.AdverseAction, error) {
	var a portal.AdverseAction
	var sent int64
	var ends, basedOn string
	var final sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT a.id, a.subject_id, s.company_id, c.name, a.sent_at, a.waiting_days, a.ends_on, a.note,
			a.based_on, a.final_at, a.final_note
		FROM adverse_actions a JOIN subjects s ON s.id = a.subject_id JOIN companies c ON c.id = s.company_id
		WHERE a.subject_id = $1 AND (CAST($2 AS BIGINT) = 0 OR s.company_id = $2)`, subjectID, companyID).
		Scan(&a.ID, &a.SubjectID, &a.CompanyID, &a.CompanyName, &sent, &a.WaitingDays, &ends, &a.Note, &basedOn, &final, &a.FinalNote)
	if err != nil {
		return nil, notFound(err, "Adverse action")
	}
	a.SentAt, a.FinalAt = fromMS(sent), nullTime(final)
	if a.EndsOn, err = time.Parse(time.DateOnly, ends); err != nil {
		return nil, fmt.Errorf("store: adverse action %d: ends_on %q: %w", a.ID, ends, err)
	}
	if basedOn != "" {
		a.BasedOn = strings.Split(basedOn, ",")
	}
	a.BusinessDaysLeft = portal.BusinessDaysLeft(s.now(), a.SentAt, a.EndsOn)
	return &a, nil
}
