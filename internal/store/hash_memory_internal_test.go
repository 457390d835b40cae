package store

import (
	"testing"
	"time"
)

// TestHashMemoryReleasesOnlyWhenIdle drives the idle timer by hand (fire),
// so the test does not hang on the machine's timing: the memory goes back
// when the timer fires with no hash running, never during one.
func TestHashMemoryReleasesOnlyWhenIdle(t *testing.T) {
	released := 0
	h := &hashMemory{idle: time.Hour, release: func() { released++ }}
	armed := func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.timer != nil
	}

	h.run(func() error {
		if armed() {
			t.Error("the idle timer runs while a hash does")
		}
		// The timer of an earlier burst fired just as this hash started.
		h.fire()
		return nil
	})
	if released != 0 {
		t.Fatalf("released %d times during a hash; want 0", released)
	}
	if !armed() {
		t.Fatal("no idle timer after the last hash ended")
	}
	h.run(func() error { return nil })
	h.fire()
	if released != 1 {
		t.Fatalf("released %d times once idle; want 1", released)
	}
	if armed() {
		t.Error("the idle timer is still set after it fired")
	}
	h.run(func() error { return nil })
	h.timer.Stop()
}

// TestHashMemoryTimerReleases: the real timer releases after the idle time.
func TestHashMemoryTimerReleases(t *testing.T) {
	done := make(chan struct{})
	h := &hashMemory{idle: time.Millisecond, release: func() { close(done) }}
	h.run(func() error { return nil })
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no release 10 s after the last hash")
	}
}
