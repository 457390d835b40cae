package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"applicantportal/internal/seal"
)

// sealedColumn is a column that holds sealed values: what a key rotation
// walks and what `portal keys status` counts. A new sealed column is added
// here, or a rotation leaves its values under the old key
// (TestSealedColumnsNameEveryPlace checks the places).
type sealedColumn struct {
	table, column string
	// keys is the row's primary key, the order the rotation walks in.
	keys []keyColumn
	// with are the other columns the value's place is made of.
	with []string
	// where narrows the rows ("" for none).
	where string
	// text: the value is stored in base64 in a TEXT column.
	text bool
	// batch is how many values one transaction reseals.
	batch int
	// place is where a value is bound to, from the row's keys then with.
	place func(v []any) string
}

type keyColumn struct {
	name string
	text bool
}

func (c sealedColumn) name() string { return c.table + "." + c.column }

var (
	idKey      = []keyColumn{{name: "id"}}
	subjectKey = []keyColumn{{name: "subject_id"}}
)

// sealedColumns are every column holding sealed values, in the order a
// rotation reseals them.
var sealedColumns = []sealedColumn{
	{table: "meta", column: "value", keys: []keyColumn{{name: "name", text: true}}, where: "name = '" + keyCheckName + "'",
		place: func([]any) string { return keyCheckPlace }},
	{table: "personal_info", column: "sealed", keys: subjectKey,
		place: func(v []any) string { return personalInfoPlace(asInt(v[0])) }},
	{table: "legal_signatures", column: "sealed_fields", keys: idKey, with: []string{"subject_id", "document_id", "instance"},
		place: func(v []any) string { return signatureFieldsPlace(asInt(v[1]), asInt(v[2]), asString(v[3])) }},
	{table: "legal_signatures", column: "signature_png", keys: idKey, with: []string{"subject_id", "document_id", "instance"},
		place: func(v []any) string { return signatureImagePlace(asInt(v[1]), asInt(v[2]), asString(v[3])) }},
	{table: "subject_records", column: "sealed", keys: []keyColumn{{name: "subject_id"}, {name: "kind", text: true}},
		place: func(v []any) string { return recordPlace(asInt(v[0]), asString(v[1])) }},
	{table: "drafts", column: "sealed", keys: idKey, with: []string{"subject_id", "form_key"},
		place: func(v []any) string { return draftPlace(asInt(v[1]), asString(v[2])) }},
	{table: "chat_messages", column: "body", keys: idKey, with: []string{"subject_id"},
		place: func(v []any) string { return chatBodyPlace(asInt(v[1]), asInt(v[0])) }},
	{table: "outbox", column: "sealed_body", keys: idKey, with: []string{"to_address", "created_at"},
		place: func(v []any) string { return mailBodyPlace(asString(v[1]), asInt(v[2])) }},
	{table: "webhook_endpoints", column: "sealed_secret", keys: idKey,
		place: func(v []any) string { return webhookSecretPlace(asInt(v[0])) }},
	{table: "idv_sessions", column: "token", keys: []keyColumn{{name: "id", text: true}}, with: []string{"subject_id"}, text: true,
		place: func(v []any) string { return idvTokenPlace(asInt(v[1]), asString(v[0])) }},
	{table: "disputes", column: "explanation", keys: idKey, with: []string{"subject_id"},
		place: func(v []any) string { return disputeExplanationPlace(asInt(v[1]), asInt(v[0])) }},
	{table: "disputes", column: "resolution", keys: idKey, with: []string{"subject_id"},
		place: func(v []any) string { return disputeResolutionPlace(asInt(v[1]), asInt(v[0])) }},
	{table: "dispute_messages", column: "body", keys: idKey, with: []string{"dispute_id"},
		place: func(v []any) string { return disputeMessagePlace(asInt(v[1]), asInt(v[0])) }},
	// A file's name is sealed when its upload completes ('' before).
	{table: "files", column: "name", keys: idKey, where: "name <> ''", text: true,
		place: func(v []any) string { return fileNamePlace(asInt(v[0])) }},
	// Chunks are up to 256 KiB each: a few a transaction.
	{table: "file_chunks", column: "data", keys: []keyColumn{{name: "file_id"}, {name: "seq"}}, batch: 8,
		place: func(v []any) string { return chunkPlace(asInt(v[0]), int(asInt(v[1]))) }},
}

func asInt(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case int32:
		return int64(v)
	case int:
		return int64(v)
	case float64:
		return int64(v)
	case json.Number:
		n, _ := v.Int64()
		return n
	case []byte:
		n, _ := strconv.ParseInt(string(v), 10, 64)
		return n
	case string:
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	}
	return 0
}

