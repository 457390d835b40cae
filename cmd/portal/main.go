// Command portal serves the applicant portal and holds its operator
// commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"applicantportal/internal/portal"
)

const usage = `portal: the applicant portal of a background-screening provider.

Usage: portal COMMAND [flags]

Commands:
  serve     serve the app and its API
  migrate   apply the database migrations and exit
  backup    copy the SQLite database while it runs: backup --to FILE
  restore   put back a backup (servers stopped): restore --from FILE
  keys      the data keys: keys rotate (reseal everything under a new key while serving), keys status
  invite    invite an applicant and print the invitation link
  outbox    print the e-mail outbox
  banner    set, clear or list the maintenance banner: banner set|clear|list
  documents load a company's legal texts: documents load [--company ID] [--lang es-US] FOLDER
  applicants list the applicants, their status and any hold
  applicant list the applicants, or show one's status and what is missing: applicant list|show;
            who is stalled: applicant list --stalled [--days N]
  reminders queue the reminders due now, once: reminders send (serve does it on its own)
  report    attach a report PDF to an applicant: report upload --subject ID --kind KIND FILE;
            who read it: report views --subject ID
  form      add a fillable PDF form to a company's package: form add --code CODE --title TITLE FILE
  company   list companies, show or set a company's preferences: company list|show|set-pref
  apikey    create, list or revoke operator API keys: apikey create|list|revoke
  collection record a collected drug-test specimen: collection collected --subject ID
  chat      the applicants' chat: chat list, chat show --subject ID, chat reply --subject ID --message TEXT
  webhook   employers' webhook endpoints and deliveries: webhook add|list|deliveries|remove|retry
  sms       the text messages to applicants: sms outbox
  adverse   pre-adverse and final adverse-action notices: adverse pre|final|show --subject ID
  audit     the audit trail of security-relevant acts: audit list [--subject ID] | audit verify
  service   move a service of an applicant's order: service set|list|reasons
  order     set an applicant's order status: order set --subject ID --status N
  profile   set an applicant's profile status: profile set --subject ID --status N
  dispute   applicants' disputes of their report: dispute list|show|answer|resolve|file
  sweep     delete expired throttle records, tokens, invitations, reset links and orphaned files

Run "portal COMMAND --help" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "portal:", printable(err.Error())) // errors may quote outside text
		}
		os.Exit(exitCode(err))
	}
}

func exitCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	ctx = portal.WithActor(ctx, commandLineActor())
	switch cmd {
	case "serve":
		return runServe(ctx, rest, stdout, stderr)
	case "migrate":
		return runMigrate(ctx, rest, stdout, stderr)
	case "backup":
		return runBackup(ctx, rest, stdout, stderr)
	case "restore":
		return runRestore(ctx, rest, stdout, stderr)
	case "keys":
		return runKeys(ctx, rest, stdout, stderr)
	case "invite":
		return runInvite(ctx, rest, stdout, stderr)
	case "outbox":
		return runOutbox(ctx, rest, stdout, stderr)
	case "banner":
		return runBanner(ctx, rest, stdout, stderr)
	case "documents":
		return runDocuments(ctx, rest, stdout, stderr)
	case "applicants":
		return runApplicants(ctx, rest, stdout, stderr)
	case "applicant":
		return runApplicant(ctx, rest, stdout, stderr)
	case "apikey":
		return runAPIKey(ctx, rest, stdout, stderr)
	case "sweep":
		return runSweep(ctx, rest, stdout, stderr)
	case "report":
		return runReport(ctx, rest, stdout, stderr)
	case "form":
		return runForm(ctx, rest, stdout, stderr)
	case "company":
		return runCompany(ctx, rest, stdout, stderr)
	case "collection":
		return runCollection(ctx, rest, stdout, stderr)
	case "chat":
		return runChat(ctx, rest, stdout, stderr)
	case "adverse":
		return runAdverse(ctx, rest, stdout, stderr)
	case "audit":
		return runAudit(ctx, rest, stdout, stderr)
	case "webhook":
		return runWebhook(ctx, rest, stdout, stderr)
	case "reminders":
		return runReminders(ctx, rest, stdout, stderr)
	case "sms":
		return runSMS(ctx, rest, stdout, stderr)
	case "service":
		return runService(ctx, rest, stdout, stderr)
	case "order":
		return runOrder(ctx, rest, stdout, stderr)
	case "profile":
		return runProfile(ctx, rest, stdout, stderr)
	case "dispute":
		return runDispute(ctx, rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// subcommand reads the second word of a two-word command (portal report
// upload) and answers it with the arguments after it. Asked for help, it
// prints usage and answers no word and no error; any other word prints usage
// and an error naming the words the command takes.
func subcommand(command string, args []string, usage string, stderr io.Writer, words ...string) (string, []string, error) {
	if len(args) > 0 && slices.Contains(words, args[0]) {
		return args[0], args[1:], nil
	}
	fmt.Fprint(stderr, usage)
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		return "", nil, nil
	}
	return "", nil, fmt.Errorf("portal %s: say %s", command, strings.Join(words, " or "))
}
