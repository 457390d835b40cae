package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

const webhookUsage = `Usage: portal webhook add [--data DIR | --database-url URL] --company ID --url URL
       portal webhook list [--data DIR | --database-url URL] [--company ID]
       portal webhook deliveries [--data DIR | --database-url URL] [--endpoint ID] [--limit N]
       portal webhook remove [--data DIR | --database-url URL] --id ID
       portal webhook retry [--data DIR | --database-url URL] --delivery ID

A company's systems receive its applicants' events (invited, setup
completed, submitted, services, reports, disputes, adverse actions) as
signed POSTs to the https endpoints registered here; serve delivers them.
add prints the signing secret as its last line, once.
deliveries lists the newest deliveries with their attempts.
remove stops deliveries to an endpoint at once (pending ones are cancelled).
retry sends a failed or cancelled delivery once more.
`

func runWebhook(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("webhook", args, webhookUsage, stderr, "add", "list", "deliveries", "remove", "retry")
	switch word {
	case "add":
		return runWebhookAdd(ctx, args, stdout, stderr)
	case "list":
		return runWebhookList(ctx, args, stdout, stderr)
	case "deliveries":
		return runWebhookDeliveries(ctx, args, stdout, stderr)
	case "remove":
		return runWebhookRemove(ctx, args, stdout, stderr)
	case "retry":
		return runWebhookRetry(ctx, args, stdout, stderr)
	}
	return err
}

func runWebhookAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("webhook add", "Registers a company's webhook endpoint and prints its signing secret as the last line, once.", stderr)
	st := f.storage()
	var companyID int64
	var rawURL, dataKey string
	var insecure bool
	f.Int64Var(&companyID, "company", 0, "the company whose events the endpoint receives (required)")
	f.StringVar(&rawURL, "url", "", "the https address that receives the events (required)")
	f.StringVar(&dataKey, "data-key", "", "the data key the secret is sealed with, as serve's --data-key")
	f.BoolVar(&insecure, "webhook-allow-insecure", false, webhookAllowInsecureUsage)
	if err := f.parse(args); err != nil {
		return err
	}
	if companyID <= 0 || rawURL == "" {
		fmt.Fprint(stderr, webhookUsage)
		return errors.New("portal webhook add: give --company and --url")
	}
	sealer, err := loadSealer(st, dataKey)
	if err != nil {
		return err
	}
	db, err := openStoreWith(ctx, st, store.Config{Sealer: sealer, WebhookAllowInsecure: insecure})
	if err != nil {
		return err
	}
	defer db.Close()
	e, secret, err := db.Operator().Webhooks.CreateWebhookEndpoint(ctx, companyID, rawURL)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Webhook endpoint %d added for company %d: %s\n", e.ID, e.CompanyID, printableLine(e.URL))
	fmt.Fprintln(stdout, "Keep the signing secret below now: it is shown this once.")
	fmt.Fprintln(stdout, secret)
	return nil
}

