package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

const bannerUsage = `Usage: portal banner set [--data DIR | --database-url URL] --message M [--ends-at TIME | --for DURATION] [--company ID]
       portal banner clear [--data DIR | --database-url URL] [--id N] [--company ID]
       portal banner list [--data DIR | --database-url URL] [--company ID]
       portal banner [--data DIR | --database-url URL] --message M   (an empty M clears every banner)

The maintenance banner shows to logged-in applicants until each dismisses it,
until it ends (--ends-at or --for) or until it is cleared. A banner is for
everyone, or with --company for one company's applicants; a new one replaces
the banner of the same audience. Servers show a change at once.
`

func runBanner(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// Before set and clear, the command took --message alone; scripts
	// still call it so.
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		return runBannerMessage(ctx, args, stdout, stderr)
	}
	word, args, err := subcommand("banner", args, bannerUsage, stderr, "set", "clear", "list")
	switch word {
	case "set":
		return runBannerSet(ctx, args, stdout, stderr)
	case "clear":
		return runBannerClear(ctx, args, stdout, stderr)
	case "list":
		return runBannerList(ctx, args, stdout, stderr)
	}
	return err
}

func runBannerMessage(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("banner", "Sets the maintenance banner every logged-in applicant sees until they dismiss it,\n"+
		"or clears every banner with an empty --message. See also portal banner set|clear|list.", stderr)
	st := f.storage()
	var message string
	f.StringVar(&message, "message", "", "the banner text; empty clears the banner")
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := ops.Banners.SetBanner(ctx, message)
	if err != nil {
		return describe(err)
	}
	if b == nil {
		fmt.Fprintln(stdout, "Maintenance banner cleared.")
		return nil
	}
	fmt.Fprintf(stdout, "Maintenance banner %d set: %s\n", b.ID, printableLine(b.Message))
	return nil
}

func runBannerSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("banner set", "Shows a maintenance banner to logged-in applicants, replacing the banner of the same audience,\n"+
		"and prints its id and when it ends.", stderr)
	st := f.storage()
	var req portal.BannerRequest
	var endsAt string
	var lasts time.Duration
	f.StringVar(&req.Message, "message", "", fmt.Sprintf("the banner text, at most %d characters (required)", portal.MaxBannerLength))
	f.StringVar(&endsAt, "ends-at", "", "when the banner stops showing, in RFC 3339, e.g. 2026-11-24T06:00:00Z (default: until cleared)")
	f.DurationVar(&lasts, "for", 0, "how long the banner shows, e.g. 2h (instead of --ends-at)")
	f.Int64Var(&req.CompanyID, "company", 0, "show the banner to this company's applicants only (default: everyone)")
	if err := f.parse(args); err != nil {
		return err
	}
	switch {
	case endsAt != "" && lasts != 0:
		return errors.New("portal banner set: give --ends-at or --for, not both")
	case lasts < 0:
		return fmt.Errorf("portal banner set: --for must be positive (got %s)", lasts)
	case lasts > 0:
		t := time.Now().Add(lasts)
		req.EndsAt = &t
	case endsAt != "":
		t, err := time.Parse(time.RFC3339, endsAt)
		if err != nil {
			return fmt.Errorf("portal banner set: --ends-at %q is not an RFC 3339 time such as 2026-11-24T06:00:00Z", endsAt)
		}
		req.EndsAt = &t
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := db.Operator().Banners.PostBanner(ctx, req)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Maintenance banner %d set for %s, %s: %s\n", b.ID, bannerAudience(b.CompanyID), bannerEnd(b.EndsAt), printableLine(b.Message))
	return nil
}

func bannerAudience(companyID int64) string {
	if companyID == 0 {
		return "everyone"
	}
	return fmt.Sprintf("company %d", companyID)
}

func bannerEnd(t *time.Time) string {
	if t == nil {
		return "until cleared"
	}
	return "until " + t.UTC().Format(time.RFC3339)
}

func runBannerClear(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("banner clear", "Ends a maintenance banner now: the one --id names, or every banner of --company's\n"+
		"applicants, or without either every banner.", stderr)
	st := f.storage()
	var id, companyID int64
	f.Int64Var(&id, "id", 0, "the banner's id (portal banner list shows it)")
	f.Int64Var(&companyID, "company", 0, "the company whose banners end (with --id: the banner must be this company's)")
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := ops.Banners.ClearBanner(ctx, companyID, id); err != nil {
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			return fmt.Errorf("banner %d: %s", id, portal.ErrorMessage(err))
		}
		return err
	}
	switch {
	case id != 0:
		fmt.Fprintf(stdout, "Maintenance banner %d cleared.\n", id)
	case companyID != 0:
		fmt.Fprintf(stdout, "Maintenance banners of company %d cleared.\n", companyID)
	default:
		fmt.Fprintln(stdout, "Every maintenance banner cleared.")
	}
	return nil
}

func runBannerList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("banner list", "Lists the maintenance banners still showing, newest first: id, audience, end, message.", stderr)
	st := f.storage()
	var companyID int64
	f.Int64Var(&companyID, "company", 0, "only this company's banners (default: every banner)")
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := ops.Banners.FindBanners(ctx, companyID)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No maintenance banner is showing.")
		return nil
	}
	for _, b := range list {
		fmt.Fprintf(stdout, "%6d  %-12s  %-30s  %s\n", b.ID, bannerAudience(b.CompanyID), bannerEnd(b.EndsAt), printableLine(b.Message))
	}
	return nil
}
