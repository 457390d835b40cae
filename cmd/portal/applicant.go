package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"applicantportal/internal/portal"
)

const applicantUsage = `Usage: portal applicant list [--data DIR | --database-url URL] [--company ID] [--stalled [--days N]]
       portal applicant show [--data DIR | --database-url URL] --subject ID

list prints the applicants (as portal applicants does): id, username, status
and any hold; with --stalled, those who have not finished and made no
progress for --days (default 3): name, e-mail, status, where they stopped,
since when, and the reminders sent or stopped. show prints one applicant's
status and what they still have to do, in the order they meet it.
`

func runApplicant(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("applicant", args, applicantUsage, stderr, "list", "show")
	switch word {
	case "list":
		return runApplicants(ctx, args, stdout, stderr)
	case "show":
		return runApplicantShow(ctx, args, stdout, stderr)
	}
	return err
}

func runApplicantShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("applicant show", "Prints an applicant's status and what they still have to do.", stderr)
	st := f.storage()
	var subjectID int64
	var dataKey string
	f.Int64Var(&subjectID, "subject", 0, "the applicant's id (portal applicant list shows it)")
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (what the applicant saved is sealed with it); empty means data.key in --data")
	if err := f.parse(args); err != nil {
		return err
	}
	if subjectID <= 0 {
		fmt.Fprint(stderr, applicantUsage)
		return errors.New("portal applicant show: give --subject")
	}
	// The profile pages' completeness reads what the applicant saved,
	// which is sealed.
	db, err := openSealedStore(ctx, st, dataKey)
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := db.Operator().Applicants.ApplicantDetail(ctx, 0, subjectID)
	if err != nil {
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			return fmt.Errorf("applicant %d: %s", subjectID, portal.ErrorMessage(err))
		}
		return err
	}
	fmt.Fprintf(stdout, "Applicant %d: %s %s <%s>\n", d.ID, printableLine(d.FirstName), printableLine(d.LastName), printableLine(d.Email))
	fmt.Fprintf(stdout, "Company:     %s (%d)\n", printableLine(d.CompanyName), d.CompanyID)
	fmt.Fprintf(stdout, "Status:      %s (%d)\n", d.StatusText, int(d.StatusID))
	fmt.Fprintf(stdout, "Language:    %s (of the e-mails and texts sent to them)\n", d.Locale)
	if d.HoldReason != "" {
		fmt.Fprintf(stdout, "Held:        %s\n", portal.HoldText(d.HoldReason))
	}
	if d.DeclaredAt != nil {
		fmt.Fprintf(stdout, "Declared:    %s (true and complete, with the submission)\n", d.DeclaredAt.UTC().Format("2006-01-02 15:04 MST"))
	}
	fmt.Fprintf(stdout, "Unread chat: %d\n", d.UnreadChat)
	if len(d.Missing) == 0 {
		fmt.Fprintln(stdout, "Nothing left for the applicant to do.")
		return nil
	}
	fmt.Fprintln(stdout, "Still to do:")
	for _, m := range d.Missing {
		fmt.Fprintf(stdout, "  - %s\n", printableLine(m))
	}
	return nil
}
