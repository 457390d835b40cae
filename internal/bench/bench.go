// Package bench is the load generator of `make bench`: it starts the real
// portal binary, seeds applicants through its API, and measures the
// server's CPU per request from /proc against a floor (a bare net/http
// server answering the same bytes, and for writes a single-row insert)
// measured in the same run, rounds interleaved, and writes
// docs/benchmarks.md (docs/operations.md, "Benchmarks").
package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Config says what to measure and where.
type Config struct {
	Portal string // the portal binary
	Self   string // the bench binary, re-executed for the floors
	Out    string // the Markdown report to update; empty writes none
	Quick  bool   // a 30-second smoke: fewer rounds, requests and streams
	// Only, when not empty, measures only the table's rows whose scenario
	// name contains it ("GET" for the reads), and skips login, the event
	// streams, the journeys and Lighthouse: a quick look at a few rows.
	Only        string
	DatabaseURL string // PostgreSQL to measure too (a schema of the run's own); empty: SQLite only
	PocketBase  string // a PocketBase binary to measure beside the portal; empty: not measured
	Lighthouse  string // the Lighthouse runner (bench/lighthouse/run.mjs); skipped when missing
	Commit      string // as the report names it
	TempDir     string // where data folders go; empty: the system's
	Log         io.Writer
}

// sizes are how much each part does: the full run or the smoke.
type sizes struct {
	Rounds        int // interleaved rounds per row
	ReadRequests  int // per round
	WriteRequests int
	Concurrency   int
	Logins        int // per round
	Applicants    int // seeded (each takes 10 event streams at most)
	Streams       int
	IdleSeconds   int
	Journeys      int
	JourneyConc   int
}

func (c Config) sizes() sizes {
	if c.Quick {
		return sizes{Rounds: 3, ReadRequests: 100, WriteRequests: 50, Concurrency: 4, Logins: 4,
			Applicants: 10, Streams: 100, IdleSeconds: 2, Journeys: 8, JourneyConc: 8}
	}
	return sizes{Rounds: 5, ReadRequests: 400, WriteRequests: 200, Concurrency: 4, Logins: 6,
		Applicants: 100, Streams: 1000, IdleSeconds: 10, Journeys: 64, JourneyConc: 16}
}

// Report is everything one run measured.
type Report struct {
	Machine    Machine
	Date       time.Time
	Commit     string
	GoVersion  string
	Quick      bool
	Argon2     time.Duration // raw argon2id with the portal's parameters, CPU per hash check
	Databases  []DatabaseReport
	PocketBase string // how PocketBase was or was not measured
	Lighthouse *LighthouseReport
	Failures   []string      // requests or journeys that failed
	Took       time.Duration // the whole run, wall time
}

// DatabaseReport is the figures of the portal on one database.
type DatabaseReport struct {
	Name     string // SQLite or PostgreSQL
	Rows     []Row
	Streams  StreamsReport
	Journeys JourneysReport
}

// Row is one line of the table.
type Row struct {
	Scenario  string
	Portal    time.Duration // median CPU per request
	Floor     time.Duration // median CPU per request of the floor
	FloorName string
	// MaxRatio is the target: the portal at most this many floors; 0
	// means none (login, reported beside argon2id).
	MaxRatio float64
	// Peer, when measured, is PocketBase's CPU for the same kind of
	// request; the target then also asks the portal to spend less.
	Peer        time.Duration
	Requests    int // per round
	Concurrency int // requests at once
	Rounds      int
}

// Ratio is the portal's CPU in floors.
func (r Row) Ratio() float64 { return ratio(r.Portal, r.Floor) }

// Met says whether the row's target holds; false when there is none.
func (r Row) Met() bool {
	if r.MaxRatio == 0 || r.Floor == 0 {
		return false
	}
	if r.Peer > 0 && r.Portal >= r.Peer {
		return false
	}
	return r.Ratio() <= r.MaxRatio
}

