package main

import (
	"context"
	"fmt"
	"io"
	"os/user"
	"text/tabwriter"

	"applicantportal/internal/portal"
)

const auditUsage = `Usage: portal audit list [--data DIR | --database-url URL] [--subject ID] [--limit N]
       portal audit verify [--data DIR | --database-url URL]

list prints the audit trail, newest first: every security-relevant act
(sign-ins and their failures, a refresh token used twice, sign-outs,
passwords and e-mail addresses changed, legal signatures, status moves,
downloads of signed documents and reports, operators' and API keys'
actions), with who acted, from where and when.

verify walks the trail's hash chain in order and prints its length and
last hash, or names the first row where the chain breaks and exits 1.
`

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("audit", args, auditUsage, stderr, "list", "verify")
	if word == "" {
		return err
	}
	if word == "verify" {
		return runAuditVerify(ctx, args, stdout, stderr)
	}
	f := newFlags("audit list", "Prints the audit trail, newest first.", stderr)
	st := f.storage()
	var subjectID int64
	var limit int
	f.Int64Var(&subjectID, "subject", 0, "only this applicant's actions (0: everyone's)")
	f.IntVar(&limit, "limit", portal.DefaultAuditLimit, "at most this many rows")
	if err := f.parse(args); err != nil {
		return err
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: subjectID, Limit: limit})
	if err != nil {
		return describe(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No actions recorded.")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME (UTC)\tAPPLICANT\tACTOR\tADDRESS\tACTION\tDETAIL")
	for _, e := range list {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\n", e.ID, e.At.UTC().Format("2006-01-02 15:04:05"), e.SubjectID,
			printableLine(describeActor(e.Actor)), printableLine(e.Actor.Address), e.Action, printableLine(e.Detail))
	}
	return tw.Flush()
}

// runAuditVerify checks the chain; a broken chain is an error, so the
// command exits 1 (a monitoring job needs nothing more).
func runAuditVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("audit verify", "Checks the audit trail's hash chain.", stderr)
	st := f.storage()
	db, err := f.parseAndOpen(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	check, err := db.Operator().Audit.VerifyChain(ctx)
	if err != nil {
		return describe(err)
	}
	if b := check.Broken; b != nil {
		fmt.Fprintf(stdout, "Audit chain broken at row %d (place %d): %s\n", b.ID, b.Seq, b.Problem)
		fmt.Fprintf(stdout, "The %d rows before it are intact; the last of them has hash %s\n", check.Rows, check.LastHash)
		return fmt.Errorf("audit chain broken at row %d", b.ID)
	}
	fmt.Fprintf(stdout, "Audit chain intact: %d rows, last hash %s\n", check.Rows, check.LastHash)
	return nil
}

// describeActor names who acted as an operator reads it.
func describeActor(a portal.Actor) string {
	switch a.Kind {
	case portal.ActorApplicant:
		if a.ID == 0 {
			return "not signed in"
		}
		return fmt.Sprintf("applicant %d", a.ID)
	case portal.ActorAPIKey:
		return fmt.Sprintf("API key %d (%s)", a.ID, a.Name)
	case portal.ActorCommandLine:
		if a.Name != "" {
			return "command line (" + a.Name + ")"
		}
		return "command line"
	}
	return a.Kind
}

// commandLineActor is who acts through a subcommand: the operator's login
// on this machine, as far as the system knows it.
func commandLineActor() portal.Actor {
	a := portal.Actor{Kind: portal.ActorCommandLine}
	if u, err := user.Current(); err == nil {
		a.Name = u.Username
	}
	return a
}
