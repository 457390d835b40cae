package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestSchemasOfBothDialectsAgree migrates a SQLite and a PostgreSQL
// database and compares what the two migration folders built: the same
// tables, columns of the same kind and nullability, and the same indexes
// (by table, columns and uniqueness; names of the indexes UNIQUE
// constraints create differ by dialect). A migration written for one
// dialect only fails here.
func TestSchemasOfBothDialectsAgree(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; the schema comparison needs PostgreSQL")
	}
	ctx := context.Background()
	lite := describeSQLite(t, ctx, storetest.OpenSQLite(t, storetest.Config(t)))
	pg := describePostgres(t, ctx, storetest.OpenPostgres(t, storetest.Config(t)))
	if len(lite) == 0 {
		t.Fatal("the SQLite schema is empty")
	}
	onlyIn := func(a, b map[string]bool, where string) {
		var missing []string
		for k := range a {
			if !b[k] {
				missing = append(missing, k)
			}
		}
		sort.Strings(missing)
		for _, k := range missing {
			t.Errorf("only in %s: %s", where, k)
		}
	}
	t.Logf("%d lines in SQLite, %d in PostgreSQL", len(lite), len(pg))
	onlyIn(lite, pg, "SQLite")
	onlyIn(pg, lite, "PostgreSQL")
}

// The schema as a set of lines, one per column and index, e.g.
// "column subjects.email text NOT NULL" and "index tokens(family_id)".
// goose's own table is left out: goose creates it differently per dialect.
const gooseTable = "goose_db_version"

func describeSQLite(t *testing.T, ctx context.Context, db *store.DB) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	q := db.SQL()
	tables := queryStrings(t, ctx, q, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> $1`, gooseTable)
	for _, table := range tables {
		rows, err := q.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info($1)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, typ string
			var notNull, pk int
			if err := rows.Scan(&name, &typ, &notNull, &pk); err != nil {
				t.Fatal(err)
			}
			// SQLite reports an INTEGER PRIMARY KEY as nullable; it is the
			// rowid and never NULL.
			out[columnLine(table, name, kindOfSQLite(typ), notNull == 1 || pk > 0)] = true
		}
		rows.Close()
		rows, err = q.QueryContext(ctx, `SELECT name, "unique", origin FROM pragma_index_list($1)`, table)
		if err != nil {
			t.Fatal(err)
		}
		type index struct {
			name   string
			unique bool
		}
		var indexes []index
		for rows.Next() {
			var name, origin string
			var unique int
			if err := rows.Scan(&name, &unique, &origin); err != nil {
				t.Fatal(err)
			}
			if origin != "pk" {
				indexes = append(indexes, index{name, unique == 1})
			}
		}
		rows.Close()
		for _, ix := range indexes {
			cols := queryStrings(t, ctx, q, `SELECT name FROM pragma_index_info($1) ORDER BY seqno`, ix.name)
			out[indexLine(table, cols, ix.unique)] = true
		}
	}
	return out
}

func describePostgres(t *testing.T, ctx context.Context, db *store.DB) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	q := db.SQL()
	rows, err := q.QueryContext(ctx, `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> $1`, gooseTable)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, name, typ, nullable string
		if err := rows.Scan(&table, &name, &typ, &nullable); err != nil {
			t.Fatal(err)
		}
		out[columnLine(table, name, kindOfPostgres(typ), nullable == "NO")] = true
	}
	rows.Close()
	rows, err = q.QueryContext(ctx, `
		SELECT t.relname, ix.indisunique,
			array_to_string(ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
				JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord), ',')
		FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = current_schema() AND NOT ix.indisprimary AND t.relname <> $1`, gooseTable)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, cols string
		var unique bool
		if err := rows.Scan(&table, &unique, &cols); err != nil {
			t.Fatal(err)
		}
		out[indexLine(table, strings.Split(cols, ","), unique)] = true
	}
	return out
}

func columnLine(table, column, kind string, notNull bool) string {
	null := "NULL"
	if notNull {
		null = "NOT NULL"
	}
	return fmt.Sprintf("column %s.%s %s %s", table, column, kind, null)
}

func indexLine(table string, cols []string, unique bool) string {
	kind := "index"
	if unique {
		kind = "unique index"
	}
	return fmt.Sprintf("%s %s(%s)", kind, table, strings.Join(cols, ", "))
}

// The kinds both dialects share: SQLite keeps booleans and every integer
// width as INTEGER (the store writes TRUE/FALSE, which SQLite reads as 1/0).
func kindOfSQLite(typ string) string {
	switch strings.ToUpper(typ) {
	case "INTEGER":
		return "integer"
	case "TEXT":
		return "text"
	case "BLOB":
		return "bytes"
	}
	return "sqlite " + typ
}

func kindOfPostgres(typ string) string {
	switch typ {
	case "bigint", "integer", "smallint", "boolean":
		return "integer"
	case "text":
		return "text"
	case "bytea":
		return "bytes"
	}
	return "postgres " + typ
}

func queryStrings(t *testing.T, ctx context.Context, q *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