// Run measures everything, prints the table and writes the report. It
// fails when a request or a journey failed (a missed target is reported,
// not a failure) or when the servers could not be started.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	rep := &Report{Machine: readMachine(), Date: time.Now().UTC(), Commit: cfg.Commit,
		GoVersion: runtime.Version(), Quick: cfg.Quick}
	dir, err := os.MkdirTemp(cfg.TempDir, "portal-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	type database struct{ name, url string }
	dbs := []database{{name: "SQLite"}}
	if cfg.DatabaseURL != "" {
		dbs = append(dbs, database{name: "PostgreSQL", url: cfg.DatabaseURL})
	}
	rep.PocketBase = "not measured: set PORTAL_BENCH_POCKETBASE to a PocketBase binary"
	for i, db := range dbs {
		sub, err := os.MkdirTemp(dir, db.name+"-")
		if err != nil {
			return nil, err
		}
		// PocketBase (SQLite itself) and Lighthouse once, beside SQLite.
		dr, err := runDatabase(ctx, cfg, rep, sub, db.name, db.url, i == 0)
		if err != nil {
			return rep, err
		}
		rep.Databases = append(rep.Databases, dr)
	}
	rep.Took = time.Since(rep.Date)
	fmt.Fprint(cfg.Log, "\n"+renderText(rep))
	if cfg.Out != "" {
		if err := writeReport(cfg.Out, rep); err != nil {
			return rep, err
		}
		fmt.Fprintf(cfg.Log, "wrote %s\n", cfg.Out)
	}
	if len(rep.Failures) > 0 {
		return rep, fmt.Errorf("bench: %d failures, the first: %s", len(rep.Failures), rep.Failures[0])
	}
	return rep, nil
}

// runDatabase measures the portal on one database: the table's rows,
// login, the event streams and the journeys.
func runDatabase(ctx context.Context, cfg Config, rep *Report, dir, name, baseURL string, first bool) (DatabaseReport, error) {
	sz := cfg.sizes()
	dr := DatabaseReport{Name: name}
	logf := func(format string, args ...any) {
		fmt.Fprintf(cfg.Log, "[%s %s] %s\n", time.Now().UTC().Format("15:04:05"), name, fmt.Sprintf(format, args...))
	}
	dbURL := ""
	if baseURL != "" {
		u, drop, err := pgSchema(ctx, baseURL)
		if err != nil {
			return dr, err
		}
		defer drop()
		dbURL = u
	}
	logf("starting %s", cfg.Portal)
	p, err := startPortal(ctx, cfg.Portal, dir, dbURL)
	if err != nil {
		return dr, err
	}
	defer p.stop()
	client := newClient(64)
	defer client.CloseIdleConnections()
	op, err := newOperator(ctx, p, client)
	if err != nil {
		return dr, err
	}
	logf("seeding %d applicants through the API", sz.Applicants)
	apps, err := seed(ctx, client, op, sz.Applicants)
	if err != nil {
		return dr, err
	}

	var pb *peer
	if first && cfg.PocketBase != "" {
		logf("starting PocketBase %s", cfg.PocketBase)
		pb, err = startPocketBase(ctx, cfg.PocketBase, dir, client)
		if err != nil {
			rep.PocketBase = "not measured: " + err.Error()
			logf("%s", rep.PocketBase)
			pb = nil
		} else {
			defer pb.stop()
		}
	}

	rows, err := measureRows(ctx, cfg, client, p, apps, dir, dbURL, pb, logf)
	if err != nil {
		return dr, err
	}
	dr.Rows = rows
	if pb != nil && len(rows) > 0 && rows[0].Peer > 0 {
		rep.PocketBase = fmt.Sprintf("PocketBase %s, authenticated record view `GET /api/collections/users/records/{id}`: %s CPU per request",
			pb.version, formatDuration(rows[0].Peer))
	}

	if cfg.Only != "" {
		return dr, nil
	}
	logf("login against raw argon2id")
	loginRow, argon, err := measureLogin(ctx, client, p, apps, sz)
	if err != nil {
		rep.Failures = append(rep.Failures, fmt.Sprintf("%s login: %v", name, err))
	} else {
		dr.Rows = append(dr.Rows, loginRow)
		if rep.Argon2 == 0 {
			rep.Argon2 = argon
		}
	}

	logf("%d event streams", sz.Streams)
	dr.Streams, err = measureStreams(ctx, p, apps, sz)
	if err != nil {
		rep.Failures = append(rep.Failures, fmt.Sprintf("%s event streams: %v", name, err))
	}

	logf("%d journeys, %d at once", sz.Journeys, sz.JourneyConc)
	dr.Journeys, err = measureJourneys(ctx, p, op, sz, argon)
	if err != nil {
		rep.Failures = append(rep.Failures, fmt.Sprintf("%s journeys: %v", name, err))
	}

	if first {
		rep.Lighthouse = runLighthouse(ctx, cfg, p, op, apps[0], logf)
	}
	return dr, nil
}

