package store_test

import (
	"context"
	"slices"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestReadModelFormsAgreeWithFormList checks that the read model's forms
// page, read without field names or file names, misses exactly the
// required forms the form list says apply and are not submitted: for a
// subject a state-limited form applies to by address history, before and
// after its submission, and for one it does not apply to.
func TestReadModelFormsAgreeWithFormList(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newFormsWorld(t, db)
		ctx := context.Background()
		if _, err := db.History().SaveAddresses(ctx, w.casey.ID, []portal.Address{idahoSince2010}, false); err != nil {
			t.Fatal(err)
		}
		check := func(t *testing.T, subjectID int64) {
			t.Helper()
			forms, err := w.docs.FindPdfForms(ctx, subjectID)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{}
			for _, f := range forms {
				if f.Required && f.Submitted == nil {
					want = append(want, "Fill in and submit the "+f.Title+".")
				}
			}
			v, err := db.SubjectData().FindSubjectView(ctx, subjectID)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(v.Pages, func(p portal.ChecklistPage) bool { return p.ID == "fillable-pdf-form" })
			if len(forms) == 0 {
				if i >= 0 {
					t.Errorf("forms page %+v; want none", v.Pages[i])
				}
				return
			}
			if i < 0 {
				t.Fatalf("no forms page among %+v; want one for %d forms", v.Pages, len(forms))
			}
			if got := v.Pages[i].Missing; !slices.Equal(got, want) {
				t.Errorf("forms page misses %q; want %q", got, want)
			}
		}
		check(t, w.casey.ID)
		check(t, w.pat.ID)
		if _, err := w.docs.SubmitPdfForm(ctx, w.casey.ID, w.idaho.ID, upload("idaho-release.pdf", "application/pdf", formPDF(t, "idaho-filled"))); err != nil {
			t.Fatal(err)
		}
		check(t, w.casey.ID)
	})
}
