package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
)

var spanishDate = regexp.MustCompile(`\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}, \d\d:\d\d:\d\d UTC`)

// loadSpanish adds the Spanish samples to the company, as `portal
// documents load --lang es-US` does; the drug policy stays English only.
func (a *legalAPI) loadSpanish() map[string]string {
	a.t.Helper()
	titles := map[string]string{}
	for _, s := range legaltext.SamplesIn(portal.LocaleEsUS) {
		html, err := legaltext.RenderMarkdown(s.Markdown)
		if err != nil {
			a.t.Fatal(err)
		}
		d := &portal.LegalDocument{CompanyID: a.company.ID, Title: s.Title, Content: html, Language: portal.LocaleEsUS,
			Type: portal.LegalDocumentType{DocumentType: s.DocumentType}}
		if _, err := a.db.SaveLegalDocument(context.Background(), d); err != nil {
			a.t.Fatal(err)
		}
		titles[s.DocumentType] = s.Title
	}
	return titles
}

// doIn sends a request in a language: the locale cookie for es-US (as the
// app's language switch sets it), Accept-Language for en-US.
func (a *legalAPI) doIn(lang portal.Locale, method, path, who string, body any) *httptest.ResponseRecorder {
	a.t.Helper()
	header := map[string]string{"Accept-Language": "en-US,en;q=0.9"}
	if lang == portal.LocaleEsUS {
		header = map[string]string{"Cookie": "locale=es-US"}
	}
	return a.doWithHeader(method, path, a.tokens[who], body, header)
}

type languageJSON struct {
	ID            int64         `json:"id"`
	Title         string        `json:"title"`
	Version       int           `json:"version"`
	Language      portal.Locale `json:"language"`
	Content       string        `json:"content"`
	ContentSHA256 string        `json:"contentSha256"`
	Type          struct {
		DocumentType string `json:"documentType"`
	} `json:"type"`
	Signature *struct {
		Language portal.Locale `json:"language"`
	} `json:"signature"`
}

func (a *legalAPI) getIn(lang portal.Locale, path, who string, out any) {
	a.t.Helper()
	w := a.doIn(lang, "GET", path, who, nil)
	if w.Code != 200 {
		a.t.Fatalf("GET %s in %s: %d %s", path, lang, w.Code, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		a.t.Fatal(err)
	}
}

func TestLegalDocumentsInTheRequestsLanguage(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		spanish := a.loadSpanish()
		english := map[string]string{}
		for _, s := range legaltext.Samples() {
			english[s.DocumentType] = s.Title
		}
		for _, tc := range []struct {
			lang   portal.Locale
			titles map[string]string
		}{{portal.LocaleEsUS, spanish}, {portal.LocaleEnUS, english}} {
			t.Run("ListIn"+string(tc.lang), func(t *testing.T) {
				var list []languageJSON
				a.getIn(tc.lang, "/api/v2/user/document", "jane", &list)
				for _, d := range list {
					want, lang := tc.titles[d.Type.DocumentType], tc.lang
					if d.Type.DocumentType == "drug_policy" {
						want, lang = "Drug-free workplace policy", portal.LocaleEnUS
					}
					if d.Title != want || d.Language != lang {
						t.Errorf("%s: %s %q; want %s %q", d.Type.DocumentType, d.Language, d.Title, lang, want)
					}
				}
			})
		}
		t.Run("DocumentInSpanish", func(t *testing.T) {
			var d languageJSON
			a.getIn(portal.LocaleEsUS, fmt.Sprintf("/api/v2/document/%d", a.docs[portal.DocDisclosure]), "jane", &d)
			if d.Language != portal.LocaleEsUS || d.Title != spanish[portal.DocDisclosure] || d.Version != 1 ||
				!strings.Contains(d.Content, "Acme &amp; Sons puede obtener un informe del consumidor") {
				t.Errorf("the disclosure in Spanish = %s %q v%d %.120s", d.Language, d.Title, d.Version, d.Content)
			}
		})
		t.Run("EnglishWhereNoSpanish", func(t *testing.T) {
			var d languageJSON
			a.getIn(portal.LocaleEsUS, fmt.Sprintf("/api/v2/document/%d", a.docs["drug_policy"]), "jane", &d)
			if d.Language != portal.LocaleEnUS || !strings.Contains(d.Content, "Drug-free workplace policy") {
				t.Errorf("the drug policy in Spanish = %s %.120s; want its English", d.Language, d.Content)
			}
		})
	})
}

