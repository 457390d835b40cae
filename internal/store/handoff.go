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

// HandoffService implements portal.HandoffService: one-time links that
// continue the application on another device.
type HandoffService struct{ *conn }

var _ portal.HandoffService = (*HandoffService)(nil)

// Handoffs hands out the handoff service.
func (db *DB) Handoffs() *HandoffService { return &HandoffService{db.conn} }

// handoffPhone is the mobile number on file a link may be texted to, in
// E.164 form, or "": the number the applicant chose for text notices
// (personal information), else the phone of their account.
func (s *conn) handoffPhone(ctx context.Context, q queryer, subjectID int64) (string, error) {
	p, err := findPersonalInfo(ctx, q, s.cfg.Sealer, subjectID)
	if err != nil {
		return "", err
	}
	if p != nil && p.PrimaryNotificationMethod.Text != "" {
		dial := portal.DefaultDialCode
		if p.DaytimeDialCode != "" {
			dial = p.DaytimeDialCode
		}
		return textNumber(dial, p.PrimaryNotificationMethod.Text), nil
	}
	var phone string
	if err := q.QueryRowContext(ctx, `SELECT phone FROM subjects WHERE id = $1`, subjectID).Scan(&phone); err != nil {
		return "", notFound(err, "Subject")
	}
	phone = strings.TrimSpace(phone)
	switch {
	case phone == "":
		return "", nil
	case strings.HasPrefix(phone, "+"):
		return textNumber("", phone), nil
	}
	return textNumber(portal.DefaultDialCode, phone), nil
}

// phoneEnding is what the app shows of a number: its last four digits.
func phoneEnding(e164 string) string {
	if len(e164) <= 4 {
		return e164
	}
	return e164[len(e164)-4:]
}

