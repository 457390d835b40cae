package store

import (
	"runtime/debug"
	"sync"
	"time"
)

// hashMemoryIdle is how long no password may be hashed or checked before
// the memory the hashes used goes back to the operating system.
const hashMemoryIdle = 2 * time.Second

// hashMemory gives back the memory of password hashing once a burst is
// over. Each argon2id run allocates 19 MiB; after a burst of logins the Go
// runtime keeps those pages for minutes (its background scavenger returns
// them slowly), so the process's resident memory stays at the burst's
// peak (49 MB idle grew to 131 MB and stayed). When the last hash ends and
// none starts for idle, release (debug.FreeOSMemory: a collection, then
// every free page returned) runs once. The password gate's limits are
// untouched: this only watches the work the gate lets in.
type hashMemory struct {
	idle    time.Duration
	release func()

	mu      sync.Mutex
	running int
	timer   *time.Timer
}

func newHashMemory() *hashMemory {
	return &hashMemory{idle: hashMemoryIdle, release: debug.FreeOSMemory}
}

// run runs one hash or check, counted as running while it does.
func (h *hashMemory) run(fn func() error) error {
	h.mu.Lock()
	h.running++
	if h.timer != nil {
		h.timer.Stop()
		h.timer = nil
	}
	h.mu.Unlock()
	defer h.done()
	return fn()
}

func (h *hashMemory) done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running--
	if h.running == 0 {
		h.timer = time.AfterFunc(h.idle, h.fire)
	}
}

// fire releases unless a hash started since the timer was set (Stop
// cannot take back a timer that already fired).
func (h *hashMemory) fire() {
	h.mu.Lock()
	idle := h.running == 0
	if idle {
		h.timer = nil
	}
	h.mu.Unlock()
	if idle {
		h.release()
	}
}