func TestSignInSpanishAndItsPDF(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		spanish := a.loadSpanish()
		id := a.docs[portal.DocDisclosure]
		path := fmt.Sprintf("/api/v2/document/%d", id)
		hashIn := func(lang portal.Locale) map[string]any {
			var d languageJSON
			a.getIn(lang, path, "jane", &d)
			return map[string]any{"contentSha256": map[string]string{strconv.FormatInt(id, 10): d.ContentSHA256},
				"ackReceipt": true, "signature": pngDataURL(legalPNG(t, 300, 100, false))}
		}
		sign := fmt.Sprintf("/api/v2/user/document/%d/signature", id)
		t.Run("ErrEnglishHashOnASpanishPage", func(t *testing.T) {
			if w := a.doIn(portal.LocaleEsUS, "POST", sign, "jane", hashIn(portal.LocaleEnUS)); w.Code != 409 {
				t.Errorf("status %d, want 409: %s", w.Code, w.Body)
			}
		})
		if w := a.doIn(portal.LocaleEsUS, "POST", sign, "jane", hashIn(portal.LocaleEsUS)); w.Code != 201 {
			t.Fatalf("sign in Spanish: %d %s", w.Code, w.Body)
		}
		t.Run("SignatureSaysSpanishInEveryLanguage", func(t *testing.T) {
			for _, lang := range portal.Locales {
				var list []languageJSON
				a.getIn(lang, "/api/v2/user/document", "jane", &list)
				for _, d := range list {
					if d.ID == id && (d.Signature == nil || d.Signature.Language != portal.LocaleEsUS) {
						t.Errorf("listed in %s: signature %+v; want es-US", lang, d.Signature)
					}
				}
			}
		})
		t.Run("SignedTextInSpanishFromAnEnglishPage", func(t *testing.T) {
			var d languageJSON
			a.getIn(portal.LocaleEnUS, path+"?signed=true", "jane", &d)
			if d.Language != portal.LocaleEsUS || d.Title != spanish[portal.DocDisclosure] || !strings.Contains(d.Content, "Divulgación") {
				t.Errorf("signed text = %s %q %.80s", d.Language, d.Title, d.Content)
			}
		})
		t.Run("PDFInSpanishFromAnEnglishPage", func(t *testing.T) {
			w := a.doIn(portal.LocaleEnUS, "GET", fmt.Sprintf("/api/v2/user/document/%d", id), "jane", nil)
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if got := w.Header().Get("Content-Disposition"); got != `attachment; filename="disclosure-signed-v1-es-US.pdf"` {
				t.Errorf("Content-Disposition %s", got)
			}
			text := signedPDFText(t, w.Body.Bytes())
			for _, want := range []string{spanish[portal.DocDisclosure], "Acme & Sons puede obtener", "Recibió y leyó este documento:", "Sí",
				"Firmado por:", "Jane Doe", "Fecha de la firma:", "Versión del documento:", "Página 1 de"} {
				if !strings.Contains(text, want) {
					t.Errorf("PDF text lacks %q\n%s", want, text)
				}
			}
			if !spanishDate.MatchString(text) {
				t.Errorf("PDF text has no date like 27 de noviembre de 2026, 14:03:05 UTC\n%s", text)
			}
			if strings.Contains(text, "Signed by") {
				t.Error("the Spanish PDF says Signed by")
			}
		})
	})
}
