// Package gate bounds how many of one kind of costly work run at once (a
// password hash of 19 MiB, a signed PDF of 20 MB), so that a flood of
// requests queues briefly and is then turned away with 503 instead of
// exhausting memory.
package gate

import (
	"context"
	"time"

	"applicantportal/internal/portal"
)

// Gate lets at most n callers in at once; the others wait up to wait.
type Gate struct {
	slots chan struct{}
	wait  time.Duration
	busy  string
}

// New makes a gate of n slots. busyMessage is what a caller turned away
// past wait is told.
func New(n int, wait time.Duration, busyMessage string) *Gate {
	return &Gate{slots: make(chan struct{}, n), wait: wait, busy: busyMessage}
}

// Wait is how long a caller waits for a slot.
func (g *Gate) Wait() time.Duration { return g.wait }

// Busy is the answer past the wait: EUNAVAILABLE (503) with Retry-After,
// the wait rounded up to whole seconds.
func (g *Gate) Busy() error {
	secs := max(1, int((g.wait+time.Second-1)/time.Second))
	return &portal.Error{Code: portal.EUNAVAILABLE, Message: g.busy, RetryAfter: secs}
}

// Acquire waits for a slot and returns its release. Past the wait it
// answers Busy; when ctx ends first, ctx's error.
func (g *Gate) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return g.release, nil
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.release, nil
	case <-t.C:
		return nil, g.Busy()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *Gate) release() { <-g.slots }

// Run runs fn in a slot (see Acquire); the slot is given back even when fn
// panics.
func (g *Gate) Run(ctx context.Context, fn func() error) error {
	release, err := g.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}
