package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// ManifestName is the optional file of a legal-texts folder that says for
// whom each text applies.
const ManifestName = "documents.json"

// manifestEntry is what documents.json says about one text, keyed by its
// document type (the file name without extension). Every key is optional.
type manifestEntry struct {
	Visibility string          `json:"visibility"` // all, non_us or regional
	Regions    []portal.Region `json:"regions"`    // [{"state": "US-CA"}, {"county": 6075}]
	Title      string          `json:"title"`      // default: the text's first heading
	Code       string          `json:"code"`       // default: the document type
	Editable   *bool           `json:"editable"`   // false: shown elsewhere, never signed as a step
}

const documentsUsage = "Usage: portal documents load [--company ID] [--lang en-US|es-US] [--data DIR | --database-url URL] FOLDER\n\n" + documentsSummary

const documentsSummary = `Loads the legal texts of FOLDER (the one argument) into a company: every
.md, .markdown, .html and .htm file, sanitized (no script, no event handlers,
no external resources). The file name without extension is the document
type (disclosure.md is the disclosure; rights_sf.md the San Francisco notice;
any other name is a document type of its own). A changed text becomes a new
version; applicants who signed an older version keep their signature of it.

An optional documents.json in FOLDER says for whom each text applies:
  {"rights_sf": {"visibility": "regional", "regions": [{"county": 6075}]},
   "handbook": {"visibility": "all", "title": "Employee handbook", "editable": false}}
Without an entry, a known document type keeps the visibility of the demo
sample (California documents for US-CA, ...) and any other type is "all".

With --lang es-US the texts are the Spanish versions of the company's
documents: each file names an English document already loaded (by its
document type, or the code documents.json gives), and only its title and
text are stored, versioned apart from the English. An applicant reading
in Spanish is shown the Spanish version where there is one, else the
English; a signature keeps the language it signed. Without --lang the
texts are the English (en-US) ones.
`

func runDocuments(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("documents", args, documentsUsage, stderr, "load")
	if word == "" {
		return err
	}
	f := newFlags("documents load", documentsSummary, stderr)
	st := f.storage()
	var companyID int64
	var langTag string
	f.Int64Var(&companyID, "company", 0, "company id; may be left out when the database holds exactly one company")
	f.StringVar(&langTag, "lang", string(portal.LocaleEnUS), "the language of the texts: en-US, or es-US for the Spanish versions of documents loaded in en-US")
	rest, err := f.parseWithArgs(args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fmt.Fprint(stderr, documentsUsage)
		return errors.New("portal documents load: give exactly one folder")
	}
	lang, ok := portal.ParseLocale(langTag)
	if !ok {
		return fmt.Errorf("portal documents load: --lang %s: the language must be en-US or es-US", langTag)
	}
	dir := rest[0]
	docs, err := readLegalFolder(dir, lang)
	if err != nil {
		return err
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	if companyID, err = oneCompany(ctx, db, companyID); err != nil {
		return err
	}
	var changedEnglish []int64
	for _, d := range docs {
		d.CompanyID = companyID
		changed, err := db.SaveLegalDocument(ctx, &d)
		if err != nil {
			return fmt.Errorf("%s: %w", d.Type.DocumentType, describe(err))
		}
		what := "unchanged"
		switch {
		case changed && d.Version == 1:
			what = "created"
		case changed:
			what = "text changed, new version"
		}
		scope := describeVisibility(d.Type)
		if lang != portal.LocaleEnUS {
			scope = "the " + string(lang) + " version"
		} else if changed && d.Version > 1 {
			changedEnglish = append(changedEnglish, d.ID)
		}
		fmt.Fprintf(stdout, "%-30s version %d (%s): %q, %s\n", d.Type.DocumentType, d.Version, what, d.Title, scope)
		if legaltext.IsSample(d.Content) {
			fmt.Fprintf(stdout, "%-30s warning: still carries the sample marker; load the counsel-approved text\n", "")
		}
	}
	if err := warnStaleTranslations(ctx, db, companyID, changedEnglish, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Loaded %d legal documents (%s) into company %d.\n", len(docs), lang, companyID)
	return nil
}

// warnStaleTranslations names the translations of English texts that just
// changed: an applicant reading in that language is still shown the
// translation of the old text until it is loaded again.
func warnStaleTranslations(ctx context.Context, db *store.DB, companyID int64, changed []int64, stdout io.Writer) error {
	if len(changed) == 0 {
		return nil
	}
	for _, lang := range portal.Locales[1:] {
		docs, err := db.FindCompanyLegalDocuments(portal.WithLocale(ctx, lang), companyID)
		if err != nil {
			return err
		}
		for _, d := range docs {
			if d.Language == lang && slices.Contains(changed, d.ID) {
				fmt.Fprintf(stdout, "%-30s warning: its %s version (%d) translates the earlier text; load the new translation with --lang %s\n",
					d.Type.DocumentType, lang, d.Version, lang)
			}
		}
	}
	return nil
}

// readLegalFolder reads the texts and the manifest of a folder, in a
// language: for another than en-US, the texts are translations (see
// documentsSummary) and what documents.json says about visibility is not
// theirs to change.
func readLegalFolder(dir string, lang portal.Locale) ([]portal.LegalDocument, error) {
	texts, err := legaltext.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("%s holds no .md or .html file", dir)
	}
	manifest := map[string]manifestEntry{}
	raw, err := os.ReadFile(filepath.Join(dir, ManifestName)) // #nosec G304 G703 -- the operator's own file, named on the command line
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&manifest); err != nil {
			return nil, fmt.Errorf("%s: %w", ManifestName, err)
		}
	}
	samples := map[string]legaltext.Sample{}
	for _, s := range legaltext.Samples() {
		samples[s.DocumentType] = s
	}
	seen := map[string]bool{}
	var docs []portal.LegalDocument
	for _, t := range texts {
		if seen[t.Name] {
			return nil, fmt.Errorf("%s: two files for document type %s", dir, t.Name)
		}
		seen[t.Name] = true
		d := portal.LegalDocument{Title: t.Title, Content: t.HTML, Language: lang,
			Type: portal.LegalDocumentType{DocumentType: t.Name, Visibility: portal.VisibilityAll, Editable: true}}
		if s, ok := samples[t.Name]; ok {
			d.Type.Visibility, d.Type.Regions = s.Visibility, s.Regions
		}
		if m, ok := manifest[t.Name]; ok {
			if m.Visibility != "" {
				d.Type.Visibility, d.Type.Regions = m.Visibility, m.Regions
			} else if m.Regions != nil {
				d.Type.Regions = m.Regions
			}
			if m.Title != "" {
				d.Title = m.Title
			}
			d.Type.Code = m.Code
			if m.Editable != nil {
				d.Type.Editable = *m.Editable
			}
		}
		if d.Type.Visibility != portal.VisibilityRegional {
			d.Type.Regions = nil
		}
		if err := d.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, describe(err))
		}
		docs = append(docs, d)
	}
	var unknown []string
	for name := range manifest {
		if !seen[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("%s names %s, but %s has no such .md or .html file", ManifestName, strings.Join(unknown, ", "), dir)
	}
	return docs, nil
}

