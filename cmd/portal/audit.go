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

list prints the audit trail, newest first: every action on an applicant's
screening after submission (service states, reports and who read them,
disputes, adverse actions), with who acted, from where and when.
`

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("audit", args, auditUsage, stderr, "list")
	if word == "" {
		return err
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

// describeActor names who acted as an operator reads it.
func describeActor(a portal.Actor) string {
	switch a.Kind {
	case portal.ActorApplicant:
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