func runWebhookList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("webhook list", "Lists the webhook endpoints, removed ones too: id, company, state, address.", stderr)
	st := f.storage()
	var companyID int64
	f.Int64Var(&companyID, "company", 0, "only this company's endpoints (default: every company's)")
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := ops.Webhooks.FindWebhookEndpoints(ctx, companyID)
	if err != nil {
		return describe(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No webhook endpoints.")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCOMPANY\tSTATE\tADDED (UTC)\tURL")
	for _, e := range list {
		state := "active"
		if e.RemovedAt != nil {
			state = "removed " + stamp(*e.RemovedAt)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", e.ID, e.CompanyID, state, stamp(e.CreatedAt), printableLine(e.URL))
	}
	return tw.Flush()
}

func runWebhookDeliveries(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("webhook deliveries", "Lists the newest webhook deliveries: event, state, attempts and the last answer.", stderr)
	st := f.storage()
	var filter portal.WebhookDeliveryFilter
	f.Int64Var(&filter.EndpointID, "endpoint", 0, "only this endpoint's deliveries (default: every endpoint's)")
	f.IntVar(&filter.Limit, "limit", portal.DefaultWebhookDeliveryLimit, "at most this many deliveries")
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := ops.Webhooks.FindWebhookDeliveries(ctx, filter)
	if err != nil {
		return describe(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No webhook deliveries.")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tENDPOINT\tEVENT\tTYPE\tAPPLICANT\tSTATE\tATTEMPTS\tLAST STATUS\tNEXT / DONE (UTC)\tLAST ERROR")
	for _, d := range list {
		when := ""
		switch {
		case d.NextAttemptAt != nil:
			when = "next " + stamp(*d.NextAttemptAt)
		case d.DeliveredAt != nil:
			when = stamp(*d.DeliveredAt)
		}
		status := "-"
		if d.LastStatus != 0 {
			status = fmt.Sprint(d.LastStatus)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s\n", d.ID, d.EndpointID, d.EventID, d.EventType, d.SubjectID,
			d.State, len(d.Attempts), status, when, printableLine(d.LastError))
	}
	return tw.Flush()
}

func runWebhookRemove(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runWebhookOn(ctx, args, stdout, stderr, "remove", "Removes a webhook endpoint: nothing more is sent to it; its deliveries stay listed.",
		"id", "the endpoint's id (portal webhook list shows it) (required)", "Webhook endpoint", "removed",
		func(ops portal.OperatorServices, id int64) error {
			return ops.Webhooks.RemoveWebhookEndpoint(ctx, 0, id)
		})
}

func runWebhookRetry(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runWebhookOn(ctx, args, stdout, stderr, "retry", "Sends a failed or cancelled webhook delivery once more, at the next run of serve's worker.",
		"delivery", "the delivery's id (portal webhook deliveries shows it) (required)", "Webhook delivery", "is due again",
		func(ops portal.OperatorServices, id int64) error {
			return ops.Webhooks.RetryWebhookDelivery(ctx, 0, id)
		})
}

// runWebhookOn is a webhook command that acts on one endpoint or delivery
// (what) named by its id flag, and says what it did (done).
func runWebhookOn(ctx context.Context, args []string, stdout, stderr io.Writer, word, summary, flag, flagUsage, what, done string,
	act func(portal.OperatorServices, int64) error) error {
	f := newFlags("webhook "+word, summary, stderr)
	st := f.storage()
	var id int64
	f.Int64Var(&id, flag, 0, flagUsage)
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	if id <= 0 {
		fmt.Fprint(stderr, webhookUsage)
		return fmt.Errorf("portal webhook %s: give --%s", word, flag)
	}
	if err := act(ops, id); err != nil {
		return fmt.Errorf("%s %d: %w", strings.ToLower(what), id, describe(err))
	}
	fmt.Fprintf(stdout, "%s %d %s.\n", what, id, done)
	return nil
}

// stamp is how the operator commands write a time: UTC to the minute.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04Z") }

const smsUsage = `Usage: portal sms outbox [--data DIR | --database-url URL]

outbox prints the text messages to applicants, oldest first: the number,
the text, whether it was sent (with the provider's id), the failed
attempts and the last error. serve sends them through the SMS provider.
`

func runSMS(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("sms", args, smsUsage, stderr, "outbox")
	if word == "" {
		return err
	}
	f := newFlags("sms outbox", "Prints the text messages to applicants, oldest first.", stderr)
	st := f.storage()
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	texts, err := ops.Maintenance.TextOutbox(ctx)
	if err != nil {
		return err
	}
	if len(texts) == 0 {
		fmt.Fprintln(stdout, "No text messages.")
		return nil
	}
	for _, m := range texts {
		state := "queued"
		switch {
		case m.SentAt != nil:
			state = "sent " + stamp(*m.SentAt) + " (" + m.ProviderID + ")"
		case m.FailedAt != nil:
			state = "FAILED " + stamp(*m.FailedAt)
		}
		fmt.Fprintf(stdout, "#%d to %s, applicant %d, queued %s: %s, %d failed attempts", m.ID, m.To, m.SubjectID, stamp(m.CreatedAt), state, m.Attempts)
		if m.LastError != "" {
			fmt.Fprintf(stdout, ", last error: %s", printableLine(m.LastError))
		}
		fmt.Fprintf(stdout, "\n  %s\n", printableLine(m.Body))
	}
	return nil
}
