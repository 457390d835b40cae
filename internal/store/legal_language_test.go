package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

var (
	inEnglish = portal.WithLocale(context.Background(), portal.LocaleEnUS)
	inSpanish = portal.WithLocale(context.Background(), portal.LocaleEsUS)
)

// loadSpanishSamples adds the Spanish samples to the world's company, as
// `portal documents load --lang es-US` does.
func (w *legalWorld) loadSpanishSamples(t *testing.T) {
	t.Helper()
	for _, s := range legaltext.SamplesIn(portal.LocaleEsUS) {
		html, err := legaltext.RenderMarkdown(s.Markdown)
		if err != nil {
			t.Fatal(err)
		}
		d := &portal.LegalDocument{CompanyID: w.company.ID, Title: s.Title, Content: html, Language: portal.LocaleEsUS,
			Type: portal.LegalDocumentType{DocumentType: s.DocumentType}}
		if changed, err := w.db.SaveLegalDocument(context.Background(), d); err != nil || !changed || d.ID != w.docs[s.DocumentType] {
			t.Fatalf("load %s: changed=%v id=%d err=%v", s.DocumentType, changed, d.ID, err)
		}
	}
}

// signIn signs a step as the HTTP layer does for a request in ctx's
// language: the hashes of the content shown in that language.
func (w *legalWorld) signIn(ctx context.Context, t *testing.T, subjectID, documentID int64, req portal.SignRequest) error {
	t.Helper()
	f, err := w.db.Legal().FindLegalDocuments(ctx, subjectID)
	if err != nil {
		t.Fatal(err)
	}
	shown := func(d portal.LegalDocument) (string, string) { return legaltext.Shown(f, d, "") }
	hashes := map[string]string{}
	for _, d := range f.Documents {
		_, hashes[strconv.FormatInt(d.ID, 10)] = shown(d)
	}
	sigs, err := f.Sign(portal.Signing{DocumentID: documentID, Request: req, ContentSHA256: hashes, IP: "203.0.113.9", Shown: shown})
	if err != nil {
		return err
	}
	return w.db.Legal().SignLegalStep(ctx, subjectID, sigs)
}

