package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMedianAndRatio(t *testing.T) {
	us := time.Microsecond
	for _, tc := range []struct {
		name string
		in   []time.Duration
		want time.Duration
	}{
		{"Empty", nil, 0},
		{"One", []time.Duration{7 * us}, 7 * us},
		{"OddUnsorted", []time.Duration{9 * us, 1 * us, 5 * us}, 5 * us},
		{"EvenTakesTheMean", []time.Duration{4 * us, 1 * us, 3 * us, 2 * us}, 2500 * time.Nanosecond},
		{"AnOutlierDoesNotMoveIt", []time.Duration{10 * us, 11 * us, 900 * us, 12 * us, 10 * us}, 11 * us},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]time.Duration(nil), tc.in...)
			if got := median(tc.in); got != tc.want {
				t.Fatalf("median(%v) = %v; want %v", tc.in, got, tc.want)
			}
			for i := range in {
				if in[i] != tc.in[i] {
					t.Fatalf("median reordered its input")
				}
			}
		})
	}
	if got := ratio(1869*us, 38*us); got < 49.18 || got > 49.19 {
		t.Errorf("ratio = %v; want 49.18", got)
	}
	if got := ratio(us, 0); got != 0 {
		t.Errorf("ratio over no floor = %v; want 0", got)
	}
	if got := perRequest(3*time.Second, 1000); got != 3*time.Millisecond {
		t.Errorf("perRequest = %v", got)
	}
	if got := perRequest(time.Second, 0); got != 0 {
		t.Errorf("perRequest of no requests = %v", got)
	}
}

func TestRowMet(t *testing.T) {
	us := time.Microsecond
	for _, tc := range []struct {
		name string
		row  Row
		want bool
	}{
		{"WithinFiveFloors", Row{Portal: 190 * us, Floor: 38 * us, MaxRatio: 5}, true},
		{"ErrOverFiveFloors", Row{Portal: 1869 * us, Floor: 38 * us, MaxRatio: 5}, false},
		{"ErrAbovePocketBase", Row{Portal: 150 * us, Floor: 38 * us, MaxRatio: 5, Peer: 120 * us}, false},
		{"BelowPocketBase", Row{Portal: 150 * us, Floor: 38 * us, MaxRatio: 5, Peer: 900 * us}, true},
		{"ErrNoTarget", Row{Portal: 40 * time.Millisecond, Floor: 39 * time.Millisecond}, false},
		{"ErrNoFloor", Row{Portal: us, MaxRatio: 5}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.row.Met(); got != tc.want {
				t.Fatalf("Met() = %v; want %v", got, tc.want)
			}
		})
	}
}

func TestJourneysReportMath(t *testing.T) {
	j := JourneysReport{Journeys: 100, Wall: 4 * time.Second, CPU: 10 * time.Second,
		Argon2: 40 * time.Millisecond, Argon2Ops: 2, Cores: 2}
	if got := j.PerSecond(); got != 25 {
		t.Errorf("PerSecond = %v; want 25", got)
	}
	if got := j.CPUPerJourney(); got != 100*time.Millisecond {
		t.Errorf("CPUPerJourney = %v; want 100ms", got)
	}
	// 2 cores / (2 × 40 ms) = 25 journeys a second at most.
	if got := j.Argon2Bound(); got < 24.99 || got > 25.01 {
		t.Errorf("Argon2Bound = %v; want 25", got)
	}
	if j.Met() {
		t.Error("25 a second met the target of 50")
	}
	j.Wall = time.Second
	if !j.Met() {
		t.Error("100 a second with no error missed the target")
	}
	j.Errors = 1
	if j.Met() {
		t.Error("a failed journey met the target")
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                        "–",
		38 * time.Microsecond:    "38 µs",
		1869 * time.Microsecond:  "1,869 µs",
		41500 * time.Microsecond: "41.5 ms",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q; want %q", d, got, want)
		}
	}
	if got := groupThousands(1234567); got != "1,234,567" {
		t.Errorf("groupThousands = %q", got)
	}
}

