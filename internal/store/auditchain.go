package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"applicantportal/internal/portal"
)

// The audit trail is a hash chain (migration 00031): each row's hash is
// SHA-256 over its fields and the hash of the row before it, so a row
// changed, removed or slipped in by SQL breaks the chain where it happened
// (VerifyChain). A transaction's rows are kept in memory while it works
// and chained just before its commit (conn.tx), so the chain's one lock,
// the audit_head row, is held only from then until the commit.

// auditGenesis is the prev_hash of the chain's first row.
var auditGenesis = strings.Repeat("0", 64)

// auditRow is one row of the trail before it takes its place in the chain.
type auditRow struct {
	companyID, subjectID int64
	actor                portal.Actor
	action, detail       string
	at                   int64 // Unix ms
}

// hash is the row's hash at place seq after the row hashed prev: every
// field length-prefixed (numbers as 8 bytes, big-endian), in a fixed
// order after a version tag, so no two rows share an encoding.
func (r auditRow) hash(seq int64, prev string) string {
	h := sha256.New()
	var b [8]byte
	num := func(v int64) {
		binary.BigEndian.PutUint64(b[:], uint64(v)) // #nosec G115 -- the two's-complement bits are the encoding, for negatives too
		h.Write(b[:])
	}
	str := func(s string) {
		num(int64(len(s)))
		h.Write([]byte(s))
	}
	str("applicantportal audit v1")
	num(seq)
	num(r.companyID)
	num(r.subjectID)
	str(r.actor.Kind)
	num(r.actor.ID)
	str(r.actor.Name)
	str(r.actor.Address)
	str(r.action)
	str(r.detail)
	num(r.at)
	str(prev)
	return hex.EncodeToString(h.Sum(nil))
}

// auditQueue holds the rows of each open transaction of conn.tx until it
// commits; every copy of the conn shares it. A nil queue (a conn made for
// one check, as restore's) queues nothing: its rows are chained at once.
type auditQueue struct {
	mu   sync.Mutex
	rows map[*sql.Tx][]auditRow
}

func newAuditQueue() *auditQueue { return &auditQueue{rows: map[*sql.Tx][]auditRow{}} }

func (q *auditQueue) begin(tx *sql.Tx) {
	if q == nil {
		return
	}
	q.mu.Lock()
	q.rows[tx] = nil
	q.mu.Unlock()
}

