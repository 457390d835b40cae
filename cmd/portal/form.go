package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"applicantportal/internal/portal"
)

const formUsage = "Usage: portal form add [--company ID] [--data DIR | --database-url URL] --code CODE --title TITLE [--description TEXT] [--states US-ID,...] [--optional] FILE\n\n" + formSummary + "\n"

const formSummary = `Adds a fillable PDF form (FILE, the one argument: a PDF with AcroForm
fields) to the company's package. Applicants fill it in on /fillable-pdf-form
and send it back; the portal accepts a copy only when it has exactly the
template's field names. With --states the form is asked only of applicants
who live, work or lived in one of those states. A form is required unless
--optional: applicants cannot submit their profile without it.`

func runForm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("form", args, formUsage, stderr, "add")
	if word == "" {
		return err
	}
	f := newFlags("form add", formSummary, stderr)
	st := f.storage()
	var companyID int64
	var code, title, description, states, dataKey string
	var optional bool
	f.Int64Var(&companyID, "company", 0, "company id; may be left out when the database holds exactly one company")
	f.StringVar(&code, "code", "", "the form's code, unique in the package (idaho-release); the file name of its downloads")
	f.StringVar(&title, "title", "", "the form's title, as applicants see it")
	f.StringVar(&description, "description", "", "a sentence or two on what the form is for")
	f.StringVar(&states, "states", "", "comma-separated state codes (US-ID) the form is limited to; empty asks everyone")
	f.BoolVar(&optional, "optional", false, "applicants may submit their profile without it")
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (files are sealed with it); empty means data.key in --data")
	rest, err := f.parseWithArgs(args)
	if err != nil {
		return err
	}
	if len(rest) != 1 || strings.TrimSpace(code) == "" || strings.TrimSpace(title) == "" {
		fmt.Fprint(stderr, formUsage)
		return errors.New("portal form add: give --code, --title and exactly one file")
	}
	pdf, err := readAtMost(rest[0], portal.MaxUploadSize)
	if err != nil {
		return err
	}
	db, err := openSealedStore(ctx, st, dataKey)
	if err != nil {
		return err
	}
	defer db.Close()
	if companyID, err = oneCompany(ctx, db, companyID); err != nil {
		return err
	}
	company, err := db.FindCompanyByID(ctx, companyID)
	if err != nil {
		return err
	}
	if company.PackageID == 0 {
		return fmt.Errorf("company %d has no package", companyID)
	}
	form, err := db.Operator().Documents.AddPdfForm(ctx, portal.NewPdfForm{PackageID: company.PackageID, Code: code, Title: title,
		Description: description, States: splitList(states), Required: !optional, PDF: pdf})
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(stdout, "Added form %s (id %d, %d fields: %s) to package %d.\n", form.Code, form.ID,
		len(form.FieldNames), strings.Join(form.FieldNames, ", "), form.PackageID)
	return nil
}

// readAtMost reads a whole file of at most limit bytes.
func readAtMost(path string, limit int64) ([]byte, error) {
	file, err := os.Open(path) // #nosec G304 G703 -- the operator's own file, named on the command line
	if err != nil {
		return nil, err
	}
	defer file.Close()
	b, err := io.ReadAll(io.LimitReader(file, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return b, nil
}