// measureRows runs the table's scenarios, each in rounds interleaved with
// its floor's (and, for GET /api/v2/user, PocketBase's).
func measureRows(ctx context.Context, cfg Config, client *http.Client, p *portalProcess, apps []applicant,
	dir, dbURL string, pb *peer, logf func(string, ...any)) ([]Row, error) {
	sz := cfg.sizes()
	scs := scenarios()
	if cfg.Only != "" {
		scs = slices.DeleteFunc(scs, func(sc scenario) bool { return !strings.Contains(sc.Name, cfg.Only) })
	}
	// The floor answers what the portal answered: capture it first.
	fc := floorConfig{Routes: map[string]floorRoute{}}
	for _, a := range apps {
		fc.Tokens = append(fc.Tokens, a.Token)
	}
	for _, sc := range scs {
		ans, err := send(ctx, client, p.base, sc.Path(apps[0]), sc, apps[0])
		if err != nil {
			return nil, err
		}
		fc.Routes[sc.Key] = floorRoute{Status: ans.Status, ContentType: ans.ContentType, Body: ans.Body, Write: sc.Write}
	}
	if dbURL != "" {
		fc.PostgresURL = dbURL
	} else {
		fc.SQLitePath = filepath.Join(dir, "floor.db")
	}
	floor, err := startFloor(ctx, cfg.Self, dir, fc)
	if err != nil {
		return nil, err
	}
	defer floor.stop()

	portalT := target{pid: p.pid(), base: p.base, path: func(sc scenario, a applicant) string { return sc.Path(a) }}
	floorT := target{pid: floor.pid(), base: floor.base, path: func(sc scenario, _ applicant) string { return sc.Key }}
	var rows []Row
	for _, sc := range scs {
		n := sz.ReadRequests
		floorName := "read floor"
		if sc.Write {
			n, floorName = sz.WriteRequests, "insert floor"
		}
		type runner struct {
			t    target
			sc   scenario
			apps []applicant
		}
		runners := []runner{{portalT, sc, apps}, {floorT, sc, apps}}
		if sc.Key == "/user" && pb != nil {
			runners = append(runners, runner{pb.target(), pb.scenario(), pb.apps()})
		}
		// A short warm-up of each, not counted: connections, first
		// allocations, the database's page cache.
		for _, rn := range runners {
			if _, err := round(ctx, client, rn.t, rn.sc, rn.apps, n/10+1, sz.Concurrency); err != nil {
				return nil, err
			}
		}
		samples := make([][]time.Duration, len(runners))
		for r := range sz.Rounds {
			for j, rn := range runners {
				cpu, err := round(ctx, client, rn.t, rn.sc, rn.apps, n, sz.Concurrency)
				if err != nil {
					return nil, err
				}
				samples[j] = append(samples[j], cpu)
			}
			logf("%s round %d: portal %s, floor %s", sc.Name, r+1, formatDuration(samples[0][r]), formatDuration(samples[1][r]))
		}
		row := Row{Scenario: sc.Name, Portal: median(samples[0]), Floor: median(samples[1]), FloorName: floorName,
			MaxRatio: 5, Requests: n, Concurrency: sz.Concurrency, Rounds: sz.Rounds}
		if len(runners) > 2 {
			row.Peer = median(samples[2])
		}
		rows = append(rows, row)
	}
	return rows, nil
}
