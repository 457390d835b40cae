package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// draftClock is a clock the draft tests move.
type draftClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *draftClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *draftClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func eachDraftDB(t *testing.T, run func(t *testing.T, db *store.DB, clock *draftClock)) {
	t.Helper()
	clock := &draftClock{now: time.Date(2026, 11, 22, 10, 42, 0, 0, time.UTC)}
	cfg := storetest.Config(t)
	cfg.Now = clock.Now
	cfg.DraftTTL = 72 * time.Hour
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		clock.mu.Lock()
		clock.now = time.Date(2026, 11, 22, 10, 42, 0, 0, time.UTC)
		clock.mu.Unlock()
		run(t, db, clock)
	})
}

func fields(t *testing.T, kv ...string) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = json.RawMessage(kv[i+1])
	}
	return out
}

func TestDraftSaveMergeRestore(t *testing.T) {
	eachDraftDB(t, func(t *testing.T, db *store.DB, clock *draftClock) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		drafts := db.Drafts()

		d, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftPersonal, fields(t, "firstName", `"Janet"`, "ssn", `"123-45-6789"`))
		if err != nil {
			t.Fatal(err)
		}
		if !d.UpdatedAt.Equal(clock.Now()) || !d.ExpiresAt.Equal(clock.Now().Add(72*time.Hour)) {
			t.Errorf("times %v / %v; want now and now+72h", d.UpdatedAt, d.ExpiresAt)
		}
		clock.Add(time.Hour)
		// Only the changed fields: a new one, a changed one, a removed one.
		if _, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftPersonal, fields(t, "lastName", `"Doe-Smith"`, "firstName", `"Jan"`, "ssn", `null`)); err != nil {
			t.Fatal(err)
		}
		got, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftPersonal)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Fields) != 2 || string(got.Fields["firstName"]) != `"Jan"` || string(got.Fields["lastName"]) != `"Doe-Smith"` {
			t.Errorf("merged fields %s; want firstName Jan and lastName Doe-Smith, no ssn", mustJSON(t, got.Fields))
		}
		if !got.ExpiresAt.Equal(clock.Now().Add(72 * time.Hour)) {
			t.Errorf("expiry %v; want counted from the last save", got.ExpiresAt)
		}

		if _, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftAddresses, fields(t, "addresses", `[{"city":"Boise"}]`)); err != nil {
			t.Fatal(err)
		}
		all, err := drafts.FindDrafts(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 2 || all[0].Form != portal.DraftAddresses || all[1].Form != portal.DraftPersonal {
			t.Fatalf("drafts %+v; want addresses and personal", all)
		}

		t.Run("RemovingEveryFieldDeletesTheDraft", func(t *testing.T) {
			if _, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftAddresses, fields(t, "addresses", `null`)); err != nil {
				t.Fatal(err)
			}
			_, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftAddresses)
			wantCode(t, err, portal.ENOTFOUND)
		})
		t.Run("Discard", func(t *testing.T) {
			if err := drafts.DeleteDraft(ctx, w.jane.ID, portal.DraftPersonal); err != nil {
				t.Fatal(err)
			}
			_, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftPersonal)
			wantCode(t, err, portal.ENOTFOUND)
			// Discarding twice is no error.
			if err := drafts.DeleteDraft(ctx, w.jane.ID, portal.DraftPersonal); err != nil {
				t.Fatal(err)
			}
		})
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDraftOfAnotherSubjectIsNeverSeen(t *testing.T) {
	eachDraftDB(t, func(t *testing.T, db *store.DB, _ *draftClock) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		drafts := db.Drafts()
		if _, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftAliases, fields(t, "aliases.0.firstName", `"Janie"`)); err != nil {
			t.Fatal(err)
		}
		_, err := drafts.FindDraft(ctx, w.bob.ID, portal.DraftAliases)
		wantCode(t, err, portal.ENOTFOUND)
		all, err := drafts.FindDrafts(ctx, w.bob.ID)
		if err != nil || len(all) != 0 {
			t.Fatalf("bob's drafts %+v, %v; want none", all, err)
		}
		// Bob's discard does not reach Jane's draft.
		if err := drafts.DeleteDraft(ctx, w.bob.ID, portal.DraftAliases); err != nil {
			t.Fatal(err)
		}
		if _, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftAliases); err != nil {
			t.Fatalf("jane's draft after bob's discard: %v", err)
		}
		t.Run("SealedForItsRowOnly", func(t *testing.T) {
			// Jane's sealed draft copied into Bob's row does not open.
			if _, err := db.SQL().Exec(`INSERT INTO drafts (subject_id, form_key, sealed, created_at, updated_at, expires_at)
				SELECT $1, form_key, sealed, created_at, updated_at, expires_at FROM drafts WHERE subject_id = $2`, w.bob.ID, w.jane.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := drafts.FindDraft(ctx, w.bob.ID, portal.DraftAliases); err == nil {
				t.Fatal("a draft copied from another applicant opened")
			}
		})
	})
}

