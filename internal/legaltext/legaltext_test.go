package legaltext_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/signedpdf"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    []string // substrings that must remain
		wantNot []string // substrings that must be gone
	}{
		{"ScriptRemovedWithItsContent", `<p>Read this</p><script>alert(1)</script>`,
			[]string{"<p>Read this</p>"}, []string{"script", "alert"}},
		{"StyleElementRemoved", `<style>p{display:none}</style><p>Text</p>`,
			[]string{"<p>Text</p>"}, []string{"style", "display"}},
		{"EventHandlerRemoved", `<p onclick="steal()">Click</p>`,
			[]string{"<p>Click</p>"}, []string{"onclick", "steal"}},
		{"StyleAttributeRemoved", `<p style="color:red" class="x">Plain</p>`,
			[]string{"<p>Plain</p>"}, []string{"style", "color", "class"}},
		{"JavascriptLinkLosesHref", `<a href="javascript:alert(1)">Go</a>`,
			[]string{"Go"}, []string{"javascript", "href"}},
		{"HTTPLinkLosesHref", `<a href="http://example.com/">Plain http</a>`,
			[]string{"Plain http"}, []string{"href"}},
		{"RelativeLinkLosesHref", `<a href="/admin">Admin</a>`,
			[]string{"Admin"}, []string{"href"}},
		{"ExternalImageRemoved", `<p>Logo<img src="https://tracker.example/x.png"></p>`,
			[]string{"Logo"}, []string{"img", "tracker"}},
		{"DataImageRemoved", `<img src="data:image/png;base64,iVBORw0KGgo=">`,
			nil, []string{"img", "data:"}},
		{"IframeRemovedWithItsContent", `<iframe src="https://evil.example">inner</iframe><p>After</p>`,
			[]string{"<p>After</p>"}, []string{"iframe", "evil", "inner"}},
		{"ObjectAndEmbedRemoved", `<object data="x.swf"><embed src="x.swf"></object><p>Ok</p>`,
			[]string{"<p>Ok</p>"}, []string{"object", "embed", "swf"}},
		{"FormControlsRemoved", `<form action="https://evil.example"><input name="ssn"><button>Send</button></form>`,
			nil, []string{"form", "input", "evil", "<button"}},
		{"TargetFromInputDropped", `<a href="mailto:help@example.com" target="_top">Mail</a>`,
			[]string{`href="mailto:help@example.com"`, `rel="noreferrer"`}, []string{"_top", "target"}},
		{"HTTPSLinkOpensSafely", `<a href="https://example.com/rights">Rights</a>`,
			[]string{`href="https://example.com/rights"`, "noreferrer", "noopener", `target="_blank"`}, nil},
		{"HarmlessMarkupKept",
			`<h2>Title</h2><p><strong>Bold</strong> <em>it</em></p><ul><li>One</li></ul><ol start="3"><li>Three</li></ol>` +
				`<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">B</td></tr></tbody></table><blockquote>Q</blockquote>`,
			[]string{"<h2>Title</h2>", "<strong>Bold</strong>", "<em>it</em>", "<ul><li>One</li></ul>", `<ol start="3">`,
				`<th scope="col">A</th>`, `<td colspan="2">B</td>`, "<blockquote>Q</blockquote>"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := legaltext.Sanitize(tc.in)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Sanitize(%q) = %q, want it to contain %q", tc.in, got, w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Sanitize(%q) = %q, want no %q", tc.in, got, w)
				}
			}
		})
	}
}

func TestRenderMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    []string
		wantNot []string
	}{
		{"HeadingsListsAndEmphasis", "# Title\n\nSome *text* and **more**.\n\n- one\n- two\n",
			[]string{"<h1>Title</h1>", "<em>text</em>", "<strong>more</strong>", "<li>one</li>"}, nil},
		{"TablesRendered", "| A | B |\n|---|---|\n| 1 | 2 |\n",
			[]string{"<table>", "<th>A</th>", "<td>2</td>"}, nil},
		{"RawHTMLNotPassedThrough", "Hello <script>alert(1)</script> <b onclick=x>bold</b>\n\n<div style=\"x\">block</div>\n",
			[]string{"Hello"}, []string{"<script", "<b", "onclick", "<div", "style"}},
		{"JavascriptLinkDefused", "[click](javascript:alert(1))",
			[]string{"click"}, []string{"javascript"}},
		{"HTTPSLinkKept", "[rights](https://www.consumerfinance.gov/learnmore/)",
			[]string{`href="https://www.consumerfinance.gov/learnmore/"`, "noopener"}, nil},
		{"ImageDropped", "![pixel](https://tracker.example/p.png)",
			nil, []string{"img", "tracker"}},
		{"TokensSurviveRendering", "Dear {{ subjectName }}, {{clientName}} asks.",
			[]string{"{{ subjectName }}", "{{clientName}}"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := legaltext.RenderMarkdown(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("RenderMarkdown = %q, want it to contain %q", got, w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("RenderMarkdown = %q, want no %q", got, w)
				}
			}
		})
	}
}

