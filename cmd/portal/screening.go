package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// The staff move a screening after submission: each service's state
// (portal service), the order's status (portal order) and the profile's
// (portal profile), through the same OperatorScreeningService as the
// operator API, for any company (company 0).

const serviceUsage = `Usage: portal service set [--data DIR | --database-url URL] --subject ID --service CODE --state STATE [--reason CODE] [--note TEXT] [--eta-days MIN-MAX]
       portal service list [--data DIR | --database-url URL] --subject ID
       portal service reasons

` + serviceSummary + "\n"

const serviceSummary = `set sets where one service of the applicant's order stands: pending,
in-progress, waiting-applicant, waiting-third-party or complete, with an
optional reason (portal service reasons lists them; a reason implies its
state, so --state may be left out), a note for the staff (court-closed takes
the day the court reopens, YYYY-MM-DD, which the applicant reads), and an
estimate in business days overriding the company's (eta.CODE preference) and
the default. The applicant sees it at once and is told by their chosen
notification method when the service waits on them. list prints the
services of the applicant's order; reasons prints the catalogue.`

const orderUsage = `Usage: portal order set [--data DIR | --database-url URL] --subject ID --status N

` + orderSummary + "\n"

const orderSummary = `Sets the applicant's order status (and the applicant's status, the same id) to
any status of spec section 4, without the applicant's move rules: 0 New,
1 Setup Complete, 2 Finalization Complete, 3 IDV session started, 4 Complete,
5 QA, 6 MRO site selection session started, 7 Self-pay required. 4 makes the
applicant's documents and data read-only and tells them the check is complete.`

const profileUsage = `Usage: portal profile set [--data DIR | --database-url URL] --subject ID --status N|NAME

` + profileSummary + "\n"

const profileSummary = `Sets the applicant's profile status to an id or name of spec section 4
(5 or COMPLETED, 36 or QA, 65 or PRE_ADVERSE_ACTION, ...). The applicant is
shown QA as QA, COMPLETED and PRE_ADVERSE_ACTION as complete, anything else as
pending.`

// subjectFlags are the flags of the commands that act on one applicant's
// screening and tell them of it (service, order, profile, adverse): the
// database, its data key (notices read the applicant's sealed contact
// details) and the applicant.
type subjectFlags struct {
	*flags
	st        *storage
	dataKey   string
	subjectID int64
}

func newSubjectFlags(name, summary string, stderr io.Writer) *subjectFlags {
	f := &subjectFlags{flags: newFlags(name, summary, stderr)}
	f.st = f.storage()
	f.StringVar(&f.dataKey, "data-key", "", "the data key serve uses (the applicant's contact details are sealed with it); empty means data.key in --data")
	f.Int64Var(&f.subjectID, "subject", 0, "the applicant's id (portal applicants lists them)")
	return f
}

// open checks --subject and opens the database; the caller closes it.
func (f *subjectFlags) open(ctx context.Context, usage string) (*store.DB, error) {
	if f.subjectID <= 0 {
		fmt.Fprint(f.Output(), usage)
		return nil, fmt.Errorf("portal %s: give --subject", f.Name())
	}
	return openSealedStore(ctx, f.st, f.dataKey)
}

func runService(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("service", args, serviceUsage, stderr, "set", "list", "reasons")
	switch word {
	case "set":
		return runServiceSet(ctx, args, stdout, stderr)
	case "list":
		return runServiceList(ctx, args, stdout, stderr)
	case "reasons":
		return runServiceReasons(args, stdout, stderr)
	}
	return err
}

func runServiceSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newSubjectFlags("service set", serviceSummary, stderr)
	var req portal.SetServiceStateRequest
	var state, eta string
	f.StringVar(&req.Code, "service", "", "the service's code (portal service list shows them): crim, emps, ...")
	f.StringVar(&state, "state", "", "pending, in-progress, waiting-applicant, waiting-third-party or complete")
	f.StringVar(&req.Reason, "reason", "", "a reason code (portal service reasons)")
	f.StringVar(&req.Note, "note", "", "a note for the staff; court-closed: the day the court reopens, YYYY-MM-DD")
	f.StringVar(&eta, "eta-days", "", "the estimate in business days, MIN-MAX (2-6)")
	if err := f.parse(args); err != nil {
		return err
	}
	if req.Code == "" || (state == "" && req.Reason == "") {
		fmt.Fprint(stderr, serviceUsage)
		return errors.New("portal service set: give --service and --state (or a --reason, which implies one)")
	}
	req.State = portal.ServiceState(state)
	if eta != "" {
		d, err := portal.ParseETADays(eta)
		if err != nil {
			return fmt.Errorf("--eta-days: %w", describe(err))
		}
		req.ETADays = &d
	}
	db, err := f.open(ctx, serviceUsage)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := db.Operator().Screening
	req.SubjectID = f.subjectID
	p, err := svc.SetServiceState(ctx, 0, req)
	if err != nil {
		return describe(err)
	}
	line := fmt.Sprintf("Applicant %d, %s (%s): %s", f.subjectID, p.Name, p.Code, p.State)
	if p.Reason != "" {
		line += ", " + p.Reason
	}
	if est := p.Estimate(); est != nil {
		line += fmt.Sprintf("; expected between %s and %s", est.Earliest.Format(time.DateOnly), est.Latest.Format(time.DateOnly))
	}
	fmt.Fprintln(stdout, line+".")
	return nil
}

func runServiceList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newSubjectFlags("service list", serviceSummary, stderr)
	if err := f.parse(args); err != nil {
		return err
	}
	db, err := f.open(ctx, serviceUsage)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := db.Operator().Screening
	list, err := svc.ServiceStates(ctx, 0, f.subjectID)
	if err != nil {
		return describe(err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tNAME\tSTATE\tREASON\tEXPECTED\tUPDATED (UTC)\tNOTE")
	for _, p := range list {
		expected, updated := "-", "-"
		if est := p.Estimate(); est != nil {
			expected = est.Earliest.Format(time.DateOnly) + " to " + est.Latest.Format(time.DateOnly)
		}
		if !p.UpdatedAt.IsZero() {
			updated = p.UpdatedAt.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Code, printableLine(p.Name), p.State, orDash(p.Reason), expected, updated,
			printableLine(p.Note))
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func runServiceReasons(args []string, stdout, stderr io.Writer) error {
	f := newFlags("service reasons", "Prints the catalogue of reasons a service stands where it does.", stderr)
	if err := f.parse(args); err != nil {
		return err
	}
	for _, r := range portal.ServiceReasons {
		fmt.Fprintf(stdout, "%s (state %s", r.Code, r.State)
		if r.AddDays.Max > 0 {
			fmt.Fprintf(stdout, ", adds %s business days", r.AddDays)
		}
		fmt.Fprintf(stdout, ")\n  staff:     %s\n  applicant: %s\n", r.Operator, r.Applicant)
		if r.Action != nil {
			fmt.Fprintf(stdout, "  action:    %s -> %s\n", r.Action.Label, r.Action.Path)
		}
	}
	return nil
}

func runOrder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("order", args, orderUsage, stderr, "set")
	if word == "" {
		return err
	}
	f := newSubjectFlags("order set", orderSummary, stderr)
	status := f.Int("status", -1, "the order status id, 0 to 7")
	if err := f.parse(args); err != nil {
		return err
	}
	db, err := f.open(ctx, orderUsage)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := db.Operator().Screening
	id := portal.StatusID(*status)
	if err := svc.SetOrderStatus(ctx, 0, f.subjectID, id); err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Applicant %d's order: %s (%d).\n", f.subjectID, id.Text(), *status)
	return nil
}

func runProfile(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("profile", args, profileUsage, stderr, "set")
	if word == "" {
		return err
	}
	f := newSubjectFlags("profile set", profileSummary, stderr)
	status := f.String("status", "", "the profile status: an id (65) or its name (PRE_ADVERSE_ACTION)")
	if err := f.parse(args); err != nil {
		return err
	}
	id, err := strconv.Atoi(*status)
	if err != nil {
		var ok bool
		if id, ok = portal.ProfileStatusID(strings.ToUpper(strings.TrimSpace(*status))); !ok {
			return fmt.Errorf("portal profile set: unknown --status %q: say one of %s", *status, portal.ProfileStatusNames())
		}
	}
	db, err := f.open(ctx, profileUsage)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := db.Operator().Screening
	if err := svc.SetProfileStatus(ctx, 0, f.subjectID, id); err != nil {
		return describe(err)
	}
	name, _ := portal.ProfileStatusName(id)
	fmt.Fprintf(stdout, "Applicant %d's profile: %s (%d), shown to them as %s.\n", f.subjectID, name, id, portal.ProfileStatusShown(id))
	return nil
}
