package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"
)

// The report's markers: writeReport rewrites only what lies between them,
// so the hand-written parts of docs/benchmarks.md (profiles, benchstat
// before and after) stay.
const (
	beginMarker = "<!-- bench:begin -->"
	endMarker   = "<!-- bench:end -->"
)

// writeReport puts the run into the Markdown file at path, between the
// markers; a file without them gets them at its end, and a missing file
// is made.
func writeReport(path string, rep *Report) error {
	section := beginMarker + "\n" + renderMarkdown(rep) + endMarker + "\n"
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		old = []byte("# Benchmarks\n\n")
	} else if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return os.WriteFile(path, spliceReport(old, section), 0o644)
}

// spliceReport replaces what lies between the markers (them included)
// with section, or appends section when the markers are not both there.
func spliceReport(old []byte, section string) []byte {
	s := string(old)
	i := strings.Index(s, beginMarker)
	j := strings.Index(s, endMarker)
	if i < 0 || j < i {
		// A blank line before the section, as Markdown wants it.
		for s != "" && !strings.HasSuffix(s, "\n\n") {
			s += "\n"
		}
		return []byte(s + section)
	}
	rest := s[j+len(endMarker):]
	rest = strings.TrimPrefix(rest, "\n")
	return []byte(s[:i] + section + rest)
}

// formatDuration writes a CPU time as the table shows it: microseconds
// below 10 ms, else milliseconds.
func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%s µs", groupThousands(int64(d/time.Microsecond)))
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
}