func TestRenderReleaseNamesItsEmployer(t *testing.T) {
	s := &portal.Subject{FirstName: "Jane", LastName: "Doe"}
	c := &portal.Company{Name: "Acme"}
	for _, tc := range []struct {
		name, content string
		lang          portal.Locale
		want          string
	}{
		{"WithoutTheToken", "<p>I authorize my employers.</p>", portal.LocaleEnUS, "<p><strong>Previous employer this release is for:</strong> Road &amp; Rail</p>\n<p>I authorize my employers.</p>"},
		{"WithTheToken", "<p>I authorize {{employerName}}.</p>", portal.LocaleEnUS, "<p><strong>Previous employer this release is for:</strong> Road &amp; Rail</p>\n<p>I authorize Road &amp; Rail.</p>"},
		{"InSpanish", "<p>Autorizo a {{employerName}}.</p>", portal.LocaleEsUS, "<p><strong>Empleador anterior al que se refiere esta autorización:</strong> Road &amp; Rail</p>\n<p>Autorizo a Road &amp; Rail.</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := legaltext.RenderRelease(tc.content, s, c, "Road & Rail", tc.lang); got != tc.want {
				t.Errorf("RenderRelease = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShown checks what serving and signing a document both use: the
// content as the applicant reads it and the hash of exactly those bytes.
func TestShown(t *testing.T) {
	f := &portal.LegalFile{
		Subject:    &portal.Subject{FirstName: "Jane", LastName: "Doe"},
		Company:    &portal.Company{Name: "Acme"},
		DOTEntries: []portal.DOTEntry{{ID: "e1", EmployerName: "Road & Rail"}},
	}
	d := portal.LegalDocument{Content: "<p>{{subjectName}} authorizes {{employerName}}.</p>", Language: portal.LocaleEnUS}
	es := portal.LegalDocument{Content: "<p>{{subjectName}} autoriza a {{employerName}}.</p>", Language: portal.LocaleEsUS}
	plain := "<p>Jane Doe authorizes " + legaltext.AnyDOTEmployer + ".</p>"
	for _, tc := range []struct {
		name     string
		d        portal.LegalDocument
		instance string
		want     string
	}{
		{"SetupDocumentHasTheTokensReplaced", d, "", plain},
		{"InstanceNamesItsEmployer", d, "e1", "<p><strong>Previous employer this release is for:</strong> Road &amp; Rail</p>\n<p>Jane Doe authorizes Road &amp; Rail.</p>"},
		{"UnknownInstanceRendersThePlainDocument", d, "e2", plain},
		{"SpanishSetupDocumentInSpanish", es, "", "<p>Jane Doe autoriza a " + legaltext.AnyDOTEmployerEsUS + ".</p>"},
		{"SpanishInstanceNamesItsEmployerInSpanish", es, "e1", "<p><strong>Empleador anterior al que se refiere esta autorización:</strong> Road &amp; Rail</p>\n<p>Jane Doe autoriza a Road &amp; Rail.</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			content, hash := legaltext.Shown(f, tc.d, tc.instance)
			if content != tc.want {
				t.Errorf("content = %q, want %q", content, tc.want)
			}
			if want := signedpdf.ContentHash(tc.want); hash != want {
				t.Errorf("hash = %s, want %s (the SHA-256 of the content)", hash, want)
			}
		})
	}
}

func TestReplaceTokens(t *testing.T) {
	v := legaltext.Tokens{
		SubjectName: "Jane Q. Doe", FirstName: "Jane", LastName: "Doe",
		ClientName: "Acme & Sons <Demo>", AccountingCode: "ACC-42",
	}
	for _, tc := range []struct {
		name string
		in   string
		v    legaltext.Tokens
		want string
	}{
		{"EveryTokenReplaced", "{{subjectName}}|{{firstName}}|{{lastName}}|{{accountingCode}}", v, "Jane Q. Doe|Jane|Doe|ACC-42"},
		{"ValuesHTMLEscaped", "<p>{{clientName}}</p>", v, "<p>Acme &amp; Sons &lt;Demo&gt;</p>"},
		{"SpacedSyntaxAccepted", "{{ firstName }} {{  lastName}}", v, "Jane Doe"},
		{"UnknownTokenLeftAsIs", "{{ssn}} and {{ unknown }}", v, "{{ssn}} and {{ unknown }}"},
		{"RepeatedTokensAllReplaced", "{{firstName}}, {{firstName}}", v, "Jane, Jane"},
		{"SubjectNameFallsBackToFirstAndLast", "{{subjectName}}", legaltext.Tokens{FirstName: "Jane", LastName: "Doe"}, "Jane Doe"},
		{"ScriptInValueEscaped", "{{firstName}}", legaltext.Tokens{FirstName: `<script>x</script>`}, "&lt;script&gt;x&lt;/script&gt;"},
		{"EmployerNameOfARelease", "I authorize {{employerName}}.", legaltext.Tokens{EmployerName: "Road & Rail"}, "I authorize Road &amp; Rail."},
		{"EmployerNameOfNoSingleEmployer", "I authorize {{employerName}}.", v, "I authorize " + legaltext.AnyDOTEmployer + "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := legaltext.ReplaceTokens(tc.in, tc.v); got != tc.want {
				t.Errorf("ReplaceTokens(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("MarkdownRenderedWithHeadingAsTitle", func(t *testing.T) {
		got, err := legaltext.Load(write("disclosure.md", "Intro\n\n## Our *Disclosure*\n\nText <script>x()</script>\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "disclosure" || got.Title != "Our Disclosure" || !strings.Contains(got.HTML, "<h2>Our <em>Disclosure</em></h2>") || strings.Contains(got.HTML, "script") {
			t.Errorf("Load = %+v", got)
		}
	})
	t.Run("HTMLSanitized", func(t *testing.T) {
		got, err := legaltext.Load(write("rights_nj.html", `<h1 onclick="x()">NJ Rights</h1><p>Body</p><img src="https://x.example/a.png">`))
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != "NJ Rights" || got.HTML != "<h1>NJ Rights</h1><p>Body</p>" {
			t.Errorf("Load = %+v", got)
		}
	})
	t.Run("FileNameTitleWithoutHeading", func(t *testing.T) {
		got, err := legaltext.Load(write("idaho_release.md", "Just text.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != "idaho_release" {
			t.Errorf("Title = %q, want the file name", got.Title)
		}
	})
	t.Run("OtherFileTypeRejected", func(t *testing.T) {
		if _, err := legaltext.Load(write("notes.txt", "x")); err == nil {
			t.Error("Load(notes.txt) did not fail")
		}
	})
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"e_sign.md":       "# E-Sign\n",
		"disclosure.html": "<h1>Disclosure</h1>",
		"README.txt":      "ignored",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	texts, err := legaltext.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range texts {
		names = append(names, x.Name+":"+x.Title)
	}
	if got := strings.Join(names, ","); got != "disclosure:Disclosure,e_sign:E-Sign" {
		t.Errorf("LoadDir = %s", got)
	}
}

func TestSamples(t *testing.T) {
	for _, lang := range portal.Locales {
		t.Run(string(lang), func(t *testing.T) { testSamples(t, lang) })
	}
}

// TestSpanishSamplesTranslateTheEnglish: every Spanish sample has the
// English one's document type, visibility, text tokens and links, and a
// title of its own.
func TestSpanishSamplesTranslateTheEnglish(t *testing.T) {
	en, es := legaltext.Samples(), legaltext.SamplesIn(portal.LocaleEsUS)
	if len(en) != len(es) {
		t.Fatalf("%d Spanish samples, %d English", len(es), len(en))
	}
	tokens := regexp.MustCompile(`\{\{\s*[A-Za-z]+\s*\}\}|\]\([^)]*\)`)
	for i := range en {
		t.Run(en[i].DocumentType, func(t *testing.T) {
			if es[i].DocumentType != en[i].DocumentType || es[i].Visibility != en[i].Visibility || !reflect.DeepEqual(es[i].Regions, en[i].Regions) {
				t.Errorf("Spanish %+v, English %+v", es[i], en[i])
			}
			if es[i].Language != portal.LocaleEsUS || en[i].Language != portal.LocaleEnUS {
				t.Errorf("languages %q and %q", es[i].Language, en[i].Language)
			}
			if es[i].Title == en[i].Title {
				t.Errorf("title %q is not translated", es[i].Title)
			}
			if got, want := unique(tokens.FindAllString(es[i].Markdown, -1)), unique(tokens.FindAllString(en[i].Markdown, -1)); !reflect.DeepEqual(got, want) {
				t.Errorf("tokens and links %v, English has %v", got, want)
			}
		})
	}
}

func unique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func testSamples(t *testing.T, lang portal.Locale) {
	samples := legaltext.SamplesIn(lang)
	marker := map[portal.Locale]string{portal.LocaleEnUS: legaltext.SampleMarker, portal.LocaleEsUS: legaltext.SampleMarkerEsUS}[lang]
	seen := map[string]bool{}
	for _, s := range samples {
		seen[s.DocumentType] = true
		t.Run(s.DocumentType, func(t *testing.T) {
			html, err := legaltext.RenderMarkdown(s.Markdown)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(html) == "" {
				t.Fatal("renders empty")
			}
			if !strings.HasPrefix(html, "<p><strong>"+marker+"</strong></p>") || !legaltext.IsSample(html) {
				t.Errorf("does not open with the sample marker: %.120s", html)
			}
			if s.Title == "" || s.Title == s.DocumentType {
				t.Errorf("no heading title: %q", s.Title)
			}
			if got := legaltext.Sanitize(html); got != html {
				t.Errorf("rendered sample changes when sanitized again")
			}
			if s.Visibility != portal.VisibilityAll && len(s.Regions) == 0 {
				t.Errorf("visibility %q without regions", s.Visibility)
			}
			replaced := legaltext.ReplaceTokens(html, legaltext.Tokens{FirstName: "A", LastName: "B", ClientName: "C", AccountingCode: "D"})
			if strings.Contains(replaced, "{{") {
				t.Errorf("unknown token left after replacement: %s", replaced)
			}
		})
	}
	want := []string{
		portal.DocESign, portal.DocDisclosure, portal.DocInvestigative, portal.DocCaliforniaDisclosure,
		portal.DocStateDisclosures, portal.DocAuthorization, portal.DocDOTRelease,
	}
	for _, n := range portal.RightsNotices() {
		want = append(want, n.DocumentType)
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no sample for %s", w)
		}
	}
	t.Run("InvestigativeExplainsNatureAndScopeRequest", func(t *testing.T) {
		words := map[portal.Locale][]string{
			portal.LocaleEnUS: {"nature and scope", "written request", "5 days"},
			portal.LocaleEsUS: {"naturaleza y el alcance", "solicitud por escrito", "5 días"},
		}[lang]
		for _, s := range samples {
			if s.DocumentType == portal.DocInvestigative {
				for _, w := range words {
					if !strings.Contains(s.Markdown, w) {
						t.Errorf("investigative disclosure lacks %q", w)
					}
				}
			}
		}
	})
	t.Run("SanFranciscoByCountyFIPS", func(t *testing.T) {
		for _, s := range samples {
			if s.DocumentType == portal.DocRightsSF && (len(s.Regions) != 1 || s.Regions[0].CountyID != 6075) {
				t.Errorf("rights_sf regions = %+v", s.Regions)
			}
		}
	})
}

func TestSummaryOfRightsInEachLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang portal.Locale
		want string
	}{
		{portal.LocaleEnUS, "A Summary of Your Rights Under the Fair Credit Reporting Act"},
		{portal.LocaleEsUS, "Resumen de sus derechos bajo la Ley de Informes Justos de Crédito"},
		{"fr-FR", "A Summary of Your Rights Under the Fair Credit Reporting Act"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			if got := legaltext.SummaryOfRights(tc.lang); !strings.Contains(got, tc.want) || !legaltext.IsSample(got) {
				t.Errorf("SummaryOfRights = %.200s; want the sample %q", got, tc.want)
			}
		})
	}
}