func TestSpliceReport(t *testing.T) {
	section := beginMarker + "\nNEW\n" + endMarker + "\n"
	for _, tc := range []struct {
		name, old, want string
	}{
		{"ReplacesBetweenTheMarkers",
			"# Benchmarks\n\nHand-written.\n\n" + beginMarker + "\nOLD\nOLD\n" + endMarker + "\n\n## Profiles\nKept.\n",
			"# Benchmarks\n\nHand-written.\n\n" + section + "\n## Profiles\nKept.\n"},
		{"AppendsWithoutMarkers", "# Benchmarks\n\nBefore.", "# Benchmarks\n\nBefore.\n\n" + section},
		{"AppendsWhenTheEndComesFirst", endMarker + "\n" + beginMarker + "\n", endMarker + "\n" + beginMarker + "\n\n" + section},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(spliceReport([]byte(tc.old), section)); got != tc.want {
				t.Fatalf("spliceReport =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func sampleReport() *Report {
	us := time.Microsecond
	return &Report{
		Machine: Machine{CPU: "Test CPU", Cores: 2, Memory: 4 << 30},
		Date:    time.Date(2026, 11, 29, 17, 40, 0, 0, time.UTC), Commit: "abc1234 (dirty)", GoVersion: "go1.26",
		Argon2: 40 * time.Millisecond, Took: 252*time.Second + 300*time.Millisecond,
		Databases: []DatabaseReport{{
			Name: "SQLite",
			Rows: []Row{
				{Scenario: "GET /api/v2/user", Portal: 1869 * us, Floor: 38 * us, FloorName: "read floor", MaxRatio: 5, Peer: 890 * us, Requests: 600, Concurrency: 4, Rounds: 5},
				{Scenario: "PUT /api/v2/user (personal information)", Portal: 700 * us, Floor: 172 * us, FloorName: "insert floor", MaxRatio: 5, Requests: 300, Concurrency: 4, Rounds: 5},
				{Scenario: "login (password grant)", Portal: 41600 * us, Floor: 40 * time.Millisecond, FloorName: "raw argon2id", Requests: 16, Concurrency: 2, Rounds: 5},
			},
			Streams:  StreamsReport{Streams: 1000, Path: streamPath, Before: memory{RSS: 49 << 20, Peak: 60 << 20}, Open: memory{RSS: 120 << 20, Peak: 130 << 20}, IdleCPU: 2 * time.Millisecond, IdleSeconds: 10},
			Journeys: JourneysReport{Journeys: 96, Concurrency: 24, Requests: 9600, Wall: 8 * time.Second, CPU: 14400 * time.Millisecond, Argon2: 40 * time.Millisecond, Argon2Ops: 2, Cores: 2},
		}},
		PocketBase: "PocketBase 0.36.0, authenticated record view: 890 µs CPU per request",
		Lighthouse: &LighthouseReport{Pages: []LighthousePage{{Name: "/login", Performance: 0.97, LCPMs: 1200, TBTMs: 30}, {Name: "/setup", Performance: 0.9, LCPMs: 2500, TBTMs: 200}}},
	}
}

func TestRenderMarkdown(t *testing.T) {
	md := renderMarkdown(sampleReport())
	for _, want := range []string{
		"commit abc1234 (dirty), go1.26",
		"Machine: Test CPU, 2 cores, 4.0 GiB of memory. The run took 4m12s.",
		"| scenario | portal CPU/request | floor | ratio | target | met |",
		"| GET /api/v2/user | 1,869 µs | 38 µs (read floor) | 49.2x | ≤ 5x floor, < PocketBase (890 µs) | **no** |",
		"| PUT /api/v2/user (personal information) | 700 µs | 172 µs (insert floor) | 4.1x | ≤ 5x floor | yes |",
		"| login (password grant) | 41.6 ms | 40.0 ms (raw argon2id) | 1.0x | none: reported beside it | – |",
		"5 rounds of 600 requests (reads) or 300 (writes), 4 at once",
		"**Journeys**: 12.0 a second (96 whole journeys, 24 at once, 0 errors",
		"Server CPU per journey 150.0 ms: argon2id 80.0 ms (2 × 40.0 ms), the rest 70.0 ms. Argon2id alone bounds journeys at 25.0 a second on 2 cores.",
		"**Event streams**: 1,000 open (`GET /api/v2/user/events`): portal RSS 120 MB (peak 130 MB; 49 MB before they opened); target < 200 MB: yes. Idle CPU with them open: 2,000 µs a second (over 10 s).",
		"PocketBase 0.36.0, authenticated record view: 890 µs CPU per request.",
		"| /login | 97 | 1200 ms | 30 ms | yes |",
		"| /setup | 90 | 2500 ms | 200 ms | **no** |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Failures") {
		t.Error("a report without failures has a Failures section")
	}
	rep := sampleReport()
	rep.Failures = []string{"SQLite journeys: 1 of 96 journeys failed"}
	rep.Lighthouse = &LighthouseReport{Skipped: "not run: bench/lighthouse/run.mjs does not exist"}
	md = renderMarkdown(rep)
	for _, want := range []string{"### Failures\n\n- SQLite journeys: 1 of 96 journeys failed", "not run: bench/lighthouse/run.mjs does not exist."} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if text := renderText(sampleReport()); strings.Contains(text, "**") || !strings.Contains(text, "1,869 µs") {
		t.Errorf("the terminal table:\n%s", text)
	}
}

func TestWriteReportKeepsTheHandWrittenParts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	if err := writeReport(path, sampleReport()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# Benchmarks\n\n"+beginMarker) || !strings.HasSuffix(string(b), endMarker+"\n") {
		t.Fatalf("a new report:\n%s", b)
	}
	withNotes := strings.Replace(string(b), "# Benchmarks\n", "# Benchmarks\n\nHow to read it.\n", 1) + "\n## Before and after\nbenchstat output\n"
	os.WriteFile(path, []byte(withNotes), 0o644)
	rep := sampleReport()
	rep.Commit = "def5678"
	if err := writeReport(path, rep); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	s := string(b)
	if !strings.Contains(s, "How to read it.") || !strings.Contains(s, "## Before and after\nbenchstat output\n") ||
		!strings.Contains(s, "commit def5678") || strings.Contains(s, "abc1234") || strings.Count(s, beginMarker) != 1 {
		t.Fatalf("the rewritten report:\n%s", s)
	}
}

func TestParseLighthouse(t *testing.T) {
	out := "Lighthouse: /login\nsome log line\n{\"pages\":[{\"name\":\"/login\",\"performance\":0.97,\"lcpMs\":1200,\"tbtMs\":30}]}\n"
	rep, err := parseLighthouse([]byte(out))
	if err != nil || len(rep.Pages) != 1 || rep.Pages[0].Name != "/login" || rep.Pages[0].Performance != 0.97 {
		t.Fatalf("parseLighthouse = %+v, %v", rep, err)
	}
	for _, bad := range []string{"", "no json here\n", "{\"pages\":[]}\n", "{not json\n"} {
		if _, err := parseLighthouse([]byte(bad)); err == nil {
			t.Errorf("parseLighthouse(%q): no error", bad)
		}
	}
}
