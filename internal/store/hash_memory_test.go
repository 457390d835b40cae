package store_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/password"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// rssBytes is the process's resident memory (Linux).
func rssBytes(t *testing.T) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm:", err)
	}
	pages, err := strconv.ParseInt(strings.Fields(string(raw))[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// TestLoginBurstGivesMemoryBack logs in 20 applicants at once with the real
// argon2id (19 MiB a check): once the burst is over and the password gate
// has been idle, the process's resident memory falls back near where it
// was, instead of staying at the burst's peak.
func TestLoginBurstGivesMemoryBack(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes 20 passwords with the real argon2id")
	}
	ctx := context.Background()
	const n, pw = 20, "a long enough passphrase"
	// The accounts get one hash made up front, so that only the logins'
	// checks hash.
	hash, err := password.Hash(pw)
	if err != nil {
		t.Fatal(err)
	}
	cfg := storetest.Config(t)
	cfg.HashPassword = func(string) (string, error) { return hash, nil }
	cfg.VerifyPassword = password.Verify
	// The burst queues at the gate (GOMAXPROCS checks at once) rather than
	// being turned away.
	cfg.PasswordCheckWait = time.Minute
	db := storetest.OpenSQLite(t, cfg)
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	var subjects []*portal.Subject
	for i := range n {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: fmt.Sprintf("a%d@example.com", i), FirstName: "A", LastName: "B"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Auth().SetInitialPassword(ctx, s.ID, pw); err != nil {
			t.Fatal(err)
		}
		subjects = append(subjects, s)
	}
	idle := func() int64 {
		time.Sleep(store.HashMemoryIdle + time.Second)
		return rssBytes(t)
	}
	before := idle()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, s := range subjects {
		wg.Go(func() {
			_, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret",
				Username: s.Username, Password: pw, IP: "192.0.2.1"})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	peak := rssBytes(t)
	after := idle()
	const mib = 1 << 20
	t.Logf("resident memory: %d MiB idle before, %d MiB after %d logins, %d MiB once idle again", before/mib, peak/mib, n, after/mib)
	if after > before+19*mib {
		t.Errorf("resident memory stayed at %d MiB after the burst; want within one hash's 19 MiB of the %d MiB before", after/mib, before/mib)
	}
}