func TestLegalDocumentsPerLanguage(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		w.loadSpanishSamples(t)
		english := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Employee handbook", Content: "<p>Handbook</p>",
			Type: portal.LegalDocumentType{DocumentType: "handbook", Visibility: portal.VisibilityAll}}
		if _, err := db.SaveLegalDocument(inEnglish, english); err != nil {
			t.Fatal(err)
		}
		samples := map[portal.Locale]map[string]legaltext.Sample{}
		for _, lang := range portal.Locales {
			samples[lang] = map[string]legaltext.Sample{}
			for _, s := range legaltext.SamplesIn(lang) {
				samples[lang][s.DocumentType] = s
			}
		}
		for _, lang := range portal.Locales {
			t.Run("ReadIn"+string(lang), func(t *testing.T) {
				f, err := db.Legal().FindLegalDocuments(portal.WithLocale(context.Background(), lang), w.jane.ID)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range f.Documents {
					s, ok := samples[lang][d.Type.DocumentType]
					if !ok {
						continue
					}
					if d.Language != lang || d.Title != s.Title || d.Version != 1 || !legaltext.IsSample(d.Content) {
						t.Errorf("%s = %s %q version %d; want %s %q version 1", d.Type.DocumentType, d.Language, d.Title, d.Version, lang, s.Title)
					}
					if d.Type.Visibility != s.Visibility {
						t.Errorf("%s visibility %q, want %q", d.Type.DocumentType, d.Type.Visibility, s.Visibility)
					}
				}
			})
		}
		t.Run("EnglishWhereNoSpanish", func(t *testing.T) {
			docs, err := db.FindCompanyLegalDocuments(inSpanish, w.company.ID)
			if err != nil {
				t.Fatal(err)
			}
			d := docs[len(docs)-1]
			if d.ID != english.ID || d.Language != portal.LocaleEnUS || d.Title != "Employee handbook" || d.Content != "<p>Handbook</p>" {
				t.Errorf("the handbook in Spanish = %+v; want its English", d)
			}
		})
		t.Run("SpanishVersionedApart", func(t *testing.T) {
			es := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Manual", Content: "<p>Manual</p>", Language: portal.LocaleEsUS,
				Type: portal.LegalDocumentType{DocumentType: "handbook"}}
			for i, want := range []struct {
				title, content string
				changed        bool
				version        int
			}{
				{"Manual", "<p>Manual</p>", true, 1},
				{"Manual del empleado", "<p>Manual</p>", false, 1},
				{"Manual del empleado", "<p>Manual nuevo</p>", true, 2},
			} {
				es.Title, es.Content = want.title, want.content
				changed, err := db.SaveLegalDocument(context.Background(), es)
				if err != nil || changed != want.changed || es.Version != want.version || es.ID != english.ID {
					t.Fatalf("save %d: changed=%v version=%d id=%d err=%v", i, changed, es.Version, es.ID, err)
				}
				docs, err := db.FindCompanyLegalDocuments(inSpanish, w.company.ID)
				if err != nil {
					t.Fatal(err)
				}
				if d := docs[len(docs)-1]; d.Title != want.title || d.Content != want.content || d.Version != want.version || d.Language != portal.LocaleEsUS {
					t.Errorf("save %d: read in Spanish %+v", i, d)
				}
			}
			docs, err := db.FindCompanyLegalDocuments(inEnglish, w.company.ID)
			if err != nil {
				t.Fatal(err)
			}
			if d := docs[len(docs)-1]; d.Version != 1 || d.Content != "<p>Handbook</p>" || d.Title != "Employee handbook" {
				t.Errorf("the English changed with the Spanish: %+v", d)
			}
		})
		t.Run("ErrTranslationOfNoEnglishDocument", func(t *testing.T) {
			_, err := db.SaveLegalDocument(context.Background(), &portal.LegalDocument{CompanyID: w.company.ID, Title: "Nada",
				Content: "<p>Nada</p>", Language: portal.LocaleEsUS, Type: portal.LegalDocumentType{DocumentType: "nothing", Visibility: portal.VisibilityAll}})
			wantLegalError(t, err, portal.ENOTFOUND, "load the en-US text first")
		})
		t.Run("ErrUnknownLanguage", func(t *testing.T) {
			_, err := db.SaveLegalDocument(context.Background(), &portal.LegalDocument{CompanyID: w.company.ID, Title: "Notice",
				Content: "<p>Avis</p>", Language: "fr-FR", Type: portal.LegalDocumentType{DocumentType: "handbook", Visibility: portal.VisibilityAll}})
			wantLegalError(t, err, portal.EINVALID, "")
		})
	})
}

