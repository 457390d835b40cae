package store

import (
	"database/sql"
	"sync"
)

// voidAtEnd is the bookkeeping a cache of this process shares with the
// transactions that change what it holds: such a transaction voids the
// cache at once (forgetAfter) and again when it ends (ended, called by
// conn.tx for every transaction it ends, committed or not), so that an
// answer read from the database before the commit does not outlive it.
// Reads inside such a transaction skip the cache (changing).
type voidAtEnd struct {
	forget  func() // voids every entry of the cache
	mu      sync.Mutex
	pending map[*sql.Tx]bool
}

func newVoidAtEnd(forget func()) voidAtEnd {
	return voidAtEnd{forget: forget, pending: map[*sql.Tx]bool{}}
}

// forgetAfter voids the cache now and again when tx ends.
func (v *voidAtEnd) forgetAfter(tx *sql.Tx) {
	v.mu.Lock()
	v.pending[tx] = true
	v.mu.Unlock()
	v.forget()
}

// ended is told of every transaction conn.tx ends.
func (v *voidAtEnd) ended(tx *sql.Tx) {
	v.mu.Lock()
	changed := v.pending[tx]
	delete(v.pending, tx)
	v.mu.Unlock()
	if changed {
		v.forget()
	}
}

// changing tells whether q is a transaction that changes what the cache
// holds: reads in it go to the database.
func (v *voidAtEnd) changing(q queryer) bool {
	tx, ok := q.(*sql.Tx)
	if !ok {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.pending[tx]
}
