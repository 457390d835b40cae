package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

const adverseUsage = `Usage: portal adverse pre   [--data DIR | --database-url URL] [--data-key KEY] --subject ID [--waiting-days N] [--note TEXT] [--based-on CODE,...]
       portal adverse final [--data DIR | --database-url URL] [--data-key KEY] --subject ID [--note TEXT]
       portal adverse show  [--data DIR | --database-url URL] [--data-key KEY] --subject ID

pre sends the pre-adverse notice: the applicant may dispute the report or
explain during the waiting period (the company's adverse_action_waiting_days,
default 5 business days; --waiting-days overrides it for this notice, from 1
to 30). The profile status becomes PRE_ADVERSE_ACTION (65).
final sends the final adverse-action notice, once the waiting period has
passed and no dispute of the applicant is still open (resolve it first).
show prints where the applicant's notices stand.
`

func runAdverse(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("adverse", args, adverseUsage, stderr, "pre", "final", "show")
	if word == "" {
		return err
	}
	f := newSubjectFlags("adverse "+word, "Sends or shows an applicant's adverse-action notices (portal adverse --help).", stderr)
	var waiting, note, basedOn string
	if word != "show" {
		f.StringVar(&note, "note", "", "the employer's word to the applicant, shown on the notice")
	}
	if word == "pre" {
		f.StringVar(&waiting, "waiting-days", "", "business days to wait (default: the company's adverse_action_waiting_days)")
		f.StringVar(&basedOn, "based-on", "", "the service codes the decision would rest on, comma-separated")
	}
	if err := f.parse(args); err != nil {
		return err
	}
	subjectID := f.subjectID
	pre := portal.PreAdverseRequest{SubjectID: subjectID, Note: note}
	if waiting != "" {
		n, err := portal.ParseAdverseWaitingDays("--waiting-days", waiting)
		if err != nil {
			return describe(err)
		}
		pre.WaitingDays = &n
	}
	for _, code := range strings.Split(basedOn, ",") {
		if code = strings.TrimSpace(code); code != "" {
			pre.BasedOn = append(pre.BasedOn, code)
		}
	}
	db, err := f.open(ctx, adverseUsage)
	if err != nil {
		return err
	}
	defer db.Close()
	ops := db.Operator().AdverseActions
	var a *portal.AdverseAction
	switch word {
	case "pre":
		a, err = ops.SendPreAdverseAction(ctx, pre)
	case "final":
		a, err = ops.SendFinalAdverseAction(ctx, portal.FinalAdverseRequest{SubjectID: subjectID, Note: note})
	default:
		a, err = ops.FindAdverseAction(ctx, 0, subjectID)
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			if _, err := db.Operator().Applicants.ApplicantDetail(ctx, 0, subjectID); err != nil {
				return describe(err)
			}
			fmt.Fprintf(stdout, "Applicant %d has no adverse action.\n", subjectID)
			return nil
		}
	}
	if err != nil {
		return describe(err)
	}
	printAdverseAction(stdout, a)
	return nil
}

func printAdverseAction(w io.Writer, a *portal.AdverseAction) {
	fmt.Fprintf(w, "Applicant %d (%s): %s adverse action\n", a.SubjectID, printableLine(a.CompanyName), a.State())
	fmt.Fprintf(w, "Pre-adverse notice sent %s, waiting %d business days, until %s (%d left)\n",
		a.SentAt.UTC().Format("2006-01-02 15:04 MST"), a.WaitingDays, a.EndsOn.Format(time.DateOnly), a.BusinessDaysLeft)
	if a.Note != "" {
		fmt.Fprintf(w, "Note: %s\n", printableLine(a.Note))
	}
	if len(a.BasedOn) > 0 {
		fmt.Fprintf(w, "Based on: %s\n", printableLine(strings.Join(a.BasedOn, ", ")))
	}
	if a.FinalAt != nil {
		fmt.Fprintf(w, "Final notice sent %s\n", a.FinalAt.UTC().Format("2006-01-02 15:04 MST"))
		if a.FinalNote != "" {
			fmt.Fprintf(w, "Final note: %s\n", printableLine(a.FinalNote))
		}
	}
}
