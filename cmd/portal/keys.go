package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"applicantportal/internal/seal"
	"applicantportal/internal/store"
)

const keysUsage = `Usage: portal keys rotate|status [--data DIR | --database-url URL] [--data-key KEYS]

  rotate  reseal every sealed value and file under a new data key while servers serve. With data.key
          in --data it adds a new key first in data.key (the old ones stay after it, so they still
          open) and servers on the folder pick it up within a second. With PORTAL_DATA_KEY, give
          the new key first and the old ones after ("new,old"), once every instance holds both.
          Resumable: run it again after a stop. Never prints a key.
  status  print the data keys' ids (the first seals) and how many values each column holds under
          each key.
`

const keysRotateSummary = `Reseals every sealed value and file not under the sealing data key with it, while servers
serve: in batches, each one transaction, never overwriting what a server wrote meanwhile. With
data.key in --data it first adds a new key, first in the file, the old ones kept after it. With
--data-key (PORTAL_DATA_KEY) the keys are given, the new one first: "new,old". A rotation stopped
midway resumes where it stopped when run again; a run with nothing left says so.`

const keysStatusSummary = `Prints the ids (fingerprints) of the data keys, which one seals, and how many values each sealed
column holds under each key. Never prints a key.`

// rotationSettle is how long a rotation's last pass waits at least after
// it began: servers following data.key look at it once a second, so by
// then they seal with the new key.
const rotationSettle = 2 * seal.FileCheckInterval

func runKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, rest, err := subcommand("keys", args, keysUsage, stderr, "rotate", "status")
	if word == "" || err != nil {
		return err
	}
	if word == "rotate" {
		return runKeysRotate(ctx, rest, stdout, stderr)
	}
	return runKeysStatus(ctx, rest, stdout, stderr)
}

// keysFlags are the flags both keys commands take.
func keysFlags(name, summary string, stderr io.Writer) (*flags, *storage, *string) {
	f := newFlags(name, summary, stderr)
	st := f.storage()
	var dataKey string
	f.StringVar(&dataKey, "data-key", "", "the data keys serve uses, separated by commas, the sealing one first; empty means data.key in --data")
	return f, st, &dataKey
}

func runKeysStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, st, dataKey := keysFlags("keys status", keysStatusSummary, stderr)
	if err := f.parse(args); err != nil {
		return err
	}
	sealer, err := keyRing(st, *dataKey)
	if err != nil {
		return err
	}
	db, err := openStoreWith(ctx, st, store.Config{Sealer: sealer, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		return err
	}
	defer db.Close()
	status, err := db.KeyStatus(ctx)
	if err != nil {
		return err
	}
	printKeyStatus(stdout, sealer, status)
	return nil
}

func printKeyStatus(w io.Writer, sealer *seal.Sealer, status *store.KeyStatus) {
	ids := sealer.Fingerprints()
	fmt.Fprintln(w, "Data keys (by id; the first seals, all open):")
	for i, id := range ids {
		role := "opens"
		if i == 0 {
			role = "seals"
		}
		fmt.Fprintf(w, "  %s  %s\n", id, role)
	}
	if status.Rotating != "" {
		fmt.Fprintf(w, "A rotation to key %s stopped midway: run portal keys rotate to finish it.\n", status.Rotating)
	}
	if len(status.Columns) == 0 {
		fmt.Fprintln(w, "No sealed values.")
		return
	}
	fmt.Fprintln(w, "Sealed values by column and key:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	others, unknown := 0, 0
	for _, c := range status.Columns {
		note := ""
		switch {
		case c.Key == ids[0]:
		case sealer.Holds(c.Key):
			others += c.Count
		case strings.HasPrefix(c.Key, "format-"):
			others += c.Count
			note = "  (before key ids: opens with a key of the ring)"
		default:
			unknown += c.Count
			note = "  (no key of the ring)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d%s\n", c.Column, c.Key, c.Count, note)
	}
	tw.Flush()
	switch {
	case others+unknown == 0:
		fmt.Fprintf(w, "Every sealed value is under the sealing key %s.\n", ids[0])
	default:
		fmt.Fprintf(w, "%d values are under another key than the sealing key %s: portal keys rotate reseals them.\n", others+unknown, ids[0])
	}
}

func runKeysRotate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, st, dataKey := keysFlags("keys rotate", keysRotateSummary, stderr)
	if err := f.parse(args); err != nil {
		return err
	}
	sealer, err := keyRing(st, *dataKey)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	if *dataKey == "" {
		// A rotation that stopped midway is finished with the key it
		// began with, not with yet another one.
		db, err := openStoreWith(ctx, st, store.Config{Sealer: sealer, Logger: logger})
		if err != nil {
			return err
		}
		status, err := db.KeyStatus(ctx)
		db.Close()
		if err != nil {
			return err
		}
		if status.Rotating == "" || status.Rotating != sealer.Fingerprint() {
			id, err := seal.AddKeyFile(st.DataDir)
			if err != nil {
				return err
			}
			if sealer, err = seal.Load("", st.DataDir); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Added the data key %s first in %s: it seals from now on; the keys after it still open.\n",
				id, filepath.Join(st.DataDir, seal.KeyFileName))
		}
	}
	db, err := openStoreWith(ctx, st, store.Config{Sealer: sealer, Logger: logger})
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(stdout, "Resealing under the data key %s...\n", sealer.Fingerprint())
	rep, err := db.RotateKeys(ctx, store.RotateOptions{Settle: rotationSettle})
	if errors.Is(err, context.Canceled) {
		return errors.New("portal keys rotate: stopped; run it again to resume where it stopped")
	} else if err != nil {
		return err
	}
	if rep.Resumed {
		fmt.Fprintf(stdout, "Resumed the rotation to %s that had stopped midway.\n", rep.Key)
	}
	if rep.Total() == 0 {
		fmt.Fprintf(stdout, "Nothing left to reseal: every value is under the data key %s.\n", rep.Key)
	} else {
		fmt.Fprintf(stdout, "Resealed %d values under the data key %s: %s.\n", rep.Total(), rep.Key, countList(rep.Resealed))
	}
	if len(rep.Unopened) > 0 {
		fmt.Fprintf(stdout, "Left as they are, opening with no key: %s (each is logged; they were altered or sealed with a key the ring lacks).\n", countList(rep.Unopened))
	}
	if len(rep.Left) > 0 {
		return fmt.Errorf("portal keys rotate: values are still under another key: %s; is every instance sealing with %s? Run portal keys rotate again", countList(rep.Left), rep.Key)
	}
	if old := sealer.Fingerprints()[1:]; len(old) > 0 {
		fmt.Fprintf(stdout, "The old keys (%s) open nothing in the database now. Keep them with the backups made before, then drop them (see docs/operations.md, Rotating the data key).\n", strings.Join(old, ", "))
	}
	return nil
}

// keyRing is the ring of the data keys given, or of data.key in the data
// folder; a rotation never generates a first key.
func keyRing(st *storage, dataKey string) (*seal.Sealer, error) {
	if dataKey == "" {
		if _, err := os.Stat(filepath.Join(st.DataDir, seal.KeyFileName)); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("portal keys: no data key: give --data-key (PORTAL_DATA_KEY) or keep %s in --data", seal.KeyFileName)
		}
	}
	return seal.Load(dataKey, st.DataDir)
}

// countList is "column n, column n" sorted by column.
func countList(counts map[string]int) string {
	var parts []string
	for c, n := range counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
