// Command bench is `make bench`: it measures the portal binary's CPU per
// request against a floor in one run and writes docs/benchmarks.md
// (internal/bench says how).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"applicantportal/internal/bench"
)

func main() {
	// The floors are this binary again, measured in processes of their own.
	if len(os.Args) > 1 && os.Args[1] == bench.FloorCommand {
		if err := bench.ServeFloor(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	f := flag.NewFlagSet("bench", flag.ContinueOnError)
	portal := f.String("portal", "bin/portal", "the portal binary to measure")
	out := f.String("out", "docs/benchmarks.md", "the report to update (between its bench markers); empty writes none")
	quick := f.Bool("quick", false, "a 30-second smoke: few requests, rounds and streams; figures not for comparison")
	only := f.String("only", "", `measure only the rows whose scenario contains this ("GET" for the reads), without login, streams, journeys or Lighthouse`)
	lighthouse := f.String("lighthouse", "bench/lighthouse/run.mjs", "the Lighthouse runner; skipped when it does not exist")
	f.Usage = func() {
		fmt.Fprintf(f.Output(), `Usage: bench [-portal bin/portal] [-out docs/benchmarks.md] [-quick] [-only GET]

Starts the portal on SQLite (and on PostgreSQL when PORTAL_TEST_DATABASE_URL
is set), seeds applicants through its API, and measures CPU per request
against a floor in the same run. PORTAL_BENCH_POCKETBASE names a PocketBase
binary to measure beside it.

`)
		f.PrintDefaults()
	}
	if err := f.Parse(args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err = bench.Run(ctx, bench.Config{
		Portal:      *portal,
		Self:        self,
		Out:         *out,
		Quick:       *quick,
		Only:        *only,
		DatabaseURL: os.Getenv("PORTAL_TEST_DATABASE_URL"),
		PocketBase:  os.Getenv("PORTAL_BENCH_POCKETBASE"),
		Lighthouse:  *lighthouse,
		Commit:      commit(),
		Log:         os.Stdout,
	})
	return err
}

// commit names the code measured: the short hash, and "dirty" when the
// work tree has changes.
func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += " (dirty)"
	}
	return c
}