// add queues r in tx and tells whether tx is one of conn.tx's.
func (q *auditQueue) add(tx *sql.Tx, r auditRow) bool {
	if q == nil {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	rows, ok := q.rows[tx]
	if ok {
		q.rows[tx] = append(rows, r)
	}
	return ok
}

// mark and undo drop what a failed savepoint queued.
func (q *auditQueue) mark(tx *sql.Tx) int {
	if q == nil {
		return 0
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.rows[tx])
}

func (q *auditQueue) undo(tx *sql.Tx, n int) {
	if q == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if rows, ok := q.rows[tx]; ok && len(rows) > n {
		q.rows[tx] = rows[:n]
	}
}

// take ends tx's queue and returns what it held.
func (q *auditQueue) take(tx *sql.Tx) []auditRow {
	if q == nil {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	rows := q.rows[tx]
	delete(q.rows, tx)
	return rows
}

// appendAudit adds r to the trail in q's transaction: queued until the
// commit in a transaction of conn.tx, chained at once in any other, and
// in a transaction of its own on the pool.
func (s *conn) appendAudit(ctx context.Context, q queryer, r auditRow) error {
	tx, ok := q.(*sql.Tx)
	if !ok {
		return s.tx(ctx, func(tx *sql.Tx) error { return s.appendAudit(ctx, tx, r) })
	}
	if s.audits.add(tx, r) {
		return nil
	}
	return s.chainAudit(ctx, tx, r)
}

// lockAuditHead locks the chain's end until tx ends and reads it: its
// last place and hash (0 and the genesis before the first row). The
// upsert makes the row at the first append and otherwise locks it; a
// second process's append waits here for the first's commit.
func lockAuditHead(ctx context.Context, tx *sql.Tx) (seq int64, hash string, err error) {
	err = tx.QueryRowContext(ctx, `INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, $1)
		ON CONFLICT (id) DO UPDATE SET seq = audit_head.seq RETURNING seq, hash`, auditGenesis).Scan(&seq, &hash)
	if err != nil {
		return 0, "", fmt.Errorf("store: audit chain head: %w", err)
	}
	return seq, hash, nil
}

// chainAudit appends rows to the chain in tx, after its last row.
func (s *conn) chainAudit(ctx context.Context, tx *sql.Tx, rows ...auditRow) error {
	seq, prev, err := lockAuditHead(ctx, tx)
	if err != nil {
		return err
	}
	for _, r := range rows {
		seq++
		h := r.hash(seq, prev)
		if _, err := tx.ExecContext(ctx, `INSERT INTO audit_log (company_id, subject_id, actor, actor_id, actor_name, address,
			action, detail, created_at, seq, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			r.companyID, r.subjectID, r.actor.Kind, r.actor.ID, r.actor.Name, r.actor.Address, r.action, r.detail, r.at,
			seq, prev, h); err != nil {
			return fmt.Errorf("store: audit %s: %w", r.action, err)
		}
		prev = h
	}
	if _, err := tx.ExecContext(ctx, `UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1`, seq, prev); err != nil {
		return fmt.Errorf("store: audit chain head: %w", err)
	}
	return nil
}

// chainLegacyAudit chains the rows written before migration 00031, in id
// order after whatever the chain already holds, once: Open calls it, and
// the trigger lets a row be chained only while its hash is empty and only
// without changing what it says.
func (s *DB) chainLegacyAudit(ctx context.Context) error {
	for {
		var n int
		if err := s.pool.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT id FROM audit_log WHERE hash IS NULL LIMIT 1) x`).Scan(&n); err != nil {
			return fmt.Errorf("store: chain the audit trail: %w", err)
		}
		if n == 0 {
			return nil
		}
		err := s.tx(ctx, func(tx *sql.Tx) error {
			seq, prev, err := lockAuditHead(ctx, tx)
			if err != nil {
				return err
			}
			type legacy struct {
				id int64
				auditRow
			}
			rows, err := tx.QueryContext(ctx, `SELECT id, company_id, subject_id, actor, actor_id, actor_name, address, action, detail, created_at
				FROM audit_log WHERE hash IS NULL ORDER BY id LIMIT 500`)
			if err != nil {
				return fmt.Errorf("store: chain the audit trail: %w", err)
			}
			var batch []legacy
			for rows.Next() {
				var l legacy
				if err := rows.Scan(&l.id, &l.companyID, &l.subjectID, &l.actor.Kind, &l.actor.ID, &l.actor.Name, &l.actor.Address,
					&l.action, &l.detail, &l.at); err != nil {
					rows.Close()
					return fmt.Errorf("store: chain the audit trail: %w", err)
				}
				batch = append(batch, l)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("store: chain the audit trail: %w", err)
			}
			for _, l := range batch {
				seq++
				h := l.hash(seq, prev)
				if _, err := tx.ExecContext(ctx, `UPDATE audit_log SET seq = $1, prev_hash = $2, hash = $3 WHERE id = $4`, seq, prev, h, l.id); err != nil {
					return fmt.Errorf("store: chain the audit trail: %w", err)
				}
				prev = h
			}
			_, err = tx.ExecContext(ctx, `UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1`, seq, prev)
			return err
		})
		if err != nil {
			return err
		}
	}
}

// VerifyChain walks the chain in order, one row at a time, and tells
// where it first breaks. It checks the rows up to the end audit_head
// names when it starts, so appends while it runs do not disturb it.
func (s *AuditService) VerifyChain(ctx context.Context) (*portal.AuditChainCheck, error) {
	var headSeq int64
	headHash := auditGenesis
	check := &portal.AuditChainCheck{LastHash: auditGenesis}
	broken := func(id, seq int64, format string, args ...any) (*portal.AuditChainCheck, error) {
		check.Broken = &portal.AuditBreak{ID: id, Seq: seq, Problem: fmt.Sprintf(format, args...)}
		return check, nil
	}
	err := s.db.pool.QueryRowContext(ctx, `SELECT seq, hash FROM audit_head WHERE id = 1`).Scan(&headSeq, &headHash)
	if errors.Is(err, sql.ErrNoRows) {
		// No head: nothing was ever appended, or it was removed.
		var id, seq int64
		err = s.db.pool.QueryRowContext(ctx, `SELECT id, seq FROM audit_log WHERE seq IS NOT NULL ORDER BY seq LIMIT 1`).Scan(&id, &seq)
		if err == nil {
			return broken(id, seq, "audit_head is missing: the chain's end is not recorded")
		}
		if errors.Is(err, sql.ErrNoRows) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: verify the audit chain: %w", err)
	}
	rows, err := s.db.pool.QueryContext(ctx, `SELECT id, company_id, subject_id, actor, actor_id, actor_name, address, action, detail, created_at,
		seq, prev_hash, hash FROM audit_log WHERE seq <= $1 ORDER BY seq`, headSeq)
	if err != nil {
		return nil, fmt.Errorf("store: verify the audit chain: %w", err)
	}
	defer rows.Close()
	var lastID, lastSeq int64
	for rows.Next() {
		var r auditRow
		var id, seq int64
		var prev, hash string
		if err := rows.Scan(&id, &r.companyID, &r.subjectID, &r.actor.Kind, &r.actor.ID, &r.actor.Name, &r.actor.Address,
			&r.action, &r.detail, &r.at, &seq, &prev, &hash); err != nil {
			return nil, fmt.Errorf("store: verify the audit chain: %w", err)
		}
		switch {
		case seq > lastSeq+1:
			return broken(id, seq, "a row is missing before it: its place is %d, the row before it is at %d", seq, lastSeq)
		case seq <= lastSeq:
			return broken(id, seq, "a row was inserted: its place %d repeats one before it", seq)
		case prev != check.LastHash:
			return broken(id, seq, "prev mismatch: its prev_hash is not the hash of the row before it (row %d)", lastID)
		case r.hash(seq, prev) != hash:
			return broken(id, seq, "content altered: its hash does not match its fields")
		}
		check.Rows++
		check.LastHash = hash
		lastID, lastSeq = id, seq
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: verify the audit chain: %w", err)
	}
	if lastSeq != headSeq || check.LastHash != headHash {
		return broken(lastID, lastSeq, "rows missing at the end: audit_head says the chain ends at place %d with hash %s", headSeq, headHash)
	}
	// A row that never took its place (its hash empty) was written around
	// the store: the trigger refuses such rows.
	var stray int64
	err = s.db.pool.QueryRowContext(ctx, `SELECT id FROM audit_log WHERE seq IS NULL OR hash IS NULL OR prev_hash IS NULL ORDER BY id LIMIT 1`).Scan(&stray)
	if err == nil {
		return broken(stray, 0, "a row outside the chain: it has no place or hash")
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: verify the audit chain: %w", err)
	}
	return check, nil
}
