package store

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"applicantportal/internal/portal"
)

// The texts of the portal's e-mails live here, one function each, so they
// read alike. They name the applicant by first name only and hold no other
// personal information: mail crosses servers the portal does not control.
// Every link is the portal's own address, which the applicant can check.

// portalLink is base followed by path and, when given, the token.
func portalLink(base, path, token string) string {
	link := strings.TrimRight(base, "/") + path
	if token != "" {
		link += "?token=" + url.QueryEscape(token)
	}
	return link
}

// subjectText makes a name one line of a subject: runs of spaces and
// control characters become one space. internal/mail refuses a subject
// with a line break, so a company name holding one would fail the e-mail
// at every attempt.
func subjectText(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

func invitationMail(companyName, firstName, link string, validFor time.Duration) (subject, body string) {
	subject = "You're invited to complete your background check for " + subjectText(companyName)
	body = fmt.Sprintf("Hello %s,\n\n%s has asked you to complete a background check through the applicant portal.\n"+
		"To start, open this link within %s and choose a password:\n\n%s\n\n"+
		"If you were not expecting this, you can ignore this message; nothing happens until you open the link.\n",
		firstName, companyName, humanDuration(validFor), link)
	return subject, body
}

// invitationReminderMail reminds an applicant who has not started, with a
// new link (which replaces the earlier ones) and the stop link.
func invitationReminderMail(companyName, firstName, link string, validFor time.Duration, stop string) (subject, body string) {
	subject = "Reminder: complete your background check for " + subjectText(companyName)
	body = fmt.Sprintf("Hello %s,\n\n%s invited you to complete a background check through the applicant portal, "+
		"and you have not started yet.\nTo start, open this link within %s and choose a password:\n\n%s\n\n"+
		"This link replaces the one in earlier e-mails.\n\n"+
		"To stop these reminders, open this link: %s\n",
		firstName, companyName, humanDuration(validFor), link, stop)
	return subject, body
}

// progressReminderMail reminds an applicant who started and has not
// finished: where to log in and what is next. It holds no credential.
func progressReminderMail(companyName, firstName, next, login, stop string) (subject, body string) {
	subject = "Reminder: finish your background check for " + subjectText(companyName)
	body = fmt.Sprintf("Hello %s,\n\nYou started your background check for %s but have not finished it yet. "+
		"Everything you saved is kept.\nNext: %s.\n\nLog in to carry on where you stopped:\n\n%s\n\n"+
		"To stop these reminders, open this link: %s\n",
		firstName, companyName, next, login, stop)
	return subject, body
}

// reminderText is progressReminderMail as a text message.
func reminderText(companyName, next, login, stop string) string {
	return fmt.Sprintf("%s: your background check is not finished. Next: %s. Log in: %s Stop reminders: %s",
		subjectText(companyName), next, login, stop)
}

func resetMail(firstName, link string, validFor time.Duration) (subject, body string) {
	subject = "Reset your applicant portal password"
	body = fmt.Sprintf("Hello %s,\n\nSomeone asked to reset the password of your applicant portal account.\n"+
		"To choose a new password, open this link within %s:\n\n%s\n\n"+
		"If you did not ask for this, ignore this message: your password stays as it is.\n",
		firstName, humanDuration(validFor), link)
	return subject, body
}

// chatWaitingMail tells an applicant who is away that their employer wrote
// in the chat. It never holds the message: chat may carry personal
// information, and e-mail is not sealed.
func chatWaitingMail(companyName, firstName string) (subject, body string) {
	subject = fmt.Sprintf("New message from %s about your background check", subjectText(companyName))
	body = fmt.Sprintf("Hello %s,\n\n%s sent you a message about your background check.\n"+
		"To read it and reply, log in to the applicant portal and open Messages at the top of the page.\n\n"+
		"You will not get another e-mail about new messages until you have read this one.\n",
		firstName, companyName)
	return subject, body
}

// MaxMailAttempts is how many failed deliveries a mail gets before the
// outbox gives up on it; `portal outbox` still lists it with its error.
const MaxMailAttempts = 10

// mailBackoff is how long a mail waits after its attempts-th failure:
// 2, 4, 8 ... minutes, at most an hour.
func mailBackoff(attempts int) time.Duration {
	if attempts >= 6 {
		return time.Hour
	}
	return time.Minute << attempts
}

// DeliverOutbox sends up to batch queued mails through mailer and answers
// how many were sent and how many failed. It claims the mails for lease
// first, in one conditional update, so processes delivering at the same
// time never send one mail twice; the sending happens outside any
// transaction. A mail whose send fails waits mailBackoff before it is
// tried again, and is given up after MaxMailAttempts. lease must be longer
// than a send can take (the mailer's timeout), or a slow send may be
// claimed again and repeated.
func (s *DB) DeliverOutbox(ctx context.Context, mailer portal.Mailer, lease time.Duration, batch int) (sent, failed int, err error) {
	now := s.now()
	// PostgreSQL: SKIP LOCKED lets a second process pass over the rows the
	// first is claiming instead of waiting for them; the repeated
	// condition re-checks a row that changed while it waited. SQLite runs
	// the statement alone.
	rows, err := s.db.QueryContext(ctx, `UPDATE outbox SET claimed_until = $1
		WHERE id IN (SELECT id FROM outbox
			WHERE sent_at IS NULL AND attempts < $2 AND (claimed_until IS NULL OR claimed_until <= $3)
			AND (sealed_body IS NOT NULL OR body <> '')
			ORDER BY id LIMIT $4`+s.dialect.skipLocked+`)
		AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $3)
		RETURNING id, to_address, subject, body, sealed_body, created_at, attempts`,
		ms(now.Add(lease)), MaxMailAttempts, ms(now), batch)
	if err != nil {
		return 0, 0, fmt.Errorf("store: claim outbox: %w", err)
	}
	// A mail whose body was dropped (its link expired before it could be
	// delivered) is not claimed: there is nothing worth sending.
	var claimed []Mail
	var unopened []error
	for rows.Next() {
		var m Mail
		var body string
		var sealed []byte
		var created int64
		if err := rows.Scan(&m.ID, &m.To, &m.Subject, &body, &sealed, &created, &m.Attempts); err != nil {
			rows.Close()
			return 0, 0, fmt.Errorf("store: claim outbox: %w", err)
		}
		unopened = append(unopened, s.openMailBody(&m, body, sealed, created))
		claimed = append(claimed, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("store: claim outbox: %w", err)
	}
	// RETURNING has no order; the oldest mail goes first.
	order := make([]int, len(claimed))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(claimed[a].ID, claimed[b].ID) })
	return sendEach(ctx, len(order), func(k int) error {
		// A body that does not open (altered, another key) counts as a
		// failed attempt, with its error in the outbox.
		if err := unopened[order[k]]; err != nil {
			return err
		}
		return mailer.Send(ctx, claimed[order[k]])
	}, func(ctx context.Context, k int, sendErr error) error {
		return s.recordDelivery(ctx, claimed[order[k]], sendErr)
	})
}

