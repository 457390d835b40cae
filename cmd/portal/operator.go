package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"applicantportal/internal/demo"
	"applicantportal/internal/lookup"
	"applicantportal/internal/phone"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

func openStore(ctx context.Context, s *storage) (*store.DB, error) {
	return openStoreWith(ctx, s, store.Config{})
}

// openStoreWith opens the database of s with the other settings of cfg.
func openStoreWith(ctx context.Context, s *storage, cfg store.Config) (*store.DB, error) {
	cfg.DataDir, cfg.DatabaseURL = s.DataDir, s.DatabaseURL
	return store.Open(ctx, cfg)
}

// parseAndOpen reads an operator command's flags and opens its database;
// the caller closes it.
func (f *flags) parseAndOpen(ctx context.Context, args []string, st *storage) (*store.DB, error) {
	if err := f.parse(args); err != nil {
		return nil, err
	}
	return openStore(ctx, st)
}

// parseAndOpenOperator is parseAndOpen for the commands that act through
// the operator services (as the operator API does); the caller closes the
// database.
func (f *flags) parseAndOpenOperator(ctx context.Context, args []string, st *storage) (portal.OperatorServices, *store.DB, error) {
	db, err := f.parseAndOpen(ctx, args, st)
	if err != nil {
		return portal.OperatorServices{}, nil, err
	}
	return db.Operator(), db, nil
}

func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("migrate", "Applies the database migrations and exits. serve applies them too.", stderr)
	st := f.storage()
	db, err := f.parseAndOpen(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(stdout, "Migrations applied (%s).\n", db.Dialect())
	return nil
}

func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("sweep", fmt.Sprintf("Deletes what can no longer matter (failed logins and reset requests past their throttle window;\n"+
		"tokens, logins, invitations and reset links %d days after they ended; uploads left unfinished, and\n"+
		"finished files nothing refers to (a crash between storing and linking), a day after they began;\n"+
		"the body of a queued e-mail whose link expired) and prints how many of each.\n"+
		"portal serve does this every --sweep-interval; it is safe while servers run.", store.SweepRetention/(24*time.Hour)), stderr)
	st := f.storage()
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := ops.Maintenance.Sweep(ctx)
	if err != nil {
		return err
	}
	for _, c := range sweepCounts(res) {
		fmt.Fprintf(stdout, "%-16s %d\n", strings.ReplaceAll(c.name, "_", " ")+":", c.n)
	}
	return nil
}

func runInvite(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("invite", "Invites an applicant, queues the invitation e-mail and prints the invitation link as the last line.\n"+
		"Inviting an e-mail again, before that applicant has a password, gives (and e-mails) a new link.", stderr)
	st := f.storage()
	var n portal.NewSubject
	var baseURL string
	f.StringVar(&n.Email, "email", "", "applicant's e-mail, which becomes the username (required)")
	f.StringVar(&n.FirstName, "first-name", "", "applicant's first name (required)")
	f.StringVar(&n.LastName, "last-name", "", "applicant's last name (required)")
	f.StringVar(&n.Phone, "phone", "", "applicant's phone number")
	f.Int64Var(&n.CompanyID, "company", 0, "company id; may be left out when the database holds exactly one company")
	f.BoolVar(&n.FullProfile, "full-profile", false, "full-profile applicant: a shorter setup (the first 3 steps)")
	var lang string
	f.StringVar(&lang, "lang", "", "language of the invitation and of the applicant's later e-mails and texts: en-US or es-US;\n"+
		"left out, a new applicant gets en-US and one invited again keeps theirs")
	var work portal.Place
	f.StringVar(&work.State, "work-state", "", "state code of the place of work, e.g. US-CA; decides which regional legal documents apply")
	f.Int64Var(&work.County, "work-county", 0, "county id (FIPS code) of the place of work, e.g. 6075 for San Francisco")
	f.BoolVar(&work.NonUS, "work-non-us", false, "the place of work is outside the US")
	f.StringVar(&baseURL, "base-url", "http://127.0.0.1:8080", "public address of the portal, the start of the link in the output and the e-mail")
	var ttl time.Duration
	f.DurationVar(&ttl, "invite-ttl", 14*24*time.Hour, "how long the invitation link stays valid")
	var dataKey string
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (the queued e-mail is sealed with it); empty means data.key in --data")
	if err := f.parse(args); err != nil {
		return err
	}
	// The service checks again; checking first answers a typo before the
	// database is opened or the company guessed.
	n.Locale = portal.Locale(lang)
	req := portal.InviteRequest{NewSubject: n, Work: work, BaseURL: baseURL}
	if err := req.Validate(portal.SubjectRules{ValidPhone: phone.Valid}, lookup.Places()); err != nil {
		return describe(err)
	}
	if ttl <= 0 {
		return fmt.Errorf("portal invite: --invite-ttl must be positive (got %s)", ttl)
	}
	sealer, err := loadSealer(st, dataKey)
	if err != nil {
		return err
	}
	db, err := openStoreWith(ctx, st, store.Config{InvitationTTL: ttl, Sealer: sealer})
	if err != nil {
		return err
	}
	defer db.Close()
	ops := db.Operator()
	if req.CompanyID == 0 {
		companies, err := ops.Companies.FindCompanies(ctx)
		if err != nil {
			return err
		}
		if len(companies) != 1 {
			return fmt.Errorf("the database holds %d companies: say which with --company", len(companies))
		}
		req.CompanyID = companies[0].ID
	}
	res, err := ops.Invitations.InviteApplicant(ctx, req)
	if err != nil {
		return describe(err)
	}
	sub := res.Subject
	fmt.Fprintf(stdout, "Invited %s %s <%s> (subject %d).\n", printableLine(sub.FirstName), printableLine(sub.LastName), printableLine(sub.Email), sub.ID)
	fmt.Fprintln(stdout, demo.InvitationURL(baseURL, res.Token))
	return nil
}

