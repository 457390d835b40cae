package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

const disputeUsage = `Usage: portal dispute list [--data DIR | --database-url URL] [--company ID] [--state received|reinvestigating|resolved]
       portal dispute show [--data DIR | --database-url URL] --id ID
       portal dispute answer [--data DIR | --database-url URL] --id ID --message TEXT
       portal dispute resolve [--data DIR | --database-url URL] --id ID --outcome corrected|verified|deleted --message TEXT
       portal dispute file [--data DIR | --database-url URL] --id ID --file FILEID --out PATH

` + disputeSummary + "\n"

const disputeSummary = `Applicants' disputes of their report (FCRA section 611), due 30 days from
receipt, 45 when the applicant added information within the 30. list prints
one line per dispute, the soonest due first. show prints one with the
applicant's explanation, the messages and the files. answer sends the
applicant a note and moves a received dispute to reinvestigating; resolve
closes it with its outcome (verified: verified as accurate) and your
explanation. Both tell the applicant by their notification method. file
saves an attached file. Disputes are sealed: the data key is needed
(--data-key).`

func runDispute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("dispute", args, disputeUsage, stderr, "list", "show", "answer", "resolve", "file")
	if word == "" {
		return err
	}
	f := newFlags("dispute "+word, disputeSummary, stderr)
	st := f.storage()
	var dataKey, state, message, outcome, out string
	var companyID, id, fileID int64
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (disputes are sealed with it); empty means data.key in --data")
	switch word {
	case "list":
		f.Int64Var(&companyID, "company", 0, "only this company's disputes (default: every company's)")
		f.StringVar(&state, "state", "", "only disputes in this state: received, reinvestigating or resolved")
	default:
		f.Int64Var(&id, "id", 0, "the dispute's id (portal dispute list shows them)")
	}
	switch word {
	case "answer", "resolve":
		f.StringVar(&message, "message", "", "what the applicant reads (at most 5000 characters)")
	case "file":
		f.Int64Var(&fileID, "file", 0, "the file's id (portal dispute show lists them)")
		f.StringVar(&out, "out", "", "where to save the file")
	}
	if word == "resolve" {
		f.StringVar(&outcome, "outcome", "", "corrected, verified (as accurate) or deleted")
	}
	if err := f.parse(args); err != nil {
		return err
	}
	if word != "list" && id <= 0 || word == "file" && (fileID <= 0 || out == "") {
		fmt.Fprint(stderr, disputeUsage)
		return fmt.Errorf("portal dispute %s: give --id%s", word, map[string]string{"file": ", --file and --out"}[word])
	}
	db, err := openSealedStore(ctx, st, dataKey)
	if err != nil {
		return err
	}
	defer db.Close()
	ops := db.Operator().Disputes
	var d *portal.OperatorDispute
	switch word {
	case "list":
		return listDisputes(ctx, ops, portal.DisputeFilter{CompanyID: companyID, State: state}, stdout)
	case "show":
		d, err = ops.FindDispute(ctx, 0, id)
	case "answer":
		d, err = ops.AnswerDispute(ctx, 0, id, message)
	case "resolve":
		d, err = ops.ResolveDispute(ctx, 0, id, outcome, message)
	case "file":
		return saveDisputeFile(ctx, db, id, fileID, out, stdout)
	}
	if err != nil {
		return describe(err)
	}
	showDispute(d, time.Now(), stdout)
	return nil
}

func listDisputes(ctx context.Context, ops portal.OperatorDisputeService, f portal.DisputeFilter, stdout io.Writer) error {
	list, err := ops.FindDisputes(ctx, f)
	if err != nil {
		return describe(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No disputes.")
		return nil
	}
	now := time.Now()
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAPPLICANT\tNAME\tREASON\tABOUT\tSTATE\tRECEIVED (UTC)\tDUE (UTC)\tDAYS LEFT")
	for _, d := range list {
		a := d.Applicant
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", d.ID, a.ID, printableLine(strings.TrimSpace(a.FirstName+" "+a.LastName)),
			d.Reason, disputedAbout(&d.Dispute), disputeState(&d.Dispute), d.ReceivedAt.UTC().Format(time.DateOnly),
			d.DueAt.UTC().Format(time.DateOnly), d.DaysLeft(now))
	}
	return tw.Flush()
}

func disputedAbout(d *portal.Dispute) string {
	if d.ServiceCode == "" {
		return "the report"
	}
	return d.ServiceCode
}

func disputeState(d *portal.Dispute) string {
	if d.Outcome != "" {
		return d.State + ": " + d.Outcome
	}
	return d.State
}

// showDispute prints a dispute whole, as an operator reads it.
func showDispute(d *portal.OperatorDispute, now time.Time, w io.Writer) {
	a := d.Applicant
	indent := func(s string) string { return "  " + strings.ReplaceAll(printable(s), "\n", "\n  ") }
	fmt.Fprintf(w, "Dispute %d of applicant %d, %s <%s>\n", d.ID, a.ID, printable(strings.TrimSpace(a.FirstName+" "+a.LastName)), printable(a.Email))
	fmt.Fprintf(w, "Reason:    %s\nAbout:     %s\nState:     %s\n", d.Reason, disputedAbout(&d.Dispute), disputeState(&d.Dispute))
	extended := ""
	if d.Extended {
		extended = " (extended to 45 days: the applicant added information)"
	}
	fmt.Fprintf(w, "Received:  %s\nDue:       %s%s, %d days left\n", chatTime(d.ReceivedAt), chatTime(d.DueAt), extended, d.DaysLeft(now))
	fmt.Fprintf(w, "Explanation:\n%s\n", indent(d.Explanation))
	printFiles := func(files []portal.File) {
		for _, f := range files {
			fmt.Fprintf(w, "  [file %d: %s, %d bytes, %s]\n", f.ID, printable(f.Name), f.Size, f.ContentType)
		}
	}
	if len(d.Files) > 0 {
		fmt.Fprintln(w, "Evidence:")
		printFiles(d.Files)
	}
	for _, m := range d.Messages {
		fmt.Fprintf(w, "\n#%d  %s  %s\n", m.ID, chatTime(m.CreatedAt), m.Author)
		if m.Text != "" {
			fmt.Fprintln(w, indent(m.Text))
		}
		printFiles(m.Files)
	}
	if d.ResolvedAt != nil {
		fmt.Fprintf(w, "\nResolved %s: %s\n%s\n", chatTime(*d.ResolvedAt), d.Outcome, indent(d.Resolution))
	}
}

func saveDisputeFile(ctx context.Context, db *store.DB, id, fileID int64, out string, stdout io.Writer) error {
	f, rc, err := db.Operator().Disputes.OpenDisputeAttachment(ctx, 0, id, fileID)
	if err != nil {
		return describe(err)
	}
	defer rc.Close()
	dst, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the operator's own file, named on the command line
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, rc); err != nil {
		dst.Close()
		return errors.Join(err, os.Remove(out))
	}
	if err := dst.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Saved %s (%d bytes) to %s\n", printable(f.Name), f.Size, out)
	return nil
}