// sendEach is the sending half of an outbox's worker: it sends the n
// items it claimed one after another and records each outcome, counting
// them. When ctx ends during a send (shutting down) it stops without
// recording it: the claim runs out and the item is sent later, without a
// failure that was not the other side's. An outcome is recorded even when
// ctx ends then: a sent item left unrecorded would be sent again.
func sendEach(ctx context.Context, n int, send func(i int) error, record func(ctx context.Context, i int, sendErr error) error) (sent, failed int, err error) {
	for i := range n {
		sendErr := send(i)
		if sendErr != nil && ctx.Err() != nil {
			return sent, failed, nil
		}
		rec, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		err := record(rec, i, sendErr)
		cancel()
		if err != nil {
			return sent, failed, err
		}
		if sendErr != nil {
			failed++
		} else {
			sent++
		}
	}
	return sent, failed, nil
}

func (s *DB) recordDelivery(ctx context.Context, m Mail, sendErr error) error {
	now := s.now()
	var err error
	if sendErr == nil {
		// The body goes with the delivery: the relay and the mailbox have
		// it now, and the link in it must not outlive it here.
		_, err = s.db.ExecContext(ctx, `UPDATE outbox SET sent_at = $1, claimed_until = NULL, last_error = '', sealed_body = NULL, body = '' WHERE id = $2`, ms(now), m.ID)
	} else {
		attempts := m.Attempts + 1
		_, err = s.db.ExecContext(ctx, `UPDATE outbox SET attempts = $1, last_error = $2, claimed_until = $3 WHERE id = $4`,
			attempts, mailError(sendErr), ms(now.Add(mailBackoff(attempts))), m.ID)
	}
	if err != nil {
		return fmt.Errorf("store: record delivery of mail %d: %w", m.ID, err)
	}
	return nil
}

// mailError is what the outbox keeps of a failed send: one line, short
// enough to list.
func mailError(err error) string {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	if len(msg) > 500 {
		msg = strings.ToValidUTF8(msg[:500], "") + "..."
	}
	return msg
}

// loginCodeMail carries a one-time sign-in code. The code is the secret:
// the mail says it works once, and what to do if it was not asked for.
func loginCodeMail(firstName, code string, validFor time.Duration) (subject, body string) {
	// The code stays out of the subject, which the outbox keeps unsealed.
	subject = "Your applicant portal sign-in code"
	body = fmt.Sprintf("Hello %s,\n\nYour sign-in code for the applicant portal is:\n\n%s\n\n"+
		"Type it on the sign-in page within %s. It works once.\n\n"+
		"If you did not ask for a code, ignore this message: nobody can sign in without it, and your password stays as it is.\n",
		firstName, code, humanDuration(validFor))
	return subject, body
}
