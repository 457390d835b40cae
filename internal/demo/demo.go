// Package demo seeds a demo employer with applicants, so a fresh `portal
// serve --demo` shows a working portal.
package demo

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
	"applicantportal/internal/store"
)

// The demo logins. The password meets the demo company's 15-character
// minimum.
const (
	InvitedEmail = "invited.applicant@example.com"
	LoginEmail   = "demo.applicant@example.com"
	LoginPass    = "Demo-Applicant-2026!" // #nosec G101 -- the demo applicant's published password (make run, README)
)

// Result is what `make run` prints.
type Result struct {
	Seeded        bool
	InvitationURL string // empty once the invited applicant has a password
	Username      string
	Password      string
}

// logo is a small SVG shown as the demo employer's logo; as a data URL it
// needs no file and passes the content security policy.
const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="40" viewBox="0 0 180 40">` +
	`<rect width="40" height="40" rx="8" fill="#197fcc"/><path d="M10 28 20 10l10 18z" fill="#ff9f00"/>` +
	`<text x="50" y="27" font-family="Arial, sans-serif" font-size="17" font-weight="700" fill="#1f2d3d">Acme Logistics</text></svg>`

// Seed creates the demo data when the database holds no company, and on
// every start gives a fresh invitation link to the invited applicant while
// that applicant has not yet created a password. It runs in one
// transaction: a seed that fails leaves nothing behind, so the next start
// finds an empty database and seeds it again. Instances starting together
// on one PostgreSQL database seed one after another, so only the first
// seeds.
func Seed(ctx context.Context, db *store.DB, baseURL string) (Result, error) {
	var res Result
	err := db.Atomically(ctx, "demo seed", func(tx *store.DB) error {
		var err error
		res, err = seedOnce(ctx, tx, baseURL)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

func seedOnce(ctx context.Context, db *store.DB, baseURL string) (Result, error) {
	res := Result{Username: LoginEmail, Password: LoginPass}
	companies, err := db.FindCompanies(ctx)
	if err != nil {
		return res, err
	}
	if len(companies) == 0 {
		if err := seed(ctx, db); err != nil {
			return res, fmt.Errorf("demo: seed: %w", err)
		}
		res.Seeded = true
	}
	invited, err := db.Subjects().FindSubjectByUsername(ctx, InvitedEmail)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		return res, nil
	} else if err != nil {
		return res, err
	}
	if !invited.HasPassword {
		token, err := db.Auth().CreateInvitation(ctx, invited.ID)
		if err != nil {
			return res, err
		}
		res.InvitationURL = InvitationURL(baseURL, token)
	}
	return res, nil
}

// InvitationURL is the link an applicant opens.
func InvitationURL(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + "/setup?token=" + token
}

func seed(ctx context.Context, db *store.DB) error {
	company := &portal.Company{
		Name:           "Acme Logistics (demo employer)",
		LogoURL:        "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(logo)),
		AccountingCode: "ACME-DEMO-001",
		Preferences: portal.CompanyPreferences{
			SubjectChat:                      true,
			SubjectPasswordLength:            15,
			RequireSSN:                       true,
			ApplicantCollectionSiteSelection: true,
		},
	}
	if err := db.CreateCompany(ctx, company); err != nil {
		return err
	}
	pkg := &portal.Package{
		CompanyID:             company.ID,
		Name:                  "Driver screening",
		SelfPayEnabled:        true,
		SelfPayInitialHoldAmt: "25.00",
		DocumentTypes:         DocumentTypes(),
	}
	for _, code := range []string{"pers", "emps", "dots", "edus", "cred", "prof", "crim", "mvrs", "ssnt", "drug", "idvs"} {
		pkg.Services = append(pkg.Services, portal.PackageService{Code: code, Fields: servicedefs.Standard(code)})
	}
	if err := db.CreatePackage(ctx, pkg); err != nil {
		return err
	}
	if err := addForms(ctx, db, pkg.ID); err != nil {
		return err
	}
	if err := LoadSamples(ctx, db, company.ID); err != nil {
		return err
	}
	invited, err := db.CreateSubject(ctx, portal.NewSubject{
		CompanyID: company.ID, Email: InvitedEmail, FirstName: "Jordan", LastName: "Rivera",
	})
	if err != nil {
		return err
	}
	withLogin, err := db.CreateSubject(ctx, portal.NewSubject{
		CompanyID: company.ID, Email: LoginEmail, FirstName: "Casey", LastName: "Morgan", Phone: "2024561111",
	})
	if err != nil {
		return err
	}
	// Both will work in San Francisco, so the California documents, the San
	// Francisco notice and the free-copy checkbox show.
	for _, id := range []int64{invited.ID, withLogin.ID} {
		if err := db.SetEmploymentLocation(ctx, id, portal.Place{State: "US-CA", County: 6075}); err != nil {
			return err
		}
	}
	if err := db.Auth().SetInitialPassword(ctx, withLogin.ID, LoginPass); err != nil {
		return err
	}
	if err := db.Personal().SavePersonalInfo(ctx, withLogin.ID, &portal.PersonalInfo{
		FirstName: "Casey", NoMiddleName: true, LastName: "Morgan", MothersMaidenName: "Ellis",
		SSN: "123456789", DOB: "1990-04-12", Gender: "X",
		DaytimeDialCode: "1", DaytimePhoneNumber: "2024561111", EveningDialCode: "1", EveningPhoneNumber: "2024561111",
		DriversLicenseNumber: "D1234567", DriversLicenseState: "US-CA", DrugZip: "94103", CDLRequired: true,
		Licenses:                  []portal.License{},
		PrimaryNotificationMethod: portal.NotificationMethod{Type: portal.NotifyByEmail, Email: LoginEmail},
	}); err != nil {
		return err
	}
	// The demo login shows the portal past setup, as an applicant sees it
	// after the wizard (every document signed, so the print pages and the
	// signed PDFs have something to show); the invited applicant shows the
	// wizard itself.
	if err := signLegalDocuments(ctx, db, withLogin.ID, "6789"); err != nil {
		return err
	}
	return db.SetSubjectStatus(ctx, withLogin.ID, portal.StatusNew, portal.StatusSetupComplete)
}