// HandoffChannels implements portal.HandoffService.
func (s *HandoffService) HandoffChannels(ctx context.Context, subjectID int64) (*portal.HandoffChannels, error) {
	var ch portal.HandoffChannels
	if err := s.db.QueryRowContext(ctx, `SELECT email FROM subjects WHERE id = $1`, subjectID).Scan(&ch.Email); err != nil {
		return nil, notFound(err, "Subject")
	}
	phone, err := s.handoffPhone(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	if phone != "" {
		ch.PhoneEnding = phoneEnding(phone)
	}
	return &ch, nil
}

// errNoPhone answers a text asked for without a number to send it to.
func errNoPhone() error {
	var fe portal.FieldErrors
	fe.Add("send", "There is no mobile phone number on your account to text the link to. Add one to your account, or have the link e-mailed instead.")
	return fe.Err()
}

// CreateHandoff implements portal.HandoffService. The throttle counts the
// subject's links of the last HandoffWindow under the subject's row lock,
// so parallel requests are counted one after another.
func (s *HandoffService) CreateHandoff(ctx context.Context, sess portal.Session, req portal.HandoffRequest) (*portal.Handoff, error) {
	if sess.Scope != portal.ScopeDefault {
		return nil, errSetupOnly
	}
	p, err := portal.CheckHandoffPath(req.Path)
	if err != nil {
		return nil, err
	}
	if err := portal.CheckHandoffSend(req.Send); err != nil {
		return nil, err
	}
	token, hash, err := newSecret()
	if err != nil {
		return nil, err
	}
	now := s.now()
	expires := now.Add(portal.HandoffTTL)
	link := portalLink(req.BaseURL, "/continue", token)
	out := &portal.Handoff{URL: link, ExpiresAt: expires}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, sess.SubjectID); err != nil {
			return err
		}
		wait, err := s.waitFor(ctx, tx, "(SELECT created_at AS at, subject_id FROM handoffs) h", portal.HandoffWindow,
			portal.MaxHandoffsPerWindow, "subject_id = $1", sess.SubjectID)
		if err != nil {
			return err
		}
		if wait > 0 {
			secs := int((wait + time.Second - 1) / time.Second)
			e := portal.Errorf(portal.ETHROTTLED,
				"You have asked for %d links to continue on another device in the last hour. Please wait %s and try again.",
				portal.MaxHandoffsPerWindow, humanMinutes(secs))
			e.RetryAfter = secs
			return e
		}
		var email, firstName string
		var locale portal.Locale
		if err := tx.QueryRowContext(ctx, `SELECT email, first_name, locale FROM subjects WHERE id = $1`, sess.SubjectID).
			Scan(&email, &firstName, &locale); err != nil {
			return notFound(err, "Subject")
		}
		msg := messagesIn(locale)
		detail := "a link to continue on another device, shown"
		switch req.Send {
		case portal.SendByEmail:
			subject, body := msg.handoffMail(firstName, link)
			if err := s.enqueueMail(ctx, tx, now, email, subject, body, portal.HandoffTTL); err != nil {
				return err
			}
			out.SentTo, detail = email, "a link to continue on another device, e-mailed"
		case portal.SendByText:
			phone, err := s.handoffPhone(ctx, tx, sess.SubjectID)
			if err != nil {
				return err
			}
			if phone == "" {
				return errNoPhone()
			}
			if err := s.queueText(ctx, tx, sess.SubjectID, phone, msg.handoffText(link)); err != nil {
				return err
			}
			out.SentTo, detail = phoneEnding(phone), "a link to continue on another device, texted"
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO handoffs (subject_id, token_hash, path, family_id, address, sent_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			sess.SubjectID, hash, p, sess.FamilyID, portal.ActorFrom(ctx).Address, req.Send, ms(now), ms(expires)); err != nil {
			return fmt.Errorf("store: create handoff: %w", err)
		}
		return s.audit(ctx, tx, sess.SubjectID, "handoff.created", detail+" (page "+p+")")
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RedeemHandoff implements portal.HandoffService. Spending the link and
// starting the new login commit together; the conditional update is what
// makes a concurrent second use lose.
func (s *HandoffService) RedeemHandoff(ctx context.Context, clientID, clientSecret, token, ip string) (*portal.HandoffRedemption, error) {
	if err := s.checkClient(ctx, clientID, clientSecret); err != nil {
		return nil, err
	}
	if !portal.PlausibleToken(token) {
		return nil, portal.ErrHandoffInvalid
	}
	var out *portal.HandoffRedemption
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var id, subjectID, expires int64
		var p string
		var used sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT id, subject_id, path, expires_at, used_at FROM handoffs WHERE token_hash = $1`, hashSecret(token)).
			Scan(&id, &subjectID, &p, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) {
			return portal.ErrHandoffInvalid
		} else if err != nil {
			return fmt.Errorf("store: find handoff: %w", err)
		}
		now := ms(s.now())
		switch {
		case used.Valid:
			return portal.ErrHandoffUsed
		case now >= expires:
			return portal.ErrHandoffExpired
		}
		res, err := tx.ExecContext(ctx, `UPDATE handoffs SET used_at = $1 WHERE id = $2 AND used_at IS NULL`, now, id)
		if err != nil {
			return fmt.Errorf("store: spend handoff: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return portal.ErrHandoffUsed
		}
		pair, err := s.issueInTx(ctx, tx, subjectID, clientID, portal.ScopeDefault)
		if err != nil {
			return err
		}
		actx := portal.WithActor(ctx, portal.Actor{Kind: portal.ActorApplicant, ID: subjectID, Address: ip})
		if err := s.audit(actx, tx, subjectID, "handoff.used", "signed in on another device with a link (page "+p+")"); err != nil {
			return err
		}
		out = &portal.HandoffRedemption{Tokens: pair, Path: p}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// spendHandoffs ends the subject's outstanding handoff links: after a new
// password every other login ends, and a link made before must not start
// a new one.
func spendHandoffs(ctx context.Context, tx *sql.Tx, subjectID, now int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE handoffs SET expires_at = $1 WHERE subject_id = $2 AND used_at IS NULL AND expires_at > $1`, now, subjectID); err != nil {
		return fmt.Errorf("store: end handoff links: %w", err)
	}
	return nil
}
