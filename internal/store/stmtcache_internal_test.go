package store

import (
	"context"
	"database/sql"
	"slices"
	"testing"
)

// openCached opens a SQLite store with two rows in a table of the test's
// own, and one of its connections.
func openCached(t *testing.T) (*DB, *sql.Conn) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.pool.ExecContext(ctx, `CREATE TABLE cache_test (n INTEGER); INSERT INTO cache_test VALUES (1), (2)`); err != nil {
		t.Fatal(err)
	}
	c, err := db.pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return db, c
}

// cachedSQL is the SQL of the statements the connection keeps prepared.
func cachedSQL(t *testing.T, c *sql.Conn) []string {
	t.Helper()
	var out []string
	if err := c.Raw(func(dc any) error {
		for q := range dc.(*stmtCacheConn).stmts {
			out = append(out, q)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

const cacheTestQuery = `SELECT n FROM cache_test WHERE n >= $1 ORDER BY n`

// ns reads the query's numbers on q, running inner after each row while
// the rows are still open.
func ns(t *testing.T, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, min int, inner func()) []int {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), cacheTestQuery, min)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
		if inner != nil {
			inner()
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStatementCachePreparesOncePerConnection(t *testing.T) {
	_, c := openCached(t)
	for range 3 {
		if got := ns(t, c, 1, nil); !slices.Equal(got, []int{1, 2}) {
			t.Fatalf("got %v, want [1 2]", got)
		}
	}
	if got := cachedSQL(t, c); !slices.Contains(got, cacheTestQuery) {
		t.Fatalf("cached %q, want the query among them", got)
	}
}

// A nested query of the same SQL on the same connection, while the outer
// one's rows are open, must not reuse (and reset) the outer statement.
func TestStatementCacheNestedQueryOfTheSameSQL(t *testing.T) {
	check := func(t *testing.T, q interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	}) {
		var inner [][]int
		outer := ns(t, q, 1, func() { inner = append(inner, ns(t, q, 2, nil)) })
		if !slices.Equal(outer, []int{1, 2}) {
			t.Fatalf("outer rows %v, want [1 2]", outer)
		}
		if len(inner) != 2 || !slices.Equal(inner[0], []int{2}) || !slices.Equal(inner[1], []int{2}) {
			t.Fatalf("inner rows %v, want [[2] [2]]", inner)
		}
		// The statement is free again once the outer rows are closed.
		if got := ns(t, q, 2, nil); !slices.Equal(got, []int{2}) {
			t.Fatalf("after: %v, want [2]", got)
		}
	}
	t.Run("Connection", func(t *testing.T) {
		_, c := openCached(t)
		check(t, c)
	})
	t.Run("Transaction", func(t *testing.T) {
		_, c := openCached(t)
		tx, err := c.BeginTx(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		// Written inside the transaction and read by the cached statement.
		if _, err := tx.Exec(`INSERT INTO cache_test VALUES (3)`); err != nil {
			t.Fatal(err)
		}
		if got := ns(t, tx, 3, nil); !slices.Equal(got, []int{3}) {
			t.Fatalf("in the transaction: %v, want [3]", got)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		check(t, c)
	})
}

// A failing statement leaves the cached one usable, and a statement that
// does not prepare is not kept.
func TestStatementCacheAfterErrors(t *testing.T) {
	_, c := openCached(t)
	ctx := context.Background()
	if _, err := c.ExecContext(ctx, `CREATE UNIQUE INDEX cache_test_n ON cache_test (n)`); err != nil {
		t.Fatal(err)
	}
	const insert = `INSERT INTO cache_test VALUES ($1)`
	if _, err := c.ExecContext(ctx, insert, 1); err == nil {
		t.Fatal("a duplicate was inserted")
	}
	if _, err := c.ExecContext(ctx, insert, 5); err != nil {
		t.Fatalf("after the failure: %v", err)
	}
	if _, err := c.QueryContext(ctx, `SELECT nope FROM cache_test`); err == nil {
		t.Fatal("a bad query ran")
	}
	if got := cachedSQL(t, c); slices.Contains(got, `SELECT nope FROM cache_test`) {
		t.Fatalf("cached %q, the bad query among them", got)
	}
}
