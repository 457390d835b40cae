package demo

import (
	"context"
	"embed"
	"fmt"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// The demo package's fillable PDF forms, made by
// web/scripts/gen-demo-forms.mjs (node web/scripts/gen-demo-forms.mjs
// remakes them).
//
//go:embed forms/*.pdf
var formFiles embed.FS

// demoForms are the forms of the "Driver screening" package (contract.md
// of issue 11): the Idaho release only for applicants who live, work or
// lived in Idaho, and the MVR request for everyone.
var demoForms = []portal.NewPdfForm{
	{
		Code:  "idaho-release",
		Title: "Idaho background check release (sample)",
		Description: "Idaho agencies share criminal history records only with your written release. " +
			"You see this form because you live, work or lived in Idaho.",
		States:   []string{"US-ID"},
		Required: true,
		FileName: "idaho-release.pdf",
	},
	{
		Code:        "mvr-request",
		Title:       "Motor vehicle record request (sample)",
		Description: "Lets the screening provider request your driving record from the state that issued your license.",
		FileName:    "mvr-request.pdf",
	},
}

// addForms adds the demo forms to the package.
func addForms(ctx context.Context, db *store.DB, packageID int64) error {
	for _, f := range demoForms {
		pdf, err := formFiles.ReadFile("forms/" + f.FileName)
		if err != nil {
			return fmt.Errorf("demo: form %s: %w", f.Code, err)
		}
		f.PackageID, f.PDF = packageID, pdf
		if _, err := db.Documents().AddPdfForm(ctx, f); err != nil {
			return fmt.Errorf("demo: form %s: %w", f.Code, err)
		}
	}
	return nil
}
