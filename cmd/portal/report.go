package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"applicantportal/internal/portal"
)

const reportUsage = "Usage: portal report upload [--data DIR | --database-url URL] --subject ID --kind report|drug-report|ecoc-form FILE\n" +
	"       portal report views [--data DIR | --database-url URL] --subject ID\n\n" + reportSummary + "\n\n" + reportViewsSummary + "\n"

const reportViewsSummary = `views lists when the applicant viewed or downloaded their reports, from
which address, newest first, and when the free copy they asked for was sent.`

const reportSummary = `Attaches a report PDF (FILE, the one argument) to an applicant, who can then
download it from the portal: report is the background report, drug-report the
drug test report, ecoc-form the custody and control form. It replaces an
earlier report of the kind. The file must be a PDF of at most 100 MB. The
applicant is told by their notification method (the free copy of the
background report, once, when they asked for it).`

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("report", args, reportUsage, stderr, "upload", "views")
	if word == "" {
		return err
	}
	if word == "views" {
		return runReportViews(ctx, args, stdout, stderr)
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
	file, err := os.Open(rest[0]) // #nosec G703 -- the operator's own file, named on the command line
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

func runReportViews(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("report views", reportViewsSummary, stderr)
	st := f.storage()
	var subjectID int64
	f.Int64Var(&subjectID, "subject", 0, "the applicant's id (portal applicants lists them)")
	if err := f.parse(args); err != nil {
		return err
	}
	if subjectID <= 0 {
		fmt.Fprint(stderr, reportUsage)
		return errors.New("portal report views: give --subject")
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := db.Operator().Reports.FindReportViews(ctx, 0, subjectID)
	if err != nil {
		return describe(err)
	}
	switch c := list.FreeCopy; {
	case c != nil:
		fmt.Fprintf(stdout, "Free copy sent %s UTC by %s.\n", c.SentAt.UTC().Format("2006-01-02 15:04:05"), strings.Join(c.Channels, " and "))
	case list.FreeCopyAsked:
		fmt.Fprintln(stdout, "Free copy asked for; not sent yet (no background report attached).")
	default:
		fmt.Fprintln(stdout, "No free copy asked for.")
	}
	if len(list.Views) == 0 {
		fmt.Fprintln(stdout, "No views or downloads recorded.")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME (UTC)\tREPORT\tHOW\tADDRESS")
	for _, v := range list.Views {
		how := map[string]string{portal.ReportInline: "viewed", portal.ReportAttachment: "downloaded"}[v.Disposition]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.At.UTC().Format("2006-01-02 15:04:05"), v.Kind, how, printableLine(v.Address))
	}
	return tw.Flush()
}
