package store_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestPersonalInfoIsSealedAtRest(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if p, err := db.Personal().FindPersonalInfo(ctx, sub.ID); err != nil || p != nil {
			t.Fatalf("before saving: %v, %v; want nil, nil", p, err)
		}
		in := &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe", SSN: "123456789", DOB: "1990-04-12",
			DriversLicenseNumber: "D7654321", CountryIdentificationNumber: "X99887766"}
		if err := db.Personal().SavePersonalInfo(ctx, sub.ID, in); err != nil {
			t.Fatal(err)
		}

		t.Run("RawRowHoldsNoPlaintext", func(t *testing.T) {
			var raw []byte
			if err := db.SQL().QueryRow(`SELECT sealed FROM personal_info WHERE subject_id = $1`, sub.ID).Scan(&raw); err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{"123456789", "6789", "1990-04-12", "D7654321", "X99887766", "Jane"} {
				if bytes.Contains(raw, []byte(secret)) {
					t.Errorf("the stored row contains %q in plaintext", secret)
				}
			}
		})
		t.Run("OpensBackWithTheKey", func(t *testing.T) {
			got, err := db.Personal().FindPersonalInfo(ctx, sub.ID)
			if err != nil || got.SSN != "123456789" || got.DOB != "1990-04-12" {
				t.Fatalf("FindPersonalInfo = %+v, %v", got, err)
			}
		})
		t.Run("StatusFactsSeeItSaved", func(t *testing.T) {
			f, err := db.FindStatusFacts(ctx, sub.ID)
			if err != nil || !f.PersonalInfoSaved {
				t.Fatalf("facts = %+v, %v; want PersonalInfoSaved", f, err)
			}
		})
	})
}

func TestWrongDataKeyRefusesToOpen(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.DataDir = t.TempDir()
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	other := storetest.Config(t) // another random key
	other.DataDir = cfg.DataDir
	_, err = store.Open(context.Background(), other)
	if err == nil || !strings.Contains(err.Error(), "data key does not open") {
		t.Fatalf("open with another key = %v; want the data key error", err)
	}
	if db, err := store.Open(context.Background(), cfg); err != nil {
		t.Fatalf("reopen with the right key: %v", err)
	} else {
		db.Close()
	}
}