func describeVisibility(t portal.LegalDocumentType) string {
	s := "for everyone"
	switch t.Visibility {
	case portal.VisibilityNonUS:
		s = "when living or working outside the US"
	case portal.VisibilityRegional:
		var where []string
		for _, r := range t.Regions {
			if r.StateCode != "" {
				where = append(where, r.StateCode)
			}
			if r.CountyID != 0 {
				where = append(where, fmt.Sprintf("county %d", r.CountyID))
			}
		}
		s = "in " + strings.Join(where, ", ")
	}
	if !t.Editable {
		s += ", not signed"
	}
	return s
}

// oneCompany returns id, or the only company's id when id is 0.
func oneCompany(ctx context.Context, db *store.DB, id int64) (int64, error) {
	if id != 0 {
		if _, err := db.FindCompanyByID(ctx, id); portal.ErrorCode(err) == portal.ENOTFOUND {
			return 0, fmt.Errorf("company %d: %s", id, portal.ErrorMessage(err))
		} else if err != nil {
			return 0, fmt.Errorf("company %d: %w", id, err)
		}
		return id, nil
	}
	companies, err := db.FindCompanies(ctx)
	if err != nil {
		return 0, err
	}
	if len(companies) != 1 {
		return 0, fmt.Errorf("the database holds %d companies: say which with --company", len(companies))
	}
	return companies[0].ID, nil
}

func runApplicants(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("applicants", "Lists the applicants: id, username, status, and a hold (HELD: paper forms requested). "+
		"With --stalled, those who have not finished and did nothing for --days: where they stopped, since when, and their reminders.", stderr)
	st := f.storage()
	var companyID int64
	var stalled bool
	var days int
	var dataKey string
	f.Int64Var(&companyID, "company", 0, "list only this company's applicants (default: every company's)")
	f.BoolVar(&stalled, "stalled", false, "list only the stalled: applicants who have not finished and made no progress for --days")
	f.IntVar(&days, "days", 3, "with --stalled, how many days without progress make an applicant stalled")
	f.StringVar(&dataKey, "data-key", "", "with --stalled, the data key serve uses (where they stopped reads what they saved, which is sealed); empty means data.key in --data")
	if err := f.parse(args); err != nil {
		return err
	}
	if stalled {
		return listStalled(ctx, st, dataKey, companyID, days, stdout)
	}
	db, err := openStore(ctx, st)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := db.Operator().Applicants.FindApplicants(ctx, portal.ApplicantFilter{CompanyID: companyID})
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No applicants.")
		return nil
	}
	for _, a := range list {
		line := fmt.Sprintf("%6d  %-40s  %s", a.ID, printableLine(a.Username), a.StatusID.Text())
		if a.HoldReason != "" {
			line += "  HELD: " + portal.HoldText(a.HoldReason)
		}
		fmt.Fprintln(stdout, line)
	}
	return nil
}
