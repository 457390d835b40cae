package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// JourneysReport is whole applicant journeys (RunJourney) run many at
// once: how many a second the portal carries, and where their CPU goes.
type JourneysReport struct {
	Journeys    int
	Concurrency int
	Errors      int
	FirstError  string
	Requests    int   // over all journeys
	Bytes       int64 // read, over all journeys
	Wall        time.Duration
	CPU         time.Duration // the server's, over all journeys
	// Argon2 is the raw argon2id CPU of one check in the same run, and
	// Argon2Ops the checks and hashes one journey makes: the password
	// created at setup and checked at login.
	Argon2    time.Duration
	Argon2Ops int
	Cores     int
}

// minJourneysPerSecond is the target.
const minJourneysPerSecond = 50

// journeyRamp spaces the start of the concurrent journeys.
const journeyRamp = 100 * time.Millisecond

// argon2OpsPerJourney: the password is hashed once when the applicant
// creates it, and checked once when they log in with it.
const argon2OpsPerJourney = 2

// PerSecond is journeys a second, counting only those that succeeded.
func (j JourneysReport) PerSecond() float64 {
	if j.Wall <= 0 {
		return 0
	}
	return float64(j.Journeys-j.Errors) / j.Wall.Seconds()
}

// CPUPerJourney is the server's CPU per journey.
func (j JourneysReport) CPUPerJourney() time.Duration {
	if j.Journeys == 0 {
		return 0
	}
	return j.CPU / time.Duration(j.Journeys)
}

// Argon2PerJourney is the part of CPUPerJourney that password hashing
// alone accounts for.
func (j JourneysReport) Argon2PerJourney() time.Duration {
	return j.Argon2 * time.Duration(j.Argon2Ops)
}

// Argon2Bound is the journeys a second that password hashing alone allows
// on this machine's cores, were the rest of the journey free.
func (j JourneysReport) Argon2Bound() float64 {
	per := j.Argon2PerJourney()
	if per <= 0 {
		return 0
	}
	return float64(j.Cores) / per.Seconds()
}

// Met says whether the target holds: enough journeys a second, none failed.
func (j JourneysReport) Met() bool {
	return j.Journeys > 0 && j.Errors == 0 && j.PerSecond() >= minJourneysPerSecond
}

func measureJourneys(ctx context.Context, p *portalProcess, op *operator, sz sizes, argon time.Duration) (JourneysReport, error) {
	rep := JourneysReport{Journeys: sz.Journeys, Concurrency: sz.JourneyConc, Argon2: argon,
		Argon2Ops: argon2OpsPerJourney, Cores: runtime.NumCPU()}
	// The employer's invitations come first and are not the applicants'
	// journeys: they are made before the clock starts.
	tag := make([]byte, 3)
	rand.Read(tag)
	links := make([]string, sz.Journeys)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 4)
	for i := range sz.Journeys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			email := fmt.Sprintf("bench.journey%04d.%s@example.com", i, hex.EncodeToString(tag))
			link, err := op.invite(ctx, email, "Jordan", "Journey")
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			links[i] = link
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return rep, firstErr
	}

	client := newClient(2 * sz.JourneyConc)
	defer client.CloseIdleConnections()
	before, err := processCPU(p.pid())
	if err != nil {
		return rep, err
	}
	start := time.Now()
	work := make(chan string, len(links))
	for _, l := range links {
		work <- l
	}
	close(work)
	for k := range sz.JourneyConc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Applicants arrive one after another, not all in the same
			// millisecond: the workers start journeyRamp apart.
			select {
			case <-time.After(time.Duration(k) * journeyRamp):
			case <-ctx.Done():
				return
			}
			for link := range work {
				st, err := RunJourney(ctx, client, p.base, link)
				mu.Lock()
				rep.Requests += st.Requests
				rep.Bytes += st.Bytes
				if err != nil {
					rep.Errors++
					if rep.FirstError == "" {
						rep.FirstError = err.Error()
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	rep.Wall = time.Since(start)
	after, err := processCPU(p.pid())
	if err != nil {
		return rep, err
	}
	rep.CPU = after - before
	if rep.Errors > 0 {
		return rep, fmt.Errorf("%d of %d journeys failed, the first: %s", rep.Errors, rep.Journeys, rep.FirstError)
	}
	return rep, nil
}
