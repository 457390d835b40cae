package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// rawMail is an outbox row as a backup holds it.
type rawMail struct {
	id                int64
	to, subject, body string
	sealed            []byte
}

func rawOutbox(t *testing.T, db *store.DB) []rawMail {
	t.Helper()
	rows, err := db.SQL().Query(`SELECT id, to_address, subject, body, sealed_body FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []rawMail
	for rows.Next() {
		var m rawMail
		if err := rows.Scan(&m.id, &m.to, &m.subject, &m.body, &m.sealed); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// mailNamed is the one mail to an address whose subject starts so.
func mailNamed(t *testing.T, db *store.DB, to, subject string) store.Mail {
	t.Helper()
	for _, m := range mailsTo(t, db, to) {
		if strings.HasPrefix(m.Subject, subject) {
			return m
		}
	}
	t.Fatalf("no mail %q to %s", subject, to)
	return store.Mail{}
}

// TestOutboxKeepsNoLiveLinkInPlainText: the outbox rows (what a backup
// holds) carry no link or token; `portal outbox` (Outbox) still shows
// the body; a delivered mail's body is gone, and so is a queued mail's
// once its link expired and the sweep ran.
func TestOutboxKeepsNoLiveLinkInPlainText(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c.t = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		w := newMailWorld(t, db)
		delivered := w.invite(t, "delivered@example.com", portalURL)
		mailer := newFakeMailer()
		if sent, _, err := db.DeliverOutbox(ctx, mailer, time.Minute, 10); err != nil || sent != 1 {
			t.Fatalf("DeliverOutbox = %d, %v; want the invitation sent", sent, err)
		}
		invited := w.invite(t, "invited@example.com", portalURL)
		if err := db.Auth().SetInitialPassword(ctx, delivered.Subject.ID, goodPass); err != nil {
			t.Fatal(err)
		}
		if err := db.Auth().RequestPasswordReset(ctx, "delivered@example.com", "203.0.113.9", portalURL); err != nil {
			t.Fatal(err)
		}
		reset := linkToken(t, mailNamed(t, db, "delivered@example.com", "Reset").Body, "/reset")

		t.Run("NoLinkOrTokenInTheRows", func(t *testing.T) {
			for _, m := range rawOutbox(t, db) {
				row := m.subject + m.body + string(m.sealed)
				for _, secret := range []string{"token=", delivered.Token, invited.Token, reset, "Hello"} {
					if strings.Contains(row, secret) {
						t.Errorf("outbox row %d holds %q in plain text: %q / %q", m.id, secret, m.subject, m.body)
					}
				}
			}
		})
		t.Run("QueuedMailShowsItsLink", func(t *testing.T) {
			m := mailNamed(t, db, "invited@example.com", "You're invited")
			if linkToken(t, m.Body, "/setup") != invited.Token || m.BodyRemoved {
				t.Errorf("queued invitation %+v; want its link", m)
			}
		})
		t.Run("DeliveredMailSentWithItsLinkThenDropped", func(t *testing.T) {
			m := mailNamed(t, db, "delivered@example.com", "You're invited")
			if got := mailer.bodies[m.ID]; !strings.Contains(got, delivered.Token) {
				t.Errorf("the relay got %q; want the link", got)
			}
			if m.Body != "" || !m.BodyRemoved || m.SentAt == nil {
				t.Errorf("delivered mail %+v; want its body removed", m)
			}
			for _, r := range rawOutbox(t, db) {
				if r.id == m.ID && (r.body != "" || r.sealed != nil) {
					t.Errorf("delivered row keeps body %q, sealed %x", r.body, r.sealed)
				}
			}
		})
		t.Run("ExpiredLinksBodyDroppedBySweep", func(t *testing.T) {
			c.advance(time.Hour + time.Second) // the reset link's life
			if _, err := w.ops.Maintenance.Sweep(ctx); err != nil {
				t.Fatal(err)
			}
			if m := mailNamed(t, db, "delivered@example.com", "Reset"); m.Body != "" || !m.BodyRemoved {
				t.Errorf("expired reset mail %+v; want its body removed", m)
			}
			if m := mailNamed(t, db, "invited@example.com", "You're invited"); m.BodyRemoved || !strings.Contains(m.Body, invited.Token) {
				t.Errorf("invitation with a live link %+v; want its body kept", m)
			}
			c.advance(14 * 24 * time.Hour)
			if _, err := w.ops.Maintenance.Sweep(ctx); err != nil {
				t.Fatal(err)
			}
			if m := mailNamed(t, db, "invited@example.com", "You're invited"); m.Body != "" || !m.BodyRemoved {
				t.Errorf("expired invitation %+v; want its body removed", m)
			}
			for _, r := range rawOutbox(t, db) {
				if r.body != "" || r.sealed != nil {
					t.Errorf("row %d to %s keeps body %q, sealed %x", r.id, r.to, r.body, r.sealed)
				}
			}
		})
	})
}

// TestPlainOutboxRowsSealedAtStart: rows an earlier version stored in
// plain text are sealed at the next start (a sent one loses its body),
// Outbox still shows the queued one, and a further start changes
// nothing.
func TestPlainOutboxRowsSealedAtStart(t *testing.T) {
	cfg := storetest.Config(t)
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		ctx := context.Background()
		db := open(cfg)
		const queued = "Hello Sam,\n\nhttps://portal.example.com/setup?token=legacy-queued-token\n"
		if _, err := db.SQL().Exec(`INSERT INTO outbox (to_address, subject, body, created_at) VALUES ($1, $2, $3, $4)`,
			"sam@example.com", "You're invited", queued, time.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL().Exec(`INSERT INTO outbox (to_address, subject, body, created_at, sent_at) VALUES ($1, $2, $3, $4, $4)`,
			"kim@example.com", "Reset your applicant portal password", "https://portal.example.com/reset?token=legacy-sent-token", time.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		for _, start := range []string{"FirstStartSeals", "NextStartChangesNothing"} {
			t.Run(start, func(t *testing.T) {
				db := open(cfg)
				for _, r := range rawOutbox(t, db) {
					if strings.Contains(r.body+string(r.sealed), "token=") {
						t.Errorf("row %d still holds its link: %q", r.id, r.body)
					}
				}
				all, err := db.Outbox(ctx)
				if err != nil || len(all) != 2 {
					t.Fatalf("Outbox = %+v, %v", all, err)
				}
				if all[0].Body != queued || all[0].BodyRemoved {
					t.Errorf("queued legacy mail %+v; want its body", all[0])
				}
				if all[1].Body != "" || !all[1].BodyRemoved {
					t.Errorf("sent legacy mail %+v; want its body removed", all[1])
				}
			})
		}
	})
}
