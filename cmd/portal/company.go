package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

var companyUsage = `Usage: portal company list [--data DIR | --database-url URL]
       portal company show [--data DIR | --database-url URL] [--company ID]
       portal company set-pref [--data DIR | --database-url URL] [--company ID] NAME VALUE

list prints every company: id, name, whether chat is on, how many applicants.
` + companySummary + "\n"

var companySummary = `show prints a company's preferences; set-pref changes one and prints its new
value. The preferences (applicants see a change at their next page load):
  ` + portal.PrefCollectionSiteSelection + `  true or false: applicants choose their
      drug-test collection site (when the package has a drug, medi or clin service)
  ` + portal.PrefSubjectChat + `  true or false: applicants can chat with the company
  ` + portal.PrefRequireSSN + `  true or false: the SSN is required
  ` + portal.PrefSubjectPasswordLength + `  ` + fmt.Sprint(portal.MinSubjectPasswordLength) + ` to ` + fmt.Sprint(portal.MaxSubjectPasswordLength) + `: the applicants' shortest password
  ` + portal.PrefSelfPayEnabled + `  1 or 0: applicants pay a hold themselves
  ` + portal.PrefSelfPayHoldAmount + `  the hold in dollars, such as 25.00
The last two belong to the company's default package, which new invitations get.`

func runCompany(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("company", args, companyUsage, stderr, "list", "show", "set-pref")
	switch word {
	case "list":
		return runCompanyList(ctx, args, stdout, stderr)
	case "show":
		return runCompanyShow(ctx, args, stdout, stderr)
	case "set-pref":
		return runCompanySetPref(ctx, args, stdout, stderr)
	}
	return err
}

// openCompany reads a company command's flags and opens its database; the
// caller closes it. The company may be left out when there is only one.
func openCompany(ctx context.Context, name string, args []string, stderr io.Writer) (portal.OperatorServices, *store.DB, int64, []string, error) {
	f := newFlags("company "+name, companySummary, stderr)
	st := f.storage()
	var companyID int64
	f.Int64Var(&companyID, "company", 0, "company id; may be left out when the database holds exactly one company")
	rest, err := f.parseWithArgs(args)
	if err != nil {
		return portal.OperatorServices{}, nil, 0, nil, err
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return portal.OperatorServices{}, nil, 0, nil, err
	}
	id, err := oneCompany(ctx, db, companyID)
	if err != nil {
		db.Close()
		return portal.OperatorServices{}, nil, 0, nil, err
	}
	return db.Operator(), db, id, rest, nil
}

func runCompanyShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ops, db, companyID, rest, err := openCompany(ctx, "show", args, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	if len(rest) > 0 {
		fmt.Fprint(stderr, companyUsage)
		return fmt.Errorf("portal company show: unexpected argument %q", rest[0])
	}
	prefs, err := ops.Companies.CompanyPreferences(ctx, companyID)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Company %d:\n", companyID)
	for _, p := range prefs {
		fmt.Fprintf(stdout, "  %-40s %s\n", p.Name, printableLine(p.Value))
	}
	if len(prefs) < len(portal.CompanyPreferenceNames) {
		fmt.Fprintln(stdout, "  (no package: the self-pay preferences do not apply)")
	}
	return nil
}

func runCompanySetPref(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ops, db, companyID, rest, err := openCompany(ctx, "set-pref", args, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	if len(rest) != 2 {
		fmt.Fprint(stderr, companyUsage)
		return errors.New("portal company set-pref: give the preference's NAME and VALUE")
	}
	p, err := ops.Companies.SetCompanyPreference(ctx, companyID, rest[0], rest[1])
	if err != nil {
		return describe(err)
	}
	where := fmt.Sprintf("company %d", companyID)
	if p.Package {
		where = "the default package of " + where
	}
	fmt.Fprintf(stdout, "%s = %s (%s)\n", p.Name, printableLine(p.Value), where)
	return nil
}

func runCompanyList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("company list", "Lists every company: id, name, whether applicants can chat with it, how many applicants it has.", stderr)
	st := f.storage()
	ops, db, err := f.parseAndOpenOperator(ctx, args, st)
	if err != nil {
		return err
	}
	defer db.Close()
	companies, err := ops.Companies.FindCompanies(ctx)
	if err != nil {
		return err
	}
	if len(companies) == 0 {
		fmt.Fprintln(stdout, "No companies.")
		return nil
	}
	applicants, err := ops.Applicants.FindApplicants(ctx, portal.ApplicantFilter{})
	if err != nil {
		return err
	}
	count := map[int64]int{}
	for _, a := range applicants {
		count[a.CompanyID]++
	}
	for _, c := range companies {
		chat := "off"
		if c.Preferences.SubjectChat {
			chat = "on"
		}
		fmt.Fprintf(stdout, "%6d  %-30s  chat %-3s  %d applicants\n", c.ID, printableLine(c.Name), chat, count[c.ID])
	}
	return nil
}
