package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestSetupCompleteNeverLacksASignature races the move to setup-complete
// against deleting a required signature and against a residency change that
// adds a required notice, on two instances. Whatever wins, a subject in
// setup-complete must have every applicable document signed.
func TestSetupCompleteNeverLacksASignature(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return legalClock }
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		a, b := open(cfg), open(cfg)
		ctx := context.Background()
		w := newLegalWorld(t, a)
		const rounds = 25
		moved, refused := 0, 0
		for i := range rounds {
			s, err := a.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: fmt.Sprintf("racer%d@example.com", i), FirstName: "Race", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.SetEmploymentLocation(ctx, s.ID, portal.Place{State: "US-CA", County: 6075}); err != nil {
				t.Fatal(err)
			}
			if err := a.Auth().SetInitialPassword(ctx, s.ID, "a-long-enough-password"); err != nil {
				t.Fatal(err)
			}
			if err := a.Personal().SavePersonalInfo(ctx, s.ID, &portal.PersonalInfo{FirstName: "Race", LastName: "Doe", SSN: "123451234"}); err != nil {
				t.Fatal(err)
			}
			w.signAllButAuthorization(t, s)
			if err := w.sign(t, s.ID, w.docs[portal.DocAuthorization], fullRequest(t, s)); err != nil {
				t.Fatal(err)
			}

			var wg sync.WaitGroup
			start := make(chan struct{})
			var moveErr error
			wg.Add(3)
			go func() {
				defer wg.Done()
				<-start
				moveErr = a.Subjects().MoveSubjectStatus(ctx, s.ID, portal.StatusMove{To: portal.StatusSetupComplete})
			}()
			// Every round changes the residency (adding the New Jersey
			// notice), odd rounds also delete a signature, both from the
			// other instance.
			go func() {
				defer wg.Done()
				<-start
				if i%2 == 1 {
					wantRaceLoser(t, b.Legal().DeleteSignature(ctx, s.ID, w.docs[portal.DocDisclosure]))
				}
			}()
			go func() {
				defer wg.Done()
				<-start
				_, err := updateLocation(ctx, b, s.ID, portal.LocationUpdate{Residency: &portal.Place{State: "US-NJ"}})
				wantRaceLoser(t, err)
			}()
			close(start)
			wg.Wait()

			sub, err := a.Subjects().FindSubjectByID(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sub.StatusID != portal.StatusSetupComplete {
				if portal.ErrorCode(moveErr) != portal.ECONFLICT {
					t.Fatalf("round %d: move = %v, want a conflict when it did not happen", i, moveErr)
				}
				refused++
				continue
			}
			if moveErr != nil {
				t.Fatalf("round %d: status moved but the move answered %v", i, moveErr)
			}
			moved++
			if pending := w.file(t, s.ID).PendingSteps(); len(pending) > 0 {
				t.Errorf("round %d: setup complete with %d step(s) unsigned, first %q", i, len(pending), pending[0].Title())
			}
		}
		t.Logf("%d moves won, %d refused", moved, refused)
	})
}

// wantRaceLoser accepts success or the conflict of a change that came after
// setup completed; anything else (a deadlock, a serialization failure) is
// a failure of the locking.
func wantRaceLoser(t *testing.T, err error) {
	if err != nil && portal.ErrorCode(err) != portal.ECONFLICT {
		t.Errorf("racing change: %v", err)
	}
}
