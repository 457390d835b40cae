package gate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"applicantportal/internal/gate"
	"applicantportal/internal/portal"
)

func TestGate(t *testing.T) {
	t.Run("ErrBusyPastTheWait", func(t *testing.T) {
		g := gate.New(1, 20*time.Millisecond, "busy now")
		release, err := g.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ran := false
		err = g.Run(context.Background(), func() error { ran = true; return nil })
		var pe *portal.Error
		if !errors.As(err, &pe) || pe.Code != portal.EUNAVAILABLE || pe.Message != "busy now" || pe.RetryAfter != 1 || ran {
			t.Fatalf("err = %v, ran %v; want EUNAVAILABLE busy now, Retry-After 1, not run", err, ran)
		}
		release()
		if err := g.Run(context.Background(), func() error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("after release: %v, ran %v", err, ran)
		}
	})
	t.Run("ErrContextEndedWhileWaiting", func(t *testing.T) {
		g := gate.New(1, time.Minute, "busy")
		release, _ := g.Acquire(context.Background())
		defer release()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := g.Acquire(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v; want context.Canceled", err)
		}
	})
	t.Run("SlotGivenBackWhenFnPanics", func(t *testing.T) {
		g := gate.New(1, 20*time.Millisecond, "busy")
		func() {
			defer func() { recover() }()
			g.Run(context.Background(), func() error { panic("boom") })
		}()
		if err := g.Run(context.Background(), func() error { return nil }); err != nil {
			t.Fatalf("the slot was lost: %v", err)
		}
	})
}
