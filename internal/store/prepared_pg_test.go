package store_test

import (
	"context"
	"os"
	"testing"

	"applicantportal/internal/store/storetest"
)

// On PostgreSQL the store relies on pgx preparing and caching each
// connection's statements (QueryExecModeCacheStatement, its default): a
// query run on a connection leaves its statement prepared there.
func TestPostgresStatementsStayPrepared(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
	}
	ctx := context.Background()
	db := storetest.OpenPostgres(t, storetest.Config(t))
	c, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const query = `SELECT COUNT(*) FROM companies WHERE id > $1`
	for range 2 {
		var n int
		if err := c.QueryRowContext(ctx, query, 0).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	var prepared int
	if err := c.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = $1`, query).Scan(&prepared); err != nil {
		t.Fatal(err)
	}
	if prepared != 1 {
		t.Fatalf("%d prepared statements of the query on its connection, want 1", prepared)
	}
}
