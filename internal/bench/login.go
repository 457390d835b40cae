package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"sync"
	"time"

	"applicantportal/internal/password"
)

// A login is one argon2id check (19 MiB, 2 passes) and a little SQL: its
// floor is argon2id itself with the portal's parameters (internal/password),
// computed in the bench process and measured the same way.

func loginScenario() scenario {
	return scenario{Name: "login (password grant)", Key: "/login", Method: http.MethodPost, Want: http.StatusOK,
		Path: fixed("/oauth/access_token"), Anonymous: true,
		Body: func(a applicant) []byte { return loginBody(a.Email, benchPassword) }}
}

// loginConcurrency is how many logins run at once: the portal checks one
// password per core at a time and answers 503 to a login that waits too
// long for one.
func loginConcurrency() int { return min(runtime.NumCPU(), 2) }

// measureLogin measures the password grant against raw argon2id, rounds
// interleaved; it returns the row and the raw argon2id CPU per check.
func measureLogin(ctx context.Context, client *http.Client, p *portalProcess, apps []applicant, sz sizes) (Row, time.Duration, error) {
	sc := loginScenario()
	portalT := target{pid: p.pid(), base: p.base, path: func(sc scenario, a applicant) string { return sc.Path(a) }}
	hash, err := password.Hash(benchPassword)
	if err != nil {
		return Row{}, 0, err
	}
	conc := loginConcurrency()
	var portal, raw []time.Duration
	for r := range sz.Rounds + 1 {
		pc, err := round(ctx, client, portalT, sc, apps, sz.Logins, conc)
		if err != nil {
			return Row{}, 0, err
		}
		rc, err := argon2Round(hash, sz.Logins, conc)
		if err != nil {
			return Row{}, 0, err
		}
		if r == 0 {
			continue // the warm-up
		}
		portal, raw = append(portal, pc), append(raw, rc)
	}
	row := Row{Scenario: sc.Name, Portal: median(portal), Floor: median(raw), FloorName: "raw argon2id",
		Requests: sz.Logins, Concurrency: conc, Rounds: sz.Rounds}
	return row, row.Floor, nil
}

// argon2Round checks the password n times, conc at a time, and returns
// this process's CPU per check.
func argon2Round(hash string, n, conc int) (time.Duration, error) {
	before, err := processCPU(os.Getpid())
	if err != nil {
		return 0, err
	}
	work := make(chan struct{}, n)
	for range n {
		work <- struct{}{}
	}
	close(work)
	var wg sync.WaitGroup
	var failed error
	var mu sync.Mutex
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				ok, err := password.Verify(benchPassword, hash)
				if err != nil || !ok {
					mu.Lock()
					failed = fmt.Errorf("bench: argon2id check failed: %v", err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		return 0, failed
	}
	after, err := processCPU(os.Getpid())
	if err != nil {
		return 0, err
	}
	return perRequest(after-before, n), nil
}
