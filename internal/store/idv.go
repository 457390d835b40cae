package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"applicantportal/internal/portal"
)

// IDVConfig is what the identity-verification service needs besides the
// database: the provider and the app's return address (/idv/success).
type IDVConfig struct {
	Provider  portal.IDVProvider
	ReturnURL string
}

// IDVService keeps identity-verification sessions (portal.IDVService).
//
// The provider is never called inside a transaction: it is an outside
// party that may be slow, and the built-in sandbox writes its own records
// in this database, which on SQLite (one writer at a time) would wait for
// our transaction forever.
type IDVService struct {
	*conn
	cfg IDVConfig
}

var _ portal.IDVService = (*IDVService)(nil)

// IDV returns the identity-verification service.
func (db *DB) IDV(cfg IDVConfig) *IDVService { return &IDVService{db.conn, cfg} }

var errIDVNotStarted = portal.Errorf(portal.ECONFLICT,
	"Identity verification can only start after you submit your profile (status IDV session started).")

// MaxIDVSessionsPerDay bounds the sessions one applicant opens in 24
// hours: each is one the provider bills and keeps photos for, and an
// applicant (or a script with their token) abandoning session after
// session should not run that up. A genuine applicant needs one or two.
const MaxIDVSessionsPerDay = 10

var errIDVNotFound = portal.Errorf(portal.ENOTFOUND, "No such identity-verification session.")

// idvTokenPlace binds a session's sealed token to its row.
func idvTokenPlace(subjectID int64, sessionID string) string {
	return fmt.Sprintf("idv_sessions.token/%d/%s", subjectID, sessionID)
}

// idvReference is the applicant as the provider knows them: the subject's
// id, which names no one outside the portal.
func idvReference(subjectID int64) string { return fmt.Sprintf("subject-%d", subjectID) }

const idvColumns = `id, subject_id, token, env, status, decision, created_at, updated_at, expires_at`

func scanIDVSession(row interface{ Scan(...any) error }) (*portal.IDVSession, string, error) {
	var s portal.IDVSession
	var token, decision string
	var created, updated, expires int64
	if err := row.Scan(&s.ID, &s.SubjectID, &token, &s.Env, &s.Status, &decision, &created, &updated, &expires); err != nil {
		return nil, "", err
	}
	s.Decision = portal.IDVDecision(decision)
	s.CreatedAt, s.UpdatedAt, s.ExpiresAt = fromMS(created), fromMS(updated), fromMS(expires)
	return &s, token, nil
}

