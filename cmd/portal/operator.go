package main

import (
	"context"
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
		"tokens, logins, invitations and reset links %d days after they ended) and prints how many of each.\n"+
		"portal serve does this every --sweep-interval; it is safe while servers run.", store.SweepRetention/(24*time.Hour)), stderr)
	st := f.storage()
	db, err := f.parseAndOpen(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := db.Sweep(ctx)
	if err != nil {
		return err
	}
	for _, c := range sweepCounts(res) {
		fmt.Fprintf(stdout, "%-16s %d\n", strings.ReplaceAll(c.name, "_", " ")+":", c.n)
	}
	return nil
}

func runInvite(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("invite", "Invites an applicant and prints the invitation link as the last line.\n"+
		"Inviting an e-mail again, before that applicant has a password, gives a new link.", stderr)
	st := f.storage()
	var n portal.NewSubject
	var baseURL string
	f.StringVar(&n.Email, "email", "", "applicant's e-mail, which becomes the username (required)")
	f.StringVar(&n.FirstName, "first-name", "", "applicant's first name (required)")
	f.StringVar(&n.LastName, "last-name", "", "applicant's last name (required)")
	f.StringVar(&n.Phone, "phone", "", "applicant's phone number")
	f.Int64Var(&n.CompanyID, "company", 0, "company id; may be left out when the database holds exactly one company")
	f.BoolVar(&n.FullProfile, "full-profile", false, "full-profile applicant: a shorter setup (the first 3 steps)")
	var work portal.Place
	f.StringVar(&work.State, "work-state", "", "state code of the place of work, e.g. US-CA; decides which regional legal documents apply")
	f.Int64Var(&work.County, "work-county", 0, "county id (FIPS code) of the place of work, e.g. 6075 for San Francisco")
	f.BoolVar(&work.NonUS, "work-non-us", false, "the place of work is outside the US")
	f.StringVar(&baseURL, "base-url", "http://127.0.0.1:8080", "public address of the portal, the start of the link")
	var ttl time.Duration
	f.DurationVar(&ttl, "invite-ttl", 14*24*time.Hour, "how long the invitation link stays valid")
	if err := f.parse(args); err != nil {
		return err
	}
	// The applicant's own changes pass the same rules, so an operator
	// cannot invite a name or an address the applicant could not save.
	fields := portal.SubjectUpdate{Email: &n.Email, FirstName: &n.FirstName, LastName: &n.LastName, Phone: &n.Phone}
	if err := fields.Validate(portal.SubjectRules{ValidPhone: phone.Valid}); err != nil {
		return describe(err)
	}
	var fe portal.FieldErrors
	if work.Validate("work", lookup.IsStateCode, &fe); len(fe) > 0 {
		return describe(fe.Err())
	}
	if ttl <= 0 {
		return fmt.Errorf("portal invite: --invite-ttl must be positive (got %s)", ttl)
	}
	db, err := openStoreWith(ctx, st, store.Config{InvitationTTL: ttl})
	if err != nil {
		return err
	}
	defer db.Close()
	if n.CompanyID == 0 {
		companies, err := db.FindCompanies(ctx)
		if err != nil {
			return err
		}
		if len(companies) != 1 {
			return fmt.Errorf("the database holds %d companies: say which with --company", len(companies))
		}
		n.CompanyID = companies[0].ID
	}
	sub, err := db.Subjects().FindSubjectByUsername(ctx, n.Email)
	switch {
	case portal.ErrorCode(err) == portal.ENOTFOUND:
		if sub, err = db.CreateSubject(ctx, n); err != nil {
			return describe(err)
		}
	case err != nil:
		return err
	case sub.HasPassword:
		return fmt.Errorf("%s already has an account with a password; they can log in or reset their password", sub.Username)
	case sub.CompanyID != n.CompanyID:
		return fmt.Errorf("%s is an applicant of another company", sub.Username)
	}
	if !work.Empty() {
		if err := db.SetEmploymentLocation(ctx, sub.ID, work); err != nil {
			return err
		}
	}
	token, err := db.Auth().CreateInvitation(ctx, sub.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Invited %s %s <%s> (subject %d).\n", sub.FirstName, sub.LastName, sub.Email, sub.ID)
	fmt.Fprintln(stdout, demo.InvitationURL(baseURL, token))
	return nil
}

// describe turns a validation error into one readable line.
func describe(err error) error {
	var pe *portal.Error
	if e, ok := err.(*portal.Error); ok {
		pe = e
	}
	if pe == nil || len(pe.Fields) == 0 {
		return err
	}
	var parts []string
	for _, f := range pe.Fields {
		parts = append(parts, f.Field+": "+f.Message)
	}
	return fmt.Errorf("%s", strings.Join(parts, "; "))
}

func runOutbox(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("outbox", "Prints the e-mail outbox, oldest first.", stderr)
	st := f.storage()
	db, err := f.parseAndOpen(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	mails, err := db.Outbox(ctx)
	if err != nil {
		return err
	}
	if len(mails) == 0 {
		fmt.Fprintln(stdout, "The outbox is empty.")
		return nil
	}
	for _, m := range mails {
		state := "queued"
		if m.SentAt != nil {
			state = "sent " + m.SentAt.Format("2006-01-02 15:04:05Z")
		}
		fmt.Fprintf(stdout, "--- #%d %s (%s)\nTo: %s\nSubject: %s\n\n%s\n", m.ID, m.CreatedAt.Format("2006-01-02 15:04:05Z"), state, m.To, m.Subject, m.Body)
	}
	return nil
}

func runBanner(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("banner", "Sets the maintenance banner every logged-in applicant sees until they dismiss it,\n"+
		"or clears it with an empty --message.", stderr)
	st := f.storage()
	var message string
	f.StringVar(&message, "message", "", "the banner text; empty clears the banner")
	db, err := f.parseAndOpen(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := db.SetBanner(ctx, strings.TrimSpace(message))
	if err != nil {
		return err
	}
	if b == nil {
		fmt.Fprintln(stdout, "Maintenance banner cleared.")
		return nil
	}
	fmt.Fprintf(stdout, "Maintenance banner %d set: %s\n", b.ID, b.Message)
	return nil
}
