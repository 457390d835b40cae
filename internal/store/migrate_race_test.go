package store_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// The child processes of TestMigrationsRaceAcrossProcesses find what to
// open in these variables.
const (
	raceChildDir   = "STORE_TEST_MIGRATE_DIR"
	raceChildURL   = "STORE_TEST_MIGRATE_URL"
	raceChildStart = "STORE_TEST_MIGRATE_START" // Unix nanoseconds
)

// TestMigrationsRaceAcrossProcesses starts several processes (this test
// binary again) that open one database at the same instant, as serve,
// portal invite and portal migrate started together would: on an empty
// folder or schema, and on a database one migration behind. Every one
// must open it, and the schema must end at the newest migration. Without
// a migration lock on SQLite two of them applied the same migration and
// the second failed with "table ... already exists".
func TestMigrationsRaceAcrossProcesses(t *testing.T) {
	if os.Getenv(raceChildDir)+os.Getenv(raceChildURL) != "" {
		migrateRaceChild(t)
		return
	}
	const processes = 6
	type place struct{ dir, url string }
	run := func(t *testing.T, where place, upgrade bool) {
		ctx := context.Background()
		cfg := raceConfig(t)
		cfg.DataDir, cfg.DatabaseURL = where.dir, where.url
		if upgrade {
			db, err := store.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.UndoLastMigrationForTest(ctx); err != nil {
				t.Fatal(err)
			}
			current, latest, err := db.MigrationVersionsForTest(ctx)
			db.Close()
			if err != nil || current >= latest {
				t.Fatalf("after undoing the last migration: at %d of %d (%v)", current, latest, err)
			}
		}
		start := time.Now().Add(2 * time.Second)
		var wg sync.WaitGroup
		for i := range processes {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMigrationsRaceAcrossProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), raceChildDir+"="+where.dir, raceChildURL+"="+where.url,
				raceChildStart+"="+strconv.FormatInt(start.UnixNano(), 10))
			wg.Go(func() {
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("process %d: %v\n%s", i, err, out)
				}
			})
		}
		wg.Wait()
		db, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		current, latest, err := db.MigrationVersionsForTest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if current != latest {
			t.Errorf("the database is at migration %d, want %d", current, latest)
		}
	}
	for _, upgrade := range []bool{false, true} {
		name := "EmptyDatabase"
		if upgrade {
			name = "OneMigrationBehind"
		}
		t.Run(name, func(t *testing.T) {
			t.Run("SQLite", func(t *testing.T) { run(t, place{dir: t.TempDir()}, upgrade) })
			t.Run("PostgreSQL", func(t *testing.T) {
				if os.Getenv(storetest.EnvURL) == "" {
					t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
				}
				run(t, place{url: storetest.Schema(t, os.Getenv(storetest.EnvURL))}, upgrade)
			})
		})
	}
}

// migrateRaceChild is one process of the race: it waits for the agreed
// instant, opens the database (which migrates it) and writes once.
func migrateRaceChild(t *testing.T) {
	start, err := strconv.ParseInt(os.Getenv(raceChildStart), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(time.Unix(0, start)))
	cfg := raceConfig(t)
	cfg.DataDir, cfg.DatabaseURL = os.Getenv(raceChildDir), os.Getenv(raceChildURL)
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
}

// raceConfig is storetest's configuration with one data key for every
// process of the race.
func raceConfig(t *testing.T) store.Config {
	t.Helper()
	cfg := storetest.Config(t)
	sealer, err := seal.New(bytes.Repeat([]byte{7}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sealer = sealer
	return cfg
}
