package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"applicantportal/internal/portal"
)

// OperatorScreeningService is portal.OperatorScreeningService on the
// store: the staff move each service, the order and the profile after
// submission (order_service_states, orders, profiles).
type OperatorScreeningService struct{ db *DB }

var _ portal.OperatorScreeningService = (*OperatorScreeningService)(nil)

// screeningSubject is what a screening action needs of the applicant.
type screeningSubject struct {
	id, companyID int64
	status        portal.StatusID
	firstName     string
}

// lockScreeningSubject takes the applicant's lock and checks the
// operator's company: another company's applicant (companyID 0: any) is
// ENOTFOUND, exactly as one that does not exist.
func (s *conn) lockScreeningSubject(ctx context.Context, tx *sql.Tx, companyID, subjectID int64) (*screeningSubject, error) {
	sub := screeningSubject{id: subjectID}
	err := tx.QueryRowContext(ctx, `SELECT company_id, status_id, first_name FROM subjects WHERE id = $1`+s.dialect.forUpdate, subjectID).
		Scan(&sub.companyID, &sub.status, &sub.firstName)
	if err != nil || (companyID != 0 && sub.companyID != companyID) {
		if err == nil || errors.Is(err, sql.ErrNoRows) {
			return nil, portal.Errorf(portal.ENOTFOUND, "Applicant not found.")
		}
		return nil, fmt.Errorf("store: applicant: %w", err)
	}
	return &sub, nil
}

