package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

const collectionUsage = "Usage: portal collection collected [--data DIR | --database-url URL] --subject ID\n\n" + collectionSummary + "\n"

const collectionSummary = `Records that the applicant's drug-test specimen was collected at the
collection site they chose. From then on the applicant can no longer change
the site. Recording it again keeps the first time.`

func runCollection(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("collection", args, collectionUsage, stderr, "collected")
	if word == "" {
		return err
	}
	f := newFlags("collection collected", collectionSummary, stderr)
	st := f.storage()
	var subjectID int64
	f.Int64Var(&subjectID, "subject", 0, "the applicant's id (portal applicants lists them)")
	if err := f.parse(args); err != nil {
		return err
	}
	if subjectID <= 0 {
		fmt.Fprint(stderr, collectionUsage)
		return errors.New("portal collection collected: give --subject")
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	c, err := db.Operator().Orders.MarkSpecimenCollected(ctx, subjectID)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Specimen of applicant %d collected at %s (site %d) on %s.\n", subjectID, printableLine(c.Site.Name), c.Site.ID,
		c.CollectedAt.UTC().Format("2006-01-02 15:04 MST"))
	return nil
}