func TestSignInSpanish(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		w.loadSpanishSamples(t)
		disclosure := w.docs[portal.DocDisclosure]
		if err := w.signIn(inSpanish, t, w.jane.ID, disclosure, fullRequest(t, w.jane)); err != nil {
			t.Fatal(err)
		}
		t.Run("RecordsTheLanguageAndTheSpanishText", func(t *testing.T) {
			for _, ctx := range []context.Context{inSpanish, inEnglish} {
				sig := w.fileIn(ctx, t, w.jane.ID).Signatures[disclosure]
				if sig == nil || sig.Language != portal.LocaleEsUS || sig.DocumentVersion != 1 {
					t.Fatalf("signature = %+v; want version 1 in es-US", sig)
				}
				if !strings.Contains(sig.Content, "Divulgación sobre la verificación de antecedentes") || !strings.Contains(sig.Content, "Acme") {
					t.Errorf("content signed is not the Spanish text shown: %.200s", sig.Content)
				}
			}
		})
		t.Run("EnglishSignatureRecordsEnglish", func(t *testing.T) {
			if err := w.signIn(inEnglish, t, w.john.ID, disclosure, fullRequest(t, w.john)); err != nil {
				t.Fatal(err)
			}
			if sig := w.fileIn(inSpanish, t, w.john.ID).Signatures[disclosure]; sig == nil || sig.Language != portal.LocaleEnUS ||
				!strings.Contains(sig.Content, "Disclosure Regarding Background Investigation") {
				t.Errorf("signature = %+v; want the English text in en-US", sig)
			}
		})
		t.Run("ErrTextReadInAnotherLanguage", func(t *testing.T) {
			// Read in Spanish, stored as a request in English: the same
			// version number, another text.
			f := w.fileIn(inSpanish, t, w.john.ID)
			shown := func(d portal.LegalDocument) (string, string) { return legaltext.Shown(f, d, "") }
			esign := w.docs[portal.DocESign]
			d, _ := f.Document(esign)
			_, hash := shown(d)
			sigs, err := f.Sign(portal.Signing{DocumentID: esign, Request: fullRequest(t, w.john),
				ContentSHA256: map[string]string{strconv.FormatInt(esign, 10): hash}, IP: "203.0.113.9", Shown: shown})
			if err != nil {
				t.Fatal(err)
			}
			wantLegalError(t, db.Legal().SignLegalStep(inEnglish, w.john.ID, sigs), portal.ECONFLICT, "changed")
		})
		t.Run("SSNCheckAndResignAcrossLanguages", func(t *testing.T) {
			// The DOT release signed in Spanish asked for the last four
			// digits; an SSN saved from an English page must end in them.
			w.signAllButAuthorizationIn(inSpanish, t, w.jane)
			p := &portal.PersonalInfo{FirstName: "Jane", NoMiddleName: true, LastName: "Doe", SSN: "123456789", ConfirmSSN: "123456789",
				DOB: "1990-04-12", ConfirmDOB: "1990-04-12", DaytimeDialCode: "1", DaytimePhoneNumber: "2024561111",
				NoDriversLicenseNumber: true, PrimaryNotificationMethod: portal.NotificationMethod{Type: portal.NotifyByEmail, Email: "jane@example.com"}}
			if err := db.Personal().UpdatePersonalInfo(inEnglish, w.jane.ID, p); !portal.IsSSNMismatch(err) {
				t.Errorf("UpdatePersonalInfo = %v; want the ssn-mismatch of the Spanish signature", err)
			}
			release := w.docs[portal.DocDOTRelease]
			if err := db.Legal().DeleteSignature(inEnglish, w.jane.ID, release); err != nil {
				t.Fatal(err)
			}
			req := fullRequest(t, w.jane)
			req.LastFourSSN = "4321"
			if err := w.signIn(inEnglish, t, w.jane.ID, release, req); err != nil {
				t.Fatal(err)
			}
			sig := w.fileIn(inSpanish, t, w.jane.ID).Signatures[release]
			if sig == nil || sig.Language != portal.LocaleEnUS || sig.Fields.LastFourSSN != "4321" {
				t.Errorf("signed again in English: %+v", sig)
			}
		})
	})
}

func (w *legalWorld) fileIn(ctx context.Context, t *testing.T, subjectID int64) *portal.LegalFile {
	t.Helper()
	f, err := w.db.Legal().FindLegalDocuments(ctx, subjectID)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (w *legalWorld) signAllButAuthorizationIn(ctx context.Context, t *testing.T, s *portal.Subject) {
	t.Helper()
	for _, step := range w.fileIn(ctx, t, s.ID).PendingSteps() {
		if step.DocumentType != portal.DocAuthorization {
			if err := w.signIn(ctx, t, s.ID, step.Documents[0].ID, fullRequest(t, s)); err != nil {
				t.Fatalf("sign %s: %v", step.DocumentType, err)
			}
		}
	}
}
