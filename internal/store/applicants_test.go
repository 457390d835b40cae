package store_test

import (
	"context"
	"reflect"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

func TestApplicantDetail(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		ops := db.Operator()
		facts, err := db.FindStatusFacts(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		var signs []string
		for _, title := range facts.UnsignedDocuments {
			signs = append(signs, "sign the "+title)
		}
		if len(signs) == 0 {
			t.Fatal("the legal world has no document to sign")
		}

		t.Run("InvitedApplicantHasEverythingLeftInOrder", func(t *testing.T) {
			d, err := ops.Applicants.ApplicantDetail(ctx, w.company.ID, w.jane.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := append(append([]string{"create a password (invitation not started)"}, signs...), "save their personal information")
			if d.ID != w.jane.ID || d.CompanyName != "Acme" || d.StatusText != "New" || len(d.Missing) < len(want) ||
				!reflect.DeepEqual(d.Missing[:len(want)], want) || d.Missing[len(d.Missing)-1] != "verify their identity" {
				t.Errorf("detail = %+v\nmissing %q; want it to begin %q and end with identity verification", d, d.Missing, want)
			}
		})
		t.Run("PasswordIsNoLongerMissing", func(t *testing.T) {
			if err := db.Auth().SetInitialPassword(ctx, w.jane.ID, "a long enough passphrase"); err != nil {
				t.Fatal(err)
			}
			d, err := ops.Applicants.ApplicantDetail(ctx, 0, w.jane.ID)
			if err != nil {
				t.Fatal(err)
			}
			if d.Missing[0] != signs[0] {
				t.Errorf("missing %q; want the first document first", d.Missing)
			}
		})
		t.Run("OtherCompanyOrUnknownIsNotFound", func(t *testing.T) {
			_, err := ops.Applicants.ApplicantDetail(ctx, w.other.ID, w.jane.ID)
			wantCode(t, err, portal.ENOTFOUND)
			_, err = ops.Applicants.ApplicantDetail(ctx, 0, 999)
			wantCode(t, err, portal.ENOTFOUND)
		})
		t.Run("UnreadChatCountsTheApplicantsUnreadMessages", func(t *testing.T) {
			for _, m := range []struct {
				sender string
				read   any
			}{{"subject", nil}, {"subject", nil}, {"subject", int64(1)}, {"employer", nil}} {
				if _, err := db.SQL().Exec(`INSERT INTO chat_messages (subject_id, sender, body, created_at, read_at) VALUES ($1, $2, $3, 1, $4)`,
					w.jane.ID, m.sender, []byte("sealed"), m.read); err != nil {
					t.Fatal(err)
				}
			}
			d, err := ops.Applicants.ApplicantDetail(ctx, w.company.ID, w.jane.ID)
			if err != nil || d.UnreadChat != 2 {
				t.Errorf("unread = %d, %v; want 2", d.UnreadChat, err)
			}
		})
		t.Run("FinalizedApplicantHasNothingLeft", func(t *testing.T) {
			if err := db.SetSubjectStatus(ctx, w.john.ID, portal.StatusNew, portal.StatusFinalizationComplete); err != nil {
				t.Fatal(err)
			}
			d, err := ops.Applicants.ApplicantDetail(ctx, w.company.ID, w.john.ID)
			if err != nil || len(d.Missing) != 0 || d.StatusText != "Finalization Complete" {
				t.Errorf("detail = %+v, %v", d, err)
			}
		})
	})
}