func TestDraftRawRowIsSealed(t *testing.T) {
	eachDraftDB(t, func(t *testing.T, db *store.DB, _ *draftClock) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		if _, err := db.Drafts().SaveDraft(ctx, w.jane.ID, portal.DraftPersonal,
			fields(t, "firstName", `"Marguerite"`, "ssn", `"123-45-6789"`, "dob", `"1990-04-12"`, "licenses.0.licenseNumber", `"D7654321"`)); err != nil {
			t.Fatal(err)
		}
		var raw []byte
		if err := db.SQL().QueryRow(`SELECT sealed FROM drafts WHERE subject_id = $1`, w.jane.ID).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"Marguerite", "123-45-6789", "6789", "1990-04-12", "D7654321", "firstName", "ssn"} {
			if bytes.Contains(raw, []byte(secret)) {
				t.Errorf("raw draft row contains %q", secret)
			}
		}
	})
}

func TestDraftExpiryAndSweep(t *testing.T) {
	eachDraftDB(t, func(t *testing.T, db *store.DB, clock *draftClock) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		drafts := db.Drafts()
		if _, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftPersonal, fields(t, "firstName", `"Janet"`)); err != nil {
			t.Fatal(err)
		}
		clock.Add(48 * time.Hour)
		if _, err := drafts.SaveDraft(ctx, w.bob.ID, portal.DraftPersonal, fields(t, "firstName", `"Robert"`)); err != nil {
			t.Fatal(err)
		}
		clock.Add(24*time.Hour - time.Millisecond)
		if _, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftPersonal); err != nil {
			t.Fatalf("a millisecond before expiry: %v", err)
		}
		clock.Add(time.Millisecond)
		_, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftPersonal)
		wantCode(t, err, portal.ENOTFOUND)
		if all, _ := drafts.FindDrafts(ctx, w.jane.ID); len(all) != 0 {
			t.Errorf("the list still answers an expired draft: %+v", all)
		}
		res, err := db.Sweep(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Drafts != 1 {
			t.Errorf("sweep deleted %d drafts; want 1 (jane's expired one)", res.Drafts)
		}
		var n int
		if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM drafts`).Scan(&n); err != nil || n != 1 {
			t.Errorf("rows left %d, %v; want bob's live draft", n, err)
		}
		t.Run("SavingAfterExpiryStartsAfresh", func(t *testing.T) {
			clock.Add(72 * time.Hour)
			if _, err := drafts.SaveDraft(ctx, w.bob.ID, portal.DraftPersonal, fields(t, "lastName", `"Roe"`)); err != nil {
				t.Fatal(err)
			}
			d, err := drafts.FindDraft(ctx, w.bob.ID, portal.DraftPersonal)
			if err != nil {
				t.Fatal(err)
			}
			if _, stale := d.Fields["firstName"]; stale || len(d.Fields) != 1 {
				t.Errorf("fields %s; the expired draft's fields came back", mustJSON(t, d.Fields))
			}
		})
	})
}

func TestDraftDeletedOnSubmit(t *testing.T) {
	eachDraftDB(t, func(t *testing.T, db *store.DB, _ *draftClock) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		drafts := db.Drafts()
		put := func(form string, kv ...string) {
			t.Helper()
			if _, err := drafts.SaveDraft(ctx, w.jane.ID, form, fields(t, kv...)); err != nil {
				t.Fatal(err)
			}
		}
		gone := func(form string) {
			t.Helper()
			_, err := drafts.FindDraft(ctx, w.jane.ID, form)
			wantCode(t, err, portal.ENOTFOUND)
		}
		t.Run("Aliases", func(t *testing.T) {
			put(portal.DraftAliases, "aliases.0.lastName", `"Smithson"`)
			if _, err := db.History().SaveAliases(ctx, w.jane.ID, []portal.Alias{{Type: "maiden", FirstName: "Jane", LastName: "Smithson", From: "1999-01", To: "2010-06"}}); err != nil {
				t.Fatal(err)
			}
			gone(portal.DraftAliases)
		})
		t.Run("Addresses", func(t *testing.T) {
			put(portal.DraftAddresses, "addresses", `[{"city":"Boise"}]`)
			if _, err := db.History().SaveAddresses(ctx, w.jane.ID, []portal.Address{currentAddress}, true); err != nil {
				t.Fatal(err)
			}
			gone(portal.DraftAddresses)
		})
		t.Run("AFailedSaveKeepsTheDraft", func(t *testing.T) {
			put(portal.DraftAliases, "aliases.0.lastName", `"Smithson"`)
			if _, err := db.History().SaveAliases(ctx, w.jane.ID, []portal.Alias{{Type: "maiden"}}); err == nil {
				t.Fatal("an alias without a name was saved")
			}
			if _, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftAliases); err != nil {
				t.Fatalf("the draft went with a refused save: %v", err)
			}
		})
		t.Run("ServicePage", func(t *testing.T) {
			put("service:employment", "entries.0.employer_name", `"Acme"`)
			put("service:education", "entries.0.school_name", `"State U"`)
			upd := portal.SubjectDataUpdate{NoDataAvailable: map[string]bool{portal.AliasEmployment: true}}
			if _, err := db.SubjectData().UpdateSubjectData(ctx, w.jane.ID, upd); err != nil {
				t.Fatal(err)
			}
			gone("service:employment")
			if _, err := drafts.FindDraft(ctx, w.jane.ID, "service:education"); err != nil {
				t.Fatalf("the education draft went with the employment save: %v", err)
			}
		})
		t.Run("AccountNotificationSpendsOnlyItsFields", func(t *testing.T) {
			if err := db.Personal().SavePersonalInfo(ctx, w.jane.ID, &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe",
				PrimaryNotificationMethod: portal.NotificationMethod{Type: "email", Email: "jane@example.com"}}); err != nil {
				t.Fatal(err)
			}
			put(portal.DraftAccount, "notification.email", `"jane@work.example"`, "email.email", `"new@example.com"`)
			if _, err := db.History().SaveNotificationMethod(ctx, w.jane.ID, portal.NotificationMethod{Type: "email", Email: "jane@work.example"}); err != nil {
				t.Fatal(err)
			}
			d, err := drafts.FindDraft(ctx, w.jane.ID, portal.DraftAccount)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Fields) != 1 || string(d.Fields["email.email"]) != `"new@example.com"` {
				t.Errorf("account draft %s; want only the e-mail change's field", mustJSON(t, d.Fields))
			}
		})
	})
}

func TestDraftRefusals(t *testing.T) {
	eachDraftDB(t, func(t *testing.T, db *store.DB, _ *draftClock) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		drafts := db.Drafts()
		ok := fields(t, "a", `"b"`)
		cases := []struct {
			name   string
			form   string
			fields map[string]json.RawMessage
			code   string
		}{
			{"UnknownForm", "password", ok, portal.ENOTFOUND},
			{"EmptyForm", "", ok, portal.ENOTFOUND},
			{"UnknownServicePage", "service:nothing", ok, portal.ENOTFOUND},
			{"ServicePageNotInPackage", "service:credential", ok, portal.ENOTFOUND},
			{"NoFields", portal.DraftPersonal, nil, portal.EINVALID},
			{"EmptyFieldName", portal.DraftPersonal, fields(t, " ", `"x"`), portal.EINVALID},
			{"LongFieldName", portal.DraftPersonal, fields(t, strings.Repeat("f", 201), `"x"`), portal.EINVALID},
			{"TooLarge", portal.DraftPersonal, fields(t, "notes", `"`+strings.Repeat("x", portal.MaxDraftSize)+`"`), portal.ETOOLARGE},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := drafts.SaveDraft(ctx, w.jane.ID, c.form, c.fields)
				wantCode(t, err, c.code)
			})
		}
		t.Run("TooLargeAfterMerge", func(t *testing.T) {
			half := `"` + strings.Repeat("x", portal.MaxDraftSize/2) + `"`
			if _, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftPersonal, fields(t, "a", half)); err != nil {
				t.Fatal(err)
			}
			_, err := drafts.SaveDraft(ctx, w.jane.ID, portal.DraftPersonal, fields(t, "b", half))
			wantCode(t, err, portal.ETOOLARGE)
		})
		t.Run("LockedFormRefused", func(t *testing.T) {
			if err := db.SetSubjectStatus(ctx, w.bob.ID, portal.StatusNew, portal.StatusFinalizationComplete); err != nil {
				t.Fatal(err)
			}
			for _, form := range []string{portal.DraftAliases, portal.DraftAddresses, "service:employment"} {
				_, err := drafts.SaveDraft(ctx, w.bob.ID, form, ok)
				wantCode(t, err, portal.ECONFLICT)
			}
			// The account stays open after submission, as its own save does.
			if _, err := drafts.SaveDraft(ctx, w.bob.ID, portal.DraftAccount, ok); err != nil {
				t.Fatalf("account draft after submission: %v", err)
			}
		})
	})
}
