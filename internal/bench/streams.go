package bench

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// StreamsReport is the portal with many event streams open: each an open
// app, waiting for chat messages and banners.
type StreamsReport struct {
	Streams     int
	Path        string
	Before      memory        // before the streams opened
	Open        memory        // with them all open
	IdleCPU     time.Duration // the server's CPU per second of wall time with them open and nothing happening
	IdleSeconds int
}

// maxStreamsMB is the target: the portal under 200 MB with 1,000 streams.
const maxStreamsMB = 200

// Met says whether the memory target holds.
func (s StreamsReport) Met() bool { return s.Open.RSS > 0 && s.Open.RSS < maxStreamsMB<<20 }

// streamPath is the applicant's one event stream the app opens on every
// page (chat messages, banners and screening news; docs/api.md "GET
// /api/v2/user/events"), which carries the chat's events since the app
// stopped opening the chat's own stream.
const streamPath = "/api/v2/user/events"

// streamsPerApplicant is the portal's limit of streams of one applicant.
const streamsPerApplicant = 10

func measureStreams(ctx context.Context, p *portalProcess, apps []applicant, sz sizes) (StreamsReport, error) {
	rep := StreamsReport{Streams: sz.Streams, Path: streamPath, IdleSeconds: sz.IdleSeconds}
	if sz.Streams > len(apps)*streamsPerApplicant {
		return rep, fmt.Errorf("%d streams need %d applicants, %d seeded", sz.Streams, sz.Streams/streamsPerApplicant, len(apps))
	}
	var err error
	if rep.Before, err = processMemory(p.pid()); err != nil {
		return rep, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// One connection each, as browsers' tabs hold them.
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: -1}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	opened := make(chan struct{}, sz.Streams)
	sem := make(chan struct{}, 32) // opening, not holding, is limited
	for i := range sz.Streams {
		a := apps[i%len(apps)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			release := sync.OnceFunc(func() { <-sem })
			err := holdStream(ctx, client, p.base+streamPath, a.Token, func() { release(); opened <- struct{}{} })
			release()
			if err != nil && ctx.Err() == nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	deadline := time.After(120 * time.Second)
	for count := 0; count < sz.Streams; {
		select {
		case <-opened:
			count++
		case <-time.After(250 * time.Millisecond):
		case <-deadline:
			cancel()
			wg.Wait()
			return rep, fmt.Errorf("streams did not all open within 120 s: %v", firstErr)
		}
		mu.Lock()
		err := firstErr
		mu.Unlock()
		if err != nil {
			cancel()
			wg.Wait()
			return rep, err
		}
	}
	time.Sleep(time.Second) // let the last ones settle
	before, err := processCPU(p.pid())
	if err != nil {
		return rep, err
	}
	start := time.Now()
	time.Sleep(time.Duration(sz.IdleSeconds) * time.Second)
	after, err := processCPU(p.pid())
	if err != nil {
		return rep, err
	}
	rep.IdleCPU = time.Duration(float64(after-before) / time.Since(start).Seconds())
	if rep.Open, err = processMemory(p.pid()); err != nil {
		return rep, err
	}
	cancel()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return rep, firstErr
}

// holdStream opens an event stream, calls ready once its "event: ready"
// came, and reads it until ctx ends.
func holdStream(ctx context.Context, client *http.Client, url, token string, ready func()) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("event stream: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("event stream: %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	signalled := false
	for sc.Scan() {
		if !signalled && strings.HasPrefix(sc.Text(), "event: ready") {
			signalled = true
			ready()
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("event stream ended early: %v", sc.Err())
}
