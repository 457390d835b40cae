package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// DraftService implements portal.DraftService: each form's unsubmitted
// input, one row per subject and form in drafts (migration 00023), the
// fields sealed as one JSON object for the row's place.
type DraftService struct{ *conn }

var _ portal.DraftService = (*DraftService)(nil)

// Drafts hands out the draft service.
func (db *DB) Drafts() *DraftService { return &DraftService{db.conn} }

// draftPlace binds a sealed draft to its subject and form: a draft copied
// into another applicant's row or another form does not open.
func draftPlace(subjectID int64, form string) string {
	return fmt.Sprintf("drafts.sealed/%d/%s", subjectID, form)
}

// FindDrafts implements portal.DraftService.
func (s *DraftService) FindDrafts(ctx context.Context, subjectID int64) ([]portal.Draft, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT form_key, sealed, updated_at, expires_at FROM drafts
		WHERE subject_id = $1 AND expires_at > $2 ORDER BY form_key`, subjectID, ms(s.now()))
	if err != nil {
		return nil, fmt.Errorf("store: find drafts: %w", err)
	}
	defer rows.Close()
	out := []portal.Draft{}
	for rows.Next() {
		var form string
		var sealed []byte
		var updated, expires int64
		if err := rows.Scan(&form, &sealed, &updated, &expires); err != nil {
			return nil, fmt.Errorf("store: find drafts: %w", err)
		}
		d, err := s.openDraft(subjectID, form, sealed, updated, expires)
		if err != nil {
			return nil, err
		}
		out = append(out, *d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: find drafts: %w", err)
	}
	return out, nil
}

// FindDraft implements portal.DraftService.
func (s *DraftService) FindDraft(ctx context.Context, subjectID int64, form string) (*portal.Draft, error) {
	if _, err := portal.ParseDraftForm(form); err != nil {
		return nil, err
	}
	d, err := s.findDraft(ctx, s.db, subjectID, form)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errNoDraft
	}
	return d, nil
}

var errNoDraft = portal.Errorf(portal.ENOTFOUND, "There is no draft of this form.")

// findDraft returns the live draft of form, or nil.
func (s *conn) findDraft(ctx context.Context, q queryer, subjectID int64, form string) (*portal.Draft, error) {
	var sealed []byte
	var updated, expires int64
	err := q.QueryRowContext(ctx, `SELECT sealed, updated_at, expires_at FROM drafts
		WHERE subject_id = $1 AND form_key = $2 AND expires_at > $3`, subjectID, form, ms(s.now())).Scan(&sealed, &updated, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: find draft: %w", err)
	}
	return s.openDraft(subjectID, form, sealed, updated, expires)
}

func (s *conn) openDraft(subjectID int64, form string, sealed []byte, updated, expires int64) (*portal.Draft, error) {
	if s.cfg.Sealer == nil {
		return nil, errNoDataKey
	}
	plain, err := s.cfg.Sealer.OpenFor(sealed, draftPlace(subjectID, form))
	if err != nil {
		// Altered, sealed with another key or copied from another row: an
		// internal error that names no value.
		return nil, fmt.Errorf("store: open draft %s of subject %d: %w", form, subjectID, err)
	}
	d := &portal.Draft{Form: form, UpdatedAt: time.UnixMilli(updated).UTC(), ExpiresAt: time.UnixMilli(expires).UTC()}
	if err := json.Unmarshal(plain, &d.Fields); err != nil {
		return nil, fmt.Errorf("store: decode draft %s: %w", form, err)
	}
	if d.Fields == nil {
		d.Fields = map[string]json.RawMessage{}
	}
	return d, nil
}

// SaveDraft implements portal.DraftService: in one transaction holding the
// subject's lock, so a submission cannot slip in between the check that the
// form is still open and the write (and a draft never outlives the save
// that deletes it).
func (s *DraftService) SaveDraft(ctx context.Context, subjectID int64, form string, changes map[string]json.RawMessage) (*portal.Draft, error) {
	f, err := portal.ParseDraftForm(form)
	if err != nil {
		return nil, err
	}
	if s.cfg.Sealer == nil {
		return nil, errNoDataKey
	}
	var out *portal.Draft
	err = s.tx(ctx, func(tx *sql.Tx) error {
		status, err := s.lockSubject(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if err := s.checkDraftForm(ctx, tx, subjectID, status, f); err != nil {
			return err
		}
		old, err := s.findDraft(ctx, tx, subjectID, form)
		if err != nil {
			return err
		}
		var fields map[string]json.RawMessage
		if old != nil {
			fields = old.Fields
		}
		merged, err := portal.MergeDraft(fields, changes)
		if err != nil {
			return err
		}
		now := s.now()
		out = &portal.Draft{Form: form, Fields: merged, UpdatedAt: now.UTC().Truncate(time.Millisecond),
			ExpiresAt: now.Add(s.cfg.DraftTTL).UTC().Truncate(time.Millisecond)}
		if len(merged) == 0 {
			// Every change was taken back: nothing is left to keep.
			return s.deleteDraft(ctx, tx, subjectID, form)
		}
		plain, err := json.Marshal(merged)
		if err != nil {
			return fmt.Errorf("store: encode draft: %w", err)
		}
		sealed, err := s.cfg.Sealer.SealFor(plain, draftPlace(subjectID, form))
		if err != nil {
			return err
		}
		// An expired row still there (the sweep has not run) is replaced,
		// created_at included: it is a new draft.
		_, err = tx.ExecContext(ctx, `INSERT INTO drafts (subject_id, form_key, sealed, created_at, updated_at, expires_at)
			VALUES ($1, $2, $3, $4, $4, $5)
			ON CONFLICT (subject_id, form_key) DO UPDATE SET sealed = excluded.sealed,
				created_at = CASE WHEN drafts.expires_at > excluded.updated_at THEN drafts.created_at ELSE excluded.created_at END,
				updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
			subjectID, form, sealed, ms(now), ms(out.ExpiresAt))
		if err != nil {
			return fmt.Errorf("store: save draft: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkDraftForm refuses a draft the form's own save would refuse: the
// history and service pages once the profile is submitted, and a service
// page the subject's package does not have. Personal information and the
// account stay open (their saves are taken whatever the status).
func (s *conn) checkDraftForm(ctx context.Context, tx *sql.Tx, subjectID int64, status portal.StatusID, f portal.DraftForm) error {
	if f.IsService() {
		_, pkg, err := s.subjectPackage(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		found := false
		for _, p := range portal.ServicePages(pkg) {
			found = found || p.Alias == f.Alias
		}
		if !found {
			return portal.ErrUnknownDraftForm
		}
	}
	switch {
	case f.Key == portal.DraftAliases, f.Key == portal.DraftAddresses, f.IsService():
		if !portal.DataWritable(status) {
			return portal.ErrProfileSubmitted
		}
	}
	return nil
}

// DeleteDraft implements portal.DraftService.
func (s *DraftService) DeleteDraft(ctx context.Context, subjectID int64, form string) error {
	if _, err := portal.ParseDraftForm(form); err != nil {
		return err
	}
	return s.deleteDraft(ctx, s.db, subjectID, form)
}

// deleteDraft discards the draft of form; the form's saves call it inside
// their transaction, so the submitted data and its draft never both hold
// the applicant's latest answer.
func (s *conn) deleteDraft(ctx context.Context, q queryer, subjectID int64, form string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM drafts WHERE subject_id = $1 AND form_key = $2`, subjectID, form); err != nil {
		return fmt.Errorf("store: delete draft: %w", err)
	}
	return nil
}

// Account drafts hold two forms of the account page, each under its own
// prefix: the notification preference's fields and the e-mail change's.
// A save of one spends only its own fields.
const (
	accountNotificationFields = "notification."
	accountEmailFields        = "email."
)

// dropDraftFields removes the fields of form's draft whose names start with
// prefix, and the draft itself when nothing is left.
func (s *conn) dropDraftFields(ctx context.Context, q queryer, subjectID int64, form, prefix string) error {
	d, err := s.findDraft(ctx, q, subjectID, form)
	if err != nil || d == nil {
		return err
	}
	changes := map[string]json.RawMessage{}
	for k := range d.Fields {
		if strings.HasPrefix(k, prefix) {
			changes[k] = nil
		}
	}
	if len(changes) == 0 {
		return nil
	}
	if len(changes) == len(d.Fields) {
		return s.deleteDraft(ctx, q, subjectID, form)
	}
	for k := range changes {
		delete(d.Fields, k)
	}
	plain, err := json.Marshal(d.Fields)
	if err != nil {
		return fmt.Errorf("store: encode draft: %w", err)
	}
	sealed, err := s.cfg.Sealer.SealFor(plain, draftPlace(subjectID, form))
	if err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `UPDATE drafts SET sealed = $1 WHERE subject_id = $2 AND form_key = $3`, sealed, subjectID, form); err != nil {
		return fmt.Errorf("store: save draft: %w", err)
	}
	return nil
}