func asString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// headSize is how many characters of the column hold a value's format byte
// and key id: 9 bytes, or their 12 characters of base64.
func (c sealedColumn) headSize() int {
	if c.text {
		return base64.StdEncoding.EncodedLen(seal.PrefixSize)
	}
	return seal.PrefixSize
}

// head is prefix as the column stores it.
func (c sealedColumn) head(prefix []byte) any {
	if c.text {
		return base64.StdEncoding.EncodeToString(prefix)
	}
	return prefix
}

func (c sealedColumn) decode(v any) ([]byte, bool) {
	if !c.text {
		b, ok := v.([]byte)
		return b, ok
	}
	b, err := base64.StdEncoding.DecodeString(asString(v))
	return b, err == nil
}

func (c sealedColumn) encode(b []byte) any {
	if c.text {
		return base64.StdEncoding.EncodeToString(b)
	}
	return b
}

func (c sealedColumn) keyNames() string {
	names := make([]string, len(c.keys))
	for i, k := range c.keys {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

// RotationProgress is what meta records of a key rotation under way, so a
// rotation stopped midway resumes where it stopped.
type rotationProgress struct {
	// Key is the fingerprint of the key the rotation reseals under.
	Key string `json:"key"`
	// After is, per column, the primary key of the last row done.
	After map[string][]any `json:"after,omitempty"`
	// Done are the columns walked to their end.
	Done map[string]bool `json:"done,omitempty"`
}

const rotationProgressName = "key_rotation"

// RotateOptions tune RotateKeys.
type RotateOptions struct {
	// Settle is how long after the start the last pass waits at least, so
	// that servers following data.key (which look at it once a second)
	// seal with the new key before it: what they sealed with the old one
	// meanwhile is resealed by it.
	Settle time.Duration
	// BatchSize is how many values one transaction reseals; 0 takes each
	// column's own (100, or 8 file chunks of 256 KiB).
	BatchSize int
	// AfterBatch, when set, is called after each committed batch (tests
	// stop a rotation midway with it).
	AfterBatch func(column string, resealed int)
}

// KeyRotation reports a RotateKeys.
type KeyRotation struct {
	// Key is the fingerprint of the key everything is now sealed with.
	Key string
	// Resumed: an earlier rotation to the same key had stopped midway.
	Resumed bool
	// Resealed counts the values resealed, per column.
	Resealed map[string]int
	// Unopened counts values no key of the ring opens (altered), left as
	// they are; each is logged.
	Unopened map[string]int
	// Left counts the values still under another key after the last pass.
	Left map[string]int
}

// Total is how many values were resealed.
func (r *KeyRotation) Total() int {
	n := 0
	for _, v := range r.Resealed {
		n += v
	}
	return n
}

// rotationPasses bounds the passes: the first walks everything, the next
// ones reseal what servers still sealed with the old key meanwhile.
const rotationPasses = 4

// RotateKeys reseals every sealed value that is not under the sealing key
// (the first of the ring) with it, while servers keep serving. It walks
// each sealed column in the order of its primary key, a batch a
// transaction; each value is replaced only if it is still the value read
// (compare and set), so a value a server wrote meanwhile is never
// overwritten. Progress is kept in meta with each batch, so a rotation
// stopped midway resumes where it stopped. Passes repeat until one finds
// nothing to reseal.
func (s *DB) RotateKeys(ctx context.Context, opts RotateOptions) (*KeyRotation, error) {
	sealer := s.cfg.Sealer
	if sealer == nil {
		return nil, errNoDataKey
	}
	// Settle is about other processes' clocks: the wall clock, not cfg.Now.
	start := time.Now()
	prefix := sealer.Prefix()
	rep := &KeyRotation{Key: seal.KeyID(prefix), Resealed: map[string]int{}, Unopened: map[string]int{}, Left: map[string]int{}}

	p, err := s.rotationProgress(ctx)
	if err != nil {
		return nil, err
	}
	// The trail names the keys by their ids, never a key.
	keys := fmt.Sprintf("to key %s", rep.Key)
	if old := sealer.Fingerprints()[1:]; len(old) > 0 {
		keys += ", from " + strings.Join(old, ", ")
	}
	if p != nil && p.Key == rep.Key {
		rep.Resumed = true
		if err := s.appendAudit(ctx, s.db, s.auditRow(ctx, 0, 0, "keys.rotation-resumed", keys)); err != nil {
			return nil, err
		}
	} else {
		// Recorded before the first batch, so a run stopped even then
		// resumes with this key rather than starting another rotation.
		p = &rotationProgress{Key: rep.Key}
		err := s.tx(ctx, func(tx *sql.Tx) error {
			if err := s.saveRotationProgress(ctx, tx, p); err != nil {
				return err
			}
			return s.auditCompany(ctx, tx, 0, "keys.rotation-started", keys)
		})
		if err != nil {
			return nil, err
		}
	}
	for pass := 1; ; pass++ {
		if pass > 1 {
			if wait := opts.Settle - time.Since(start); wait > 0 {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(wait):
				}
			}
		}
		if p.Done == nil {
			p.Done = map[string]bool{}
		}
		if p.After == nil {
			p.After = map[string][]any{}
		}
		// A resumed first pass walks only what the stopped run had not;
		// every later pass walks everything.
		whole := !rep.Resumed || pass > 1
		resealed := 0
		rep.Unopened = map[string]int{}
		for _, c := range sealedColumns {
			for !p.Done[c.name()] {
				n, err := s.rotateBatch(ctx, c, opts.BatchSize, prefix, p, rep)
				if err != nil {
					return nil, err
				}
				resealed += n
				rep.Resealed[c.name()] += n
				if opts.AfterBatch != nil {
					opts.AfterBatch(c.name(), n)
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
		}
		// Whatever a server sealed with the old key behind the walk is
		// found by the next pass; a whole one that reseals nothing ends.
		if (resealed == 0 && whole) || pass >= rotationPasses {
			break
		}
		p = &rotationProgress{Key: rep.Key}
		if err := s.saveRotationProgress(ctx, s.db, p); err != nil {
			return nil, err
		}
	}
	status, err := s.KeyStatus(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range status.Columns {
		if c.Key != rep.Key {
			rep.Left[c.Column] += c.Count
		}
	}
	// What no key opens stays where it is, reported as such: the last
	// pass walked everything, so it counted each such value.
	for col, n := range rep.Unopened {
		if rep.Left[col] -= n; rep.Left[col] <= 0 {
			delete(rep.Left, col)
		}
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE name = $1`, rotationProgressName); err != nil {
			return fmt.Errorf("store: key rotation: %w", err)
		}
		return s.auditCompany(ctx, tx, 0, "keys.rotation-finished", fmt.Sprintf("%s: %d values resealed, %d opening with no key, %d still under another key",
			keys, rep.Total(), sumCounts(rep.Unopened), sumCounts(rep.Left)))
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// rotateBatch reseals one batch of a column, after the row p records, in
// one transaction that also records the progress. It marks the column done
// when no row is left.
func (s *DB) rotateBatch(ctx context.Context, c sealedColumn, batch int, prefix []byte, p *rotationProgress, rep *KeyRotation) (int, error) {
	if batch == 0 {
		batch = c.batch
	}
	if batch == 0 {
		batch = 100
	}
	after := p.After[c.name()]
	resealed := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		resealed = 0
		args := []any{c.head(prefix)}
		q := fmt.Sprintf(`SELECT %s`, c.keyNames()) // #nosec G201 -- table and column names from sealedColumns, constants; values are placeholders
		for _, w := range c.with {
			q += ", " + w
		}
		q += fmt.Sprintf(`, %s FROM %s WHERE %s IS NOT NULL AND substr(%s, 1, %d) <> $1`, c.column, c.table, c.column, c.column, c.headSize())
		if c.where != "" {
			q += " AND " + c.where
		}
		if len(after) == len(c.keys) {
			marks := make([]string, len(c.keys))
			for i, k := range c.keys {
				marks[i] = fmt.Sprintf("$%d", len(args)+1)
				if k.text {
					args = append(args, asString(after[i]))
				} else {
					args = append(args, asInt(after[i]))
				}
			}
			q += fmt.Sprintf(" AND (%s) > (%s)", c.keyNames(), strings.Join(marks, ", "))
		}
		q += fmt.Sprintf(" ORDER BY %s LIMIT %d", c.keyNames(), batch)
		type row struct {
			v      []any
			stored any
		}
		var rowsRead []row
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("store: key rotation: read %s: %w", c.name(), err)
		}
		for rows.Next() {
			n := len(c.keys) + len(c.with)
			v := make([]any, n+1)
			dest := make([]any, n+1)
			for i := range dest {
				dest[i] = &v[i]
			}
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return fmt.Errorf("store: key rotation: read %s: %w", c.name(), err)
			}
			rowsRead = append(rowsRead, row{v: v[:n], stored: v[n]})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: key rotation: read %s: %w", c.name(), err)
		}
		if len(rowsRead) == 0 {
			p.Done[c.name()] = true
			delete(p.After, c.name())
			return s.saveRotationProgress(ctx, tx, p)
		}
		where := make([]string, len(c.keys))
		for i, k := range c.keys {
			where[i] = fmt.Sprintf("%s = $%d", k.name, i+2)
		}
		update := fmt.Sprintf(`UPDATE %s SET %s = $1 WHERE %s AND %s = $%d`, c.table, c.column, strings.Join(where, " AND "), c.column, len(c.keys)+2) // #nosec G201 -- table and column names from sealedColumns, constants; values are placeholders
		for _, r := range rowsRead {
			after = r.v[:len(c.keys)]
			old, ok := c.decode(r.stored)
			place := c.place(r.v)
			var plain []byte
			if ok {
				plain, err = s.cfg.Sealer.OpenFor(old, place)
			}
			if !ok || err != nil {
				// Altered, or under a key the ring no longer holds: left
				// as it is, and it fails when read as before.
				rep.Unopened[c.name()]++
				s.cfg.Logger.Error("a sealed value that does not open was left as it is", "column", c.name(), "row", fmt.Sprint(after...))
				continue
			}
			sealed, err := s.cfg.Sealer.SealFor(plain, place)
			if err != nil {
				return err
			}
			if !bytes.HasPrefix(sealed, prefix) {
				// The key file changed under the rotation: another
				// rotation began. Stop rather than seal with a key this
				// one did not start with.
				return errors.New("store: key rotation: the sealing key changed while rotating: run portal keys rotate again")
			}
			args := append([]any{c.encode(sealed)}, r.v[:len(c.keys)]...)
			args = append(args, r.stored)
			res, err := tx.ExecContext(ctx, update, args...)
			if err != nil {
				return fmt.Errorf("store: key rotation: reseal %s: %w", c.name(), err)
			}
			// No row: a server wrote the value meanwhile, sealing it with
			// its key; a later pass reseals it if that was the old one.
			if n, err := res.RowsAffected(); err == nil && n == 1 {
				resealed++
			}
		}
		p.After[c.name()] = after
		return s.saveRotationProgress(ctx, tx, p)
	})
	if err != nil {
		// The batch is undone; RotateKeys stops, and the next run resumes
		// from the progress meta holds.
		return 0, err
	}
	return resealed, nil
}

func (s *DB) rotationProgress(ctx context.Context) (*rotationProgress, error) {
	var v []byte
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE name = $1`, rotationProgressName).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: key rotation: %w", err)
	}
	var p rotationProgress
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("store: key rotation: progress: %w", err)
	}
	return &p, nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *DB) saveRotationProgress(ctx context.Context, q execer, p *rotationProgress) error {
	v, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("store: key rotation: progress: %w", err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, rotationProgressName, v); err != nil {
		return fmt.Errorf("store: key rotation: progress: %w", err)
	}
	return nil
}

// KeyStatus is what `portal keys status` prints.
type KeyStatus struct {
	// Rotating is the fingerprint of the key a rotation stopped midway
	// reseals under, "" when none is under way.
	Rotating string
	// Columns count the values per column and key, sorted.
	Columns []SealedCount
}

// SealedCount is how many values of a column are sealed under one key.
type SealedCount struct {
	Column string
	// Key is the fingerprint of the key, or "format-2" for values sealed
	// before key ids (they open with whichever key of the ring opens
	// them), "format-1" for unbound ones, "not-sealed" for anything else.
	Key   string
	Count int
}

// KeyStatus counts the sealed values of every column per key. It reads
// only each value's first bytes.
func (s *DB) KeyStatus(ctx context.Context) (*KeyStatus, error) {
	st := &KeyStatus{}
	p, err := s.rotationProgress(ctx)
	if err != nil {
		return nil, err
	}
	if p != nil {
		st.Rotating = p.Key
	}
	for _, c := range sealedColumns {
		q := fmt.Sprintf(`SELECT substr(%s, 1, %d), COUNT(*) FROM %s WHERE %s IS NOT NULL`, c.column, c.headSize(), c.table, c.column)
		if c.where != "" {
			q += " AND " + c.where
		}
		q += " GROUP BY 1"
		rows, err := s.db.QueryContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("store: key status: %s: %w", c.name(), err)
		}
		counts := map[string]int{}
		for rows.Next() {
			var head any
			var n int
			if err := rows.Scan(&head, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: key status: %s: %w", c.name(), err)
			}
			counts[headKey(c, head)] += n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: key status: %s: %w", c.name(), err)
		}
		for k, n := range counts {
			st.Columns = append(st.Columns, SealedCount{Column: c.name(), Key: k, Count: n})
		}
	}
	sort.Slice(st.Columns, func(i, j int) bool {
		a, b := st.Columns[i], st.Columns[j]
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Key < b.Key
	})
	return st, nil
}

func headKey(c sealedColumn, head any) string {
	b, ok := c.decode(head)
	if !ok {
		if s, isString := head.(string); isString && !c.text {
			b, ok = []byte(s), true
		}
	}
	if !ok || len(b) == 0 {
		return "not-sealed"
	}
	if id := seal.KeyID(b); id != "" {
		return id
	}
	switch b[0] {
	case 2:
		return "format-2"
	case 1:
		return "format-1"
	}
	return "not-sealed"
}