// describe turns an error the operator may see into one readable line:
// a validation error's fields, or another portal error's message.
func describe(err error) error {
	var pe *portal.Error
	if !errors.As(err, &pe) {
		return err
	}
	if len(pe.Fields) == 0 {
		return errors.New(pe.Message)
	}
	var parts []string
	for _, f := range pe.Fields {
		parts = append(parts, f.Field+": "+f.Message)
	}
	return fmt.Errorf("%s", strings.Join(parts, "; "))
}

func runOutbox(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("outbox", "Prints the e-mail outbox, oldest first: each mail sent, queued, or failed (given up after\n"+
		"10 attempts), with its failed attempts and the last error. Bodies are sealed, and removed once\n"+
		"the mail is delivered or the link in it has expired.", stderr)
	st := f.storage()
	var dataKey string
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (mail bodies are sealed with it); empty means data.key in --data")
	if err := f.parse(args); err != nil {
		return err
	}
	db, err := openSealedStore(ctx, st, dataKey)
	if err != nil {
		return err
	}
	defer db.Close()
	mails, err := db.Operator().Maintenance.Outbox(ctx)
	if err != nil {
		return err
	}
	if len(mails) == 0 {
		fmt.Fprintln(stdout, "The outbox is empty.")
		return nil
	}
	for _, m := range mails {
		fmt.Fprintf(stdout, "--- #%d %s (%s)\nTo: %s\nSubject: %s\n\n%s\n", m.ID, m.CreatedAt.Format("2006-01-02 15:04:05Z"), mailState(m), printableLine(m.To), printableLine(m.Subject), mailBody(m))
	}
	return nil
}

// mailBody is the body portal outbox shows, or why it has none.
func mailBody(m portal.Mail) string {
	switch {
	case !m.BodyRemoved:
		return printable(m.Body)
	case m.SentAt != nil:
		return "(body removed after delivery)"
	}
	return "(body removed: the link in it expired before delivery)"
}

// mailState is how portal outbox describes where a mail stands.
func mailState(m portal.Mail) string {
	switch {
	case m.SentAt != nil:
		return "sent " + m.SentAt.Format("2006-01-02 15:04:05Z")
	case m.Attempts >= store.MaxMailAttempts:
		return fmt.Sprintf("failed after %d attempts: %s", m.Attempts, printableLine(m.LastError))
	case m.Attempts > 0:
		return fmt.Sprintf("queued, %d failed attempts, last: %s", m.Attempts, printableLine(m.LastError))
	}
	return "queued"
}