// StartSession answers the applicant's open session or opens a new one.
// Starts of one applicant run one at a time in this process (userLocks);
// a start on another instance that raced this one is caught when the row
// is inserted, under the subject's lock, and its session is answered.
func (s *IDVService) StartSession(ctx context.Context, subjectID int64) (*portal.IDVSession, error) {
	unlock, err := s.userLocks.lock(ctx, fmt.Sprintf("idv-session/%d", subjectID))
	if err != nil {
		return nil, err
	}
	defer unlock()

	var open *portal.IDVSession
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		open, err = s.openSession(ctx, tx, subjectID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if open != nil {
		// A lost callback may hide that it is finished: ask first.
		refreshed, err := s.refresh(ctx, open)
		if err != nil {
			return nil, err
		}
		if refreshed.Status == portal.IDVActive {
			return open, nil
		}
	}

	if err := s.checkSessionLimit(ctx, subjectID); err != nil {
		return nil, err
	}
	ps, err := s.cfg.Provider.CreateSession(ctx, portal.IDVSessionRequest{Reference: idvReference(subjectID), ReturnURL: s.cfg.ReturnURL})
	if err != nil {
		s.conn.cfg.Logger.ErrorContext(ctx, "identity-verification session could not be created", "subject", subjectID, "err", err)
		return nil, &portal.Error{Code: portal.EUPSTREAM, Message: portal.IDVSessionFailedMessage}
	}
	sealer := s.conn.cfg.Sealer
	if sealer == nil {
		return nil, errNoDataKey
	}
	sealed, err := sealer.SealFor([]byte(ps.Token), idvTokenPlace(subjectID, ps.ID))
	if err != nil {
		return nil, err
	}
	now := s.now()
	created := &portal.IDVSession{ID: ps.ID, SubjectID: subjectID, Token: ps.Token, Env: s.cfg.Provider.Env(),
		CreatedAt: fromMS(ms(now)), UpdatedAt: fromMS(ms(now)), ExpiresAt: fromMS(ms(ps.ExpiresAt))}
	var out *portal.IDVSession
	err = s.tx(ctx, func(tx *sql.Tx) error {
		other, err := s.openSession(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if other != nil {
			// Another instance won; the provider session made here
			// expires unused.
			out = other
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO idv_sessions (id, subject_id, token, env, status, decision, created_at, updated_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`, created.ID, subjectID, base64.StdEncoding.EncodeToString(sealed), created.Env,
			portal.IDVActive, string(portal.IDVUndecided), ms(now), ms(ps.ExpiresAt)); err != nil {
			return fmt.Errorf("store: insert identity-verification session: %w", err)
		}
		out = created
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// idvSessionWindow is the span MaxIDVSessionsPerDay counts over.
const idvSessionWindow = 24 * time.Hour

// checkSessionLimit refuses a new session (ETHROTTLED, with when to come
// back) once the applicant opened MaxIDVSessionsPerDay in the last day.
// StartSession holds the applicant's lock, so two starts do not both pass
// it; on several instances one more may slip through, which is harmless.
func (s *IDVService) checkSessionLimit(ctx context.Context, subjectID int64) error {
	since := s.now().Add(-idvSessionWindow)
	var count int
	var oldest sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), MIN(created_at) FROM idv_sessions WHERE subject_id = $1 AND created_at > $2`,
		subjectID, ms(since)).Scan(&count, &oldest); err != nil {
		return fmt.Errorf("store: count identity-verification sessions: %w", err)
	}
	if count < MaxIDVSessionsPerDay {
		return nil
	}
	// A start is free again when the oldest of them leaves the window.
	wait := fromMS(oldest.Int64).Add(idvSessionWindow).Sub(s.now())
	return &portal.Error{Code: portal.ETHROTTLED, RetryAfter: max(1, int(wait.Seconds())+1),
		Message: "You have started identity verification too many times today. Please try again tomorrow, or contact customer support for assistance."}
}

// openSession takes the subject's lock, checks that they may start
// verification, and answers their latest session when it is still active
// and unexpired as recorded (nil otherwise), with its token opened.
func (s *IDVService) openSession(ctx context.Context, tx *sql.Tx, subjectID int64) (*portal.IDVSession, error) {
	status, err := s.lockSubject(ctx, tx, subjectID)
	if err != nil {
		return nil, err
	}
	if status != portal.StatusIDVStarted {
		return nil, errIDVNotStarted
	}
	sess, token, err := scanIDVSession(tx.QueryRowContext(ctx, `SELECT `+idvColumns+` FROM idv_sessions
		WHERE subject_id = $1 AND status = $2 AND decision = $3 AND expires_at > $4
		ORDER BY created_at DESC LIMIT 1`, subjectID, portal.IDVActive, string(portal.IDVUndecided), ms(s.now())))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: find identity-verification session: %w", err)
	}
	if sess.Token, err = s.openIDVToken(sess, token); err != nil {
		return nil, err
	}
	return sess, nil
}

func (s *IDVService) openIDVToken(sess *portal.IDVSession, stored string) (string, error) {
	if s.conn.cfg.Sealer == nil {
		return "", errNoDataKey
	}
	sealed, err := base64.StdEncoding.DecodeString(stored)
	if err != nil {
		return "", fmt.Errorf("store: identity-verification session %s: token: %w", sess.ID, err)
	}
	plain, err := s.conn.cfg.Sealer.OpenFor(sealed, idvTokenPlace(sess.SubjectID, sess.ID))
	if err != nil {
		return "", fmt.Errorf("store: open the token of identity-verification session %s: %w", sess.ID, err)
	}
	return string(plain), nil
}

// Session answers one of the applicant's sessions, brought up to date.
func (s *IDVService) Session(ctx context.Context, subjectID int64, id string) (*portal.IDVSession, error) {
	sess, _, err := scanIDVSession(s.db.QueryRowContext(ctx, `SELECT `+idvColumns+` FROM idv_sessions
		WHERE id = $1 AND subject_id = $2`, id, subjectID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errIDVNotFound
	} else if err != nil {
		return nil, fmt.Errorf("store: find identity-verification session: %w", err)
	}
	return s.refresh(ctx, sess)
}

// idvSettled reports whether a session's state can no longer change:
// expired, declined, or through the provider's last step.
func idvSettled(st portal.IDVState) bool {
	return st.Status == portal.IDVExpired || st.Status == portal.IDVDataCompleted || st.Decision == portal.IDVDeclined
}

// refresh asks the provider about a session that may still move (so a
// lost callback costs nothing but a little delay), expires an active one
// past its time, and records what is newer.
func (s *IDVService) refresh(ctx context.Context, sess *portal.IDVSession) (*portal.IDVSession, error) {
	if idvSettled(sess.IDVState) {
		return sess, nil
	}
	next := sess.IDVState
	st, err := s.cfg.Provider.SessionState(ctx, sess.ID)
	switch {
	case err == nil:
		if next.Later(st) {
			next = st
		}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	default:
		// The recorded state stands; the next poll asks again.
		s.conn.cfg.Logger.WarnContext(ctx, "identity-verification provider did not answer a session's state", "session", sess.ID, "err", err)
	}
	if next.Status == portal.IDVActive && !s.now().Before(sess.ExpiresAt) {
		next = portal.IDVState{Status: portal.IDVExpired}
	}
	if next == sess.IDVState {
		return sess, nil
	}
	return s.record(ctx, sess.ID, sess.SubjectID, next)
}

// record stores state for a session when it is later than the one stored
// (portal.IDVState.Later): a poll and a callback may race, and the older
// answer must not undo the newer. It answers the session as stored after.
// subjectID 0 matches any subject (a callback names only the session).
func (s *IDVService) record(ctx context.Context, id string, subjectID int64, state portal.IDVState) (*portal.IDVSession, error) {
	var out *portal.IDVSession
	err := s.tx(ctx, func(tx *sql.Tx) error {
		query := `SELECT ` + idvColumns + ` FROM idv_sessions WHERE id = $1`
		args := []any{id}
		if subjectID != 0 {
			query += ` AND subject_id = $2`
			args = append(args, subjectID)
		}
		sess, _, err := scanIDVSession(tx.QueryRowContext(ctx, query+s.dialect.forUpdate, args...))
		if errors.Is(err, sql.ErrNoRows) {
			return errIDVNotFound
		} else if err != nil {
			return fmt.Errorf("store: find identity-verification session: %w", err)
		}
		out = sess
		if !sess.Later(state) {
			return nil
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE idv_sessions SET status = $1, decision = $2, updated_at = $3 WHERE id = $4`,
			state.Status, string(state.Decision), ms(now), id); err != nil {
			return fmt.Errorf("store: update identity-verification session: %w", err)
		}
		sess.IDVState, sess.UpdatedAt = state, fromMS(ms(now))
		return nil
	})
	return out, err
}

// ApplyCallback records a provider's signed notice.
func (s *IDVService) ApplyCallback(ctx context.Context, signature string, body []byte) error {
	cb, err := s.cfg.Provider.VerifyCallback(signature, body)
	if err != nil {
		return err
	}
	_, err = s.record(ctx, cb.SessionID, 0, cb.IDVState)
	return err
}
