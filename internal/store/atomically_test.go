package store_test

import (
	"context"
	"fmt"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestAtomically proves the transaction the demo seed runs in: everything or
// nothing commits, and a store call that fails inside it undoes only its
// own part, so the caller may go on (PostgreSQL would otherwise refuse
// every later statement).
func TestAtomically(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		company := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, company); err != nil {
			t.Fatal(err)
		}
		subject := func(email string) portal.NewSubject {
			return portal.NewSubject{CompanyID: company.ID, Email: email, FirstName: "A", LastName: "B"}
		}
		exists := func(email string) bool {
			_, err := db.Subjects().FindSubjectByUsername(ctx, email)
			return err == nil
		}
		t.Run("FailureLeavesNothing", func(t *testing.T) {
			err := db.Atomically(ctx, "", func(tx *store.DB) error {
				if _, err := tx.CreateSubject(ctx, subject("gone@example.com")); err != nil {
					return err
				}
				return fmt.Errorf("later step failed")
			})
			if err == nil || exists("gone@example.com") {
				t.Fatalf("err = %v; subject kept = %v", err, exists("gone@example.com"))
			}
		})
		t.Run("RecoveredStepKeepsTheRest", func(t *testing.T) {
			err := db.Atomically(ctx, "test", func(tx *store.DB) error {
				if _, err := tx.CreateSubject(ctx, subject("kept@example.com")); err != nil {
					return err
				}
				_, err := tx.CreateSubject(ctx, subject("KEPT@example.com"))
				wantCode(t, err, portal.ECONFLICT)
				_, err = tx.CreateSubject(ctx, subject("also@example.com"))
				return err
			})
			if err != nil || !exists("kept@example.com") || !exists("also@example.com") {
				t.Fatalf("err = %v; kept = %v, also = %v", err, exists("kept@example.com"), exists("also@example.com"))
			}
		})
	})
}