// latestOrder is the applicant's newest order with a package, and the
// services of the package (code -> name, and the codes in order).
func latestOrder(ctx context.Context, q queryer, subjectID int64) (int64, []portal.ServiceProgress, error) {
	var orderID, packageID int64
	err := q.QueryRowContext(ctx, `SELECT o.id, o.package_id FROM orders o JOIN profiles p ON p.id = o.profile_id
		WHERE p.subject_id = $1 AND o.package_id IS NOT NULL ORDER BY o.id DESC LIMIT 1`, subjectID).Scan(&orderID, &packageID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, portal.Errorf(portal.ENOTFOUND, "Applicant %d has no order with services.", subjectID)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("store: order: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT code, name FROM package_services WHERE package_id = $1 ORDER BY id`, packageID)
	if err != nil {
		return 0, nil, fmt.Errorf("store: order services: %w", err)
	}
	defer rows.Close()
	var out []portal.ServiceProgress
	for rows.Next() {
		p := portal.ServiceProgress{State: portal.ServicePending}
		if err := rows.Scan(&p.Code, &p.Name); err != nil {
			return 0, nil, fmt.Errorf("store: order services: %w", err)
		}
		out = append(out, p)
	}
	return orderID, out, rows.Err()
}

// orderProgress is what the staff set of an order's services, by code.
func orderProgress(ctx context.Context, q queryer, orderID int64) (map[string]portal.ServiceProgress, error) {
	rows, err := q.QueryContext(ctx, `SELECT code, state, reason, note, eta_min, eta_max, eta_from, updated_at
		FROM order_service_states WHERE order_id = $1`, orderID)
	if err != nil {
		return nil, fmt.Errorf("store: service states: %w", err)
	}
	defer rows.Close()
	out := map[string]portal.ServiceProgress{}
	for rows.Next() {
		var p portal.ServiceProgress
		var from sql.NullInt64
		var updated int64
		if err := rows.Scan(&p.Code, &p.State, &p.Reason, &p.Note, &p.ETADays.Min, &p.ETADays.Max, &from, &updated); err != nil {
			return nil, fmt.Errorf("store: service states: %w", err)
		}
		if from.Valid {
			p.ETAFrom = fromMS(from.Int64)
		}
		p.UpdatedAt = fromMS(updated)
		out[p.Code] = p
	}
	return out, rows.Err()
}

// withProgress fills in the progress stored for each service.
func withProgress(services []portal.ServiceProgress, stored map[string]portal.ServiceProgress) {
	for i, svc := range services {
		if p, ok := stored[svc.Code]; ok {
			p.Name = svc.Name
			services[i] = p
		}
	}
}

// companyETADays is the company's own estimate of a service code, or
// portal's default.
func companyETADays(ctx context.Context, q queryer, companyID int64, code string) (portal.ETADays, error) {
	var d portal.ETADays
	err := q.QueryRowContext(ctx, `SELECT min_days, max_days FROM company_service_etas WHERE company_id = $1 AND code = $2`,
		companyID, code).Scan(&d.Min, &d.Max)
	if errors.Is(err, sql.ErrNoRows) {
		return portal.DefaultETADays(code), nil
	}
	if err != nil {
		return d, fmt.Errorf("store: company estimate: %w", err)
	}
	return d, nil
}

// ServiceStates lists the services of the applicant's newest order.
func (s *OperatorScreeningService) ServiceStates(ctx context.Context, companyID, subjectID int64) ([]portal.ServiceProgress, error) {
	var out []portal.ServiceProgress
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.db.lockScreeningSubject(ctx, tx, companyID, subjectID); err != nil {
			return err
		}
		orderID, services, err := latestOrder(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		stored, err := orderProgress(ctx, tx, orderID)
		if err != nil {
			return err
		}
		withProgress(services, stored)
		out = services
		return nil
	})
	return out, err
}

// serviceChanged is the data of a service.changed webhook event.
type serviceChanged struct {
	OrderID  int64  `json:"orderId"`
	Service  string `json:"service"`
	State    string `json:"state"`
	Reason   string `json:"reason,omitempty"`
	Earliest string `json:"estimateEarliest,omitempty"`
	Latest   string `json:"estimateLatest,omitempty"`
}

// SetServiceState stores the service's state with its estimate, and tells
// the applicant when the service now waits on them (not again when it
// already did for the same reason).
func (s *OperatorScreeningService) SetServiceState(ctx context.Context, companyID int64, req portal.SetServiceStateRequest) (*portal.ServiceProgress, error) {
	reason, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	var out portal.ServiceProgress
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		sub, err := s.db.lockScreeningSubject(ctx, tx, companyID, req.SubjectID)
		if err != nil {
			return err
		}
		orderID, services, err := latestOrder(ctx, tx, sub.id)
		if err != nil {
			return err
		}
		var codes []string
		for _, svc := range services {
			codes = append(codes, svc.Code)
			if svc.Code == req.Code {
				out.Name = svc.Name
			}
		}
		if out.Name == "" {
			return portal.FieldErrors{portal.FieldErrorf("service", "Applicant %d's package has no service %q: say one of %s.",
				sub.id, req.Code, strings.Join(codes, ", "))}.Err()
		}
		stored, err := orderProgress(ctx, tx, orderID)
		if err != nil {
			return err
		}
		before := stored[req.Code]
		days := portal.ETADays{}
		if req.ETADays != nil {
			days = *req.ETADays
		} else if days, err = companyETADays(ctx, tx, sub.companyID, req.Code); err != nil {
			return err
		}
		now := s.db.now()
		out.Code, out.State, out.Reason, out.Note, out.UpdatedAt = req.Code, req.State, req.Reason, req.Note, now
		out.ETAFrom, out.ETADays = portal.PlanEstimate(now, req.State, reason, req.Note, days)
		var from any
		if !out.ETAFrom.IsZero() {
			from = ms(out.ETAFrom)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_service_states (order_id, code, state, reason, note, eta_min, eta_max, eta_from, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (order_id, code) DO UPDATE SET state = excluded.state, reason = excluded.reason, note = excluded.note,
				eta_min = excluded.eta_min, eta_max = excluded.eta_max, eta_from = excluded.eta_from, updated_at = excluded.updated_at`,
			orderID, req.Code, req.State, req.Reason, req.Note, out.ETADays.Min, out.ETADays.Max, from, ms(now)); err != nil {
			return fmt.Errorf("store: set service state: %w", err)
		}
		event := serviceChanged{OrderID: orderID, Service: req.Code, State: string(req.State), Reason: req.Reason}
		detail := fmt.Sprintf("%s (%s): %s", out.Name, req.Code, req.State)
		if req.Reason != "" {
			detail += ", " + req.Reason
		}
		if est := out.Estimate(); est != nil {
			event.Earliest, event.Latest = est.Earliest.Format("2006-01-02"), est.Latest.Format("2006-01-02")
			detail += ", expected " + event.Earliest + " to " + event.Latest
		}
		if err := s.db.audit(ctx, tx, sub.id, "service.set", detail); err != nil {
			return err
		}
		if err := s.db.queueWebhook(ctx, tx, sub.id, portal.WebhookServiceChanged, event); err != nil {
			return err
		}
		if !req.State.NeedsApplicant() || (before.State == req.State && before.Reason == req.Reason) {
			return nil
		}
		_, err = s.db.notifyApplicant(ctx, tx, sub.id, func(m *messageTexts) portal.Notice {
			what := ""
			if reason != nil {
				what = reason.ApplicantText(req.Note, m.lang)
			}
			return m.needsNotice(sub.firstName, out.Name, what)
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.db.publishScreening(ctx, req.SubjectID, portal.ScreeningChangedServices)
	return &out, nil
}

// statusChange is what a status the staff set changed: its audit row,
// its webhook event, and whether it completes the screening (the
// applicant is then told).
type statusChange struct {
	action, detail string
	event          string
	data           any
	completes      bool
}

// setScreeningStatus runs apply on the locked applicant of the company
// and records what it changed (nil: nothing, as when the status is
// already the one asked for); once committed, the applicant's open pages
// are told.
func (s *OperatorScreeningService) setScreeningStatus(ctx context.Context, companyID, subjectID int64,
	apply func(tx *sql.Tx, sub *screeningSubject) (*statusChange, error)) error {
	var change *statusChange
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		sub, err := s.db.lockScreeningSubject(ctx, tx, companyID, subjectID)
		if err != nil {
			return err
		}
		if change, err = apply(tx, sub); err != nil || change == nil {
			return err
		}
		if err := s.db.audit(ctx, tx, sub.id, change.action, change.detail); err != nil {
			return err
		}
		if err := s.db.queueWebhook(ctx, tx, sub.id, change.event, change.data); err != nil {
			return err
		}
		if !change.completes {
			return nil
		}
		_, err = s.db.notifyApplicant(ctx, tx, sub.id, func(m *messageTexts) portal.Notice { return m.completeNotice(sub.firstName) })
		return err
	})
	if err == nil && change != nil {
		s.db.publishScreening(ctx, subjectID, portal.ScreeningChangedServices)
	}
	return err
}

// SetOrderStatus moves the applicant and their orders to any order
// status, as setStatus does for the applicant's own moves but without
// their rules; the same status again changes nothing.
func (s *OperatorScreeningService) SetOrderStatus(ctx context.Context, companyID, subjectID int64, status portal.StatusID) error {
	if !status.Valid() {
		return portal.FieldErrors{portal.FieldErrorf("statusId", "Unknown order status %d: say one of %s.",
			int(status), portal.ValidOrderStatuses())}.Err()
	}
	return s.setScreeningStatus(ctx, companyID, subjectID, func(tx *sql.Tx, sub *screeningSubject) (*statusChange, error) {
		if sub.status == status {
			return nil, nil
		}
		if err := s.db.setStatus(ctx, tx, sub.id, sub.status, status); err != nil {
			return nil, err
		}
		return &statusChange{action: "order.set", detail: fmt.Sprintf("order status: %s -> %s", sub.status.Text(), status.Text()),
			event:     portal.WebhookOrderChanged,
			data:      map[string]any{"statusId": status, "statusText": status.Text(), "previousStatusId": sub.status},
			completes: status == portal.StatusComplete}, nil
	})
}

// SetProfileStatus sets the profile status to any id of spec section 4;
// the same status again changes nothing. COMPLETED tells the applicant;
// PRE_ADVERSE_ACTION's notice is the adverse action's own.
func (s *OperatorScreeningService) SetProfileStatus(ctx context.Context, companyID, subjectID int64, status int) error {
	name, ok := portal.ProfileStatusName(status)
	if !ok {
		return portal.FieldErrors{portal.FieldErrorf("statusId", "Unknown profile status %d: say one of %s.",
			status, portal.ProfileStatusNames())}.Err()
	}
	return s.setScreeningStatus(ctx, companyID, subjectID, func(tx *sql.Tx, sub *screeningSubject) (*statusChange, error) {
		var from int
		if err := tx.QueryRowContext(ctx, `SELECT status_id FROM profiles WHERE subject_id = $1`, sub.id).Scan(&from); err != nil {
			return nil, notFound(err, "Profile")
		}
		if from == status {
			return nil, nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET status_id = $1 WHERE subject_id = $2`, status, sub.id); err != nil {
			return nil, fmt.Errorf("store: set profile status: %w", err)
		}
		fromName, _ := portal.ProfileStatusName(from)
		return &statusChange{action: "profile.set", detail: fmt.Sprintf("profile status: %s (%d) -> %s (%d)", fromName, from, name, status),
			event:     portal.WebhookProfileChanged,
			data:      map[string]any{"statusId": status, "status": name, "shown": portal.ProfileStatusShown(status), "previousStatusId": from},
			completes: status == portal.ProfileStatusCompleted}, nil
	})
}