// groupThousands writes 1869 as 1,869.
func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + groupThousands(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func formatMB(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// cells are a row's columns: scenario, portal, floor, ratio, target, met.
func (r Row) cells() [6]string {
	floor := formatDuration(r.Floor)
	if r.FloorName != "" {
		floor += " (" + r.FloorName + ")"
	}
	target, met := "none: reported beside it", "–"
	if r.MaxRatio > 0 {
		target = fmt.Sprintf("≤ %gx floor", r.MaxRatio)
		if r.Peer > 0 {
			target += fmt.Sprintf(", < PocketBase (%s)", formatDuration(r.Peer))
		}
		met = yesNo(r.Met())
	}
	return [6]string{r.Scenario, formatDuration(r.Portal), floor, fmt.Sprintf("%.1fx", r.Ratio()), target, met}
}

var header = [6]string{"scenario", "portal CPU/request", "floor", "ratio", "target", "met"}

func renderMarkdown(rep *Report) string {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("## Latest run\n\n")
	kind := "full run"
	if rep.Quick {
		kind = "quick smoke (`-quick`: few requests, not for comparison)"
	}
	w("Written by `make bench` (%s) on %s, commit %s, %s.\n", kind, rep.Date.Format("2006-01-02 15:04 UTC"), rep.Commit, rep.GoVersion)
	w("Machine: %s, %d cores, %s of memory. The run took %s.\n\n", rep.Machine.CPU, rep.Machine.Cores, formatGiB(rep.Machine.Memory), rep.Took.Round(time.Second))
	w("CPU per request is the server process's CPU time (/proc/PID/task/*/schedstat) over a round of requests\n")
	w("divided by its requests; each figure is the median of the rounds, run interleaved with the floor's\n")
	w("(a bare net/http server answering the same bytes after a map lookup of the token; for writes, plus a\n")
	w("single-row insert through the portal's driver and settings), each server in its own process.\n\n")
	for _, db := range rep.Databases {
		w("### %s\n\n", db.Name)
		if len(db.Rows) > 0 {
			w("| %s |\n", strings.Join(header[:], " | "))
			w("|%s\n", strings.Repeat(" --- |", len(header)))
			for _, r := range db.Rows {
				c := r.cells()
				w("| %s |\n", strings.Join(c[:], " | "))
			}
			r := db.Rows[0]
			w("\n%d rounds of %d requests (reads) or %d (writes), %d at once, the seeded applicants in turn; login %d a round.\n\n",
				r.Rounds, r.Requests, writeRequests(db.Rows), r.Concurrency, loginRequests(db.Rows))
		}
		writeJourneys(&b, db.Journeys)
		writeStreams(&b, db.Streams)
		w("\n")
	}
	w("### PocketBase\n\n%s.\n\n", strings.TrimSuffix(rep.PocketBase, "."))
	w("### Lighthouse (mobile)\n\n")
	switch {
	case rep.Lighthouse == nil:
		w("Not run.\n\n")
	case rep.Lighthouse.Skipped != "":
		w("%s.\n\n", strings.TrimSuffix(rep.Lighthouse.Skipped, "."))
	default:
		w("| page | performance | LCP | TBT | met (≥ %.0f) |\n| --- | --- | --- | --- | --- |\n", minLighthouseScore*100)
		for _, p := range rep.Lighthouse.Pages {
			w("| %s | %.0f | %.0f ms | %.0f ms | %s |\n", p.Name, p.Performance*100, p.LCPMs, p.TBTMs, yesNo(p.Performance >= minLighthouseScore))
		}
		w("\n")
	}
	if len(rep.Failures) > 0 {
		w("### Failures\n\n")
		for _, f := range rep.Failures {
			w("- %s\n", f)
		}
		w("\n")
	}
	return b.String()
}

func writeRequests(rows []Row) int {
	for _, r := range rows {
		if r.FloorName == "insert floor" {
			return r.Requests
		}
	}
	return 0
}

func loginRequests(rows []Row) int {
	for _, r := range rows {
		if r.FloorName == "raw argon2id" {
			return r.Requests
		}
	}
	return 0
}

func writeJourneys(b *bytes.Buffer, j JourneysReport) {
	if j.Journeys == 0 {
		return
	}
	fmt.Fprintf(b, "- **Journeys**: %.1f a second (%d whole journeys, %d at once, %d errors, %s; %d requests, %.0f per journey); target ≥ %d a second with no error: %s.\n",
		j.PerSecond(), j.Journeys, j.Concurrency, j.Errors, j.Wall.Round(10*time.Millisecond), j.Requests, float64(j.Requests)/float64(j.Journeys), minJourneysPerSecond, yesNo(j.Met()))
	if j.Argon2 > 0 {
		rest := j.CPUPerJourney() - j.Argon2PerJourney()
		fmt.Fprintf(b, "  Server CPU per journey %s: argon2id %s (%d × %s), the rest %s. Argon2id alone bounds journeys at %.1f a second on %d cores.\n",
			formatDuration(j.CPUPerJourney()), formatDuration(j.Argon2PerJourney()), j.Argon2Ops, formatDuration(j.Argon2), formatDuration(rest), j.Argon2Bound(), j.Cores)
	} else {
		fmt.Fprintf(b, "  Server CPU per journey %s.\n", formatDuration(j.CPUPerJourney()))
	}
	if j.FirstError != "" {
		fmt.Fprintf(b, "  First error: %s\n", strings.Join(strings.Fields(j.FirstError), " "))
	}
}

func writeStreams(b *bytes.Buffer, s StreamsReport) {
	if s.Streams == 0 || s.Open.RSS == 0 {
		return
	}
	fmt.Fprintf(b, "- **Event streams**: %s open (`GET %s`): portal RSS %s (peak %s; %s before they opened); target < %d MB: %s. Idle CPU with them open: %s a second (over %d s).\n",
		groupThousands(int64(s.Streams)), s.Path, formatMB(s.Open.RSS), formatMB(s.Open.Peak), formatMB(s.Before.RSS), maxStreamsMB, yesNo(s.Met()), formatDuration(s.IdleCPU), s.IdleSeconds)
}

func formatGiB(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

// renderText is the table as the terminal shows it.
func renderText(rep *Report) string {
	var b bytes.Buffer
	for _, db := range rep.Databases {
		fmt.Fprintf(&b, "%s\n", db.Name)
		tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(header[:], "\t"))
		for _, r := range db.Rows {
			c := r.cells()
			fmt.Fprintln(tw, strings.ReplaceAll(strings.Join(c[:], "\t"), "**", ""))
		}
		tw.Flush()
		var extra bytes.Buffer
		writeJourneys(&extra, db.Journeys)
		writeStreams(&extra, db.Streams)
		b.WriteString(strings.ReplaceAll(extra.String(), "**", ""))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "PocketBase: %s\n", rep.PocketBase)
	if rep.Lighthouse != nil {
		if rep.Lighthouse.Skipped != "" {
			fmt.Fprintf(&b, "Lighthouse: %s\n", rep.Lighthouse.Skipped)
		}
		for _, p := range rep.Lighthouse.Pages {
			fmt.Fprintf(&b, "Lighthouse %s: %.0f (LCP %.0f ms, TBT %.0f ms)\n", p.Name, p.Performance*100, p.LCPMs, p.TBTMs)
		}
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(&b, "FAILED: %s\n", f)
	}
	return b.String()
}
