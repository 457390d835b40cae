package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"
)

// The SQLite driver parses a query's SQL again on every call unless the
// statement is prepared, and parsing was a fifth of the CPU of a read. A
// statement cache keeps each connection's statements prepared, by their SQL,
// for as long as the connection lives. The store's queries are constants (a
// few are built from a small set of column names), so the cache stays small;
// it is bounded all the same. PostgreSQL needs none of this: pgx's stdlib
// driver caches prepared statements per connection already
// (QueryExecModeCacheStatement, its default).

// maxCachedStmts bounds the statements one connection keeps prepared; past
// it a query is parsed for its call only, as without the cache.
const maxCachedStmts = 512

// maxCachedSQL is the longest SQL kept: longer ones are migrations and
// scripts, run once.
const maxCachedSQL = 4096

// stmtCacheConnector opens the connections of a statement cache over
// another connector's.
type stmtCacheConnector struct{ driver.Connector }

func (c stmtCacheConnector) Connect(ctx context.Context) (driver.Conn, error) {
	inner, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newStmtCacheConn(inner)
}

// stmtCacheConn is a connection with its prepared statements. database/sql
// uses a connection from one goroutine at a time (rows and transactions
// included), so it needs no lock.
type stmtCacheConn struct {
	inner driver.Conn
	// The inner connection's context methods; newStmtCacheConn checks it
	// has them.
	execer   driver.ExecerContext
	queryer  driver.QueryerContext
	preparer driver.ConnPrepareContext
	stmts    map[string]*cachedStmt
}

// cachedStmt is a prepared statement and whether rows of it are open: a
// statement answers one query at a time, so a query run while its rows are
// still being read (a nested query of the same SQL) is parsed for its call.
type cachedStmt struct {
	stmt driver.Stmt
	busy bool
}

func newStmtCacheConn(inner driver.Conn) (*stmtCacheConn, error) {
	c := &stmtCacheConn{inner: inner, stmts: map[string]*cachedStmt{}}
	var ok1, ok2, ok3 bool
	c.execer, ok1 = inner.(driver.ExecerContext)
	c.queryer, ok2 = inner.(driver.QueryerContext)
	c.preparer, ok3 = inner.(driver.ConnPrepareContext)
	if !ok1 || !ok2 || !ok3 {
		inner.Close()
		return nil, fmt.Errorf("store: statement cache: the driver's connection %T lacks context methods", inner)
	}
	return c, nil
}

// cached returns the statement prepared for query, preparing it on first
// use, or nil when the query is to be run without the cache: too long, the
// cache full, or the statement busy with open rows.
func (c *stmtCacheConn) cached(ctx context.Context, query string) (*cachedStmt, error) {
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	if len(query) > maxCachedSQL || len(c.stmts) >= maxCachedStmts {
		return nil, nil
	}
	st, err := c.preparer.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s := &cachedStmt{stmt: st}
	c.stmts[query] = s
	return s, nil
}

func (c *stmtCacheConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.execer.ExecContext(ctx, query, args)
	}
	return s.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *stmtCacheConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.queryer.QueryContext(ctx, query, args)
	}
	rows, err := s.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	s.busy = true
	return &cachedRows{Rows: rows, stmt: s}, nil
}

func (c *stmtCacheConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.preparer.PrepareContext(ctx, query)
}

func (c *stmtCacheConn) Prepare(query string) (driver.Stmt, error) { return c.inner.Prepare(query) }

func (c *stmtCacheConn) Begin() (driver.Tx, error) {
	return nil, errors.New("store: statement cache: Begin without a context")
}

func (c *stmtCacheConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	b, ok := c.inner.(driver.ConnBeginTx)
	if !ok {
		return nil, fmt.Errorf("store: statement cache: %T has no BeginTx", c.inner)
	}
	return b.BeginTx(ctx, opts)
}

func (c *stmtCacheConn) Ping(ctx context.Context) error {
	if p, ok := c.inner.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *stmtCacheConn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *stmtCacheConn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// Close finalizes the statements before the connection they belong to.
func (c *stmtCacheConn) Close() error {
	var errs []error
	for q, s := range c.stmts {
		if err := s.stmt.Close(); err != nil {
			errs = append(errs, fmt.Errorf("store: close statement: %w", err))
		}
		delete(c.stmts, q)
	}
	errs = append(errs, c.inner.Close())
	return errors.Join(errs...)
}

// cachedRows gives the statement back when its rows are closed, and
// passes on the column types the driver knows.
type cachedRows struct {
	driver.Rows
	stmt *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.stmt.busy = false
	return err
}

func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *cachedRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *cachedRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if t, is := r.Rows.(driver.RowsColumnTypeNullable); is {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *cachedRows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *cachedRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if t, is := r.Rows.(driver.RowsColumnTypePrecisionScale); is {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}
