package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"applicantportal/internal/portal"
)

const reportUsage = "Usage: portal report upload [--data DIR | --database-url URL] --subject ID --kind report|drug-report|ecoc-form FILE\n\n" + reportSummary + "\n"

const reportSummary = `Attaches a report PDF (FILE, the one argument) to an applicant, who can then
download it from the portal: report is the background report, drug-report the
drug test report, ecoc-form the custody and control form. It replaces an
earlier report of the kind. The file must be a PDF of at most 100 MB.`

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("report", args, reportUsage, stderr, "upload")
	if word == "" {
		return err
	}
	f := newFlags("report upload", reportSummary, stderr)
	st := f.storage()
	var subjectID int64
	var kind, dataKey string
	f.Int64Var(&subjectID, "subject", 0, "the applicant's id (portal applicants lists them)")
	f.StringVar(&kind, "kind", "", "report, drug-report or ecoc-form")
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (reports are sealed with it); empty means data.key in --data")
	rest, err := f.parseWithArgs(args)
	if err != nil {
		return err
	}
	if len(rest) != 1 || subjectID <= 0 || kind == "" {
		fmt.Fprint(stderr, reportUsage)
		return errors.New("portal report upload: give --subject, --kind and exactly one file")
	}
	file, err := os.Open(rest[0])
	if err != nil {
		return err
	}
	defer file.Close()
	db, err := openSealedStore(ctx, st, dataKey)
	if err != nil {
		return err
	}
	defer db.Close()
	stored, err := db.Operator().Documents.AttachReport(ctx, portal.AttachReportRequest{SubjectID: subjectID, Kind: portal.ReportKind(kind),
		Name: filepath.Base(rest[0]), Body: file})
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Attached %s (%d bytes, SHA-256 %s) as %s of applicant %d.\n", printableLine(stored.Name), stored.Size, stored.SHA256, kind, subjectID)
	return nil
}
