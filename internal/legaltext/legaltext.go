// Package legaltext turns an operator's legal texts (Markdown or HTML) into
// the safe HTML the portal stores and shows, replaces the text tokens with
// the applicant's values, and carries the sample texts of the demo employer.
package legaltext

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"applicantportal/internal/portal"
	"applicantportal/internal/signedpdf"
)

// policy allows the markup of legal text and nothing that runs, loads or
// styles: no script, style, iframe, object, form or img, no event handlers,
// no style or class attributes. Links are https or mailto only; each gets
// rel="noreferrer" and, when it leaves the portal, target="_blank" with
// rel="noopener" so the signing flow stays open. A target in the input is
// dropped.
var policy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(
		"h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "address",
		"ul", "ol", "li", "dl", "dt", "dd",
		"strong", "b", "em", "i", "u", "s", "del", "ins", "sub", "sup", "small", "mark", "abbr", "code", "pre",
		"span", "div", "section", "article", "header", "footer",
		"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
	)
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("th", "td")
	p.AllowAttrs("scope").Matching(regexp.MustCompile(`^(row|col|rowgroup|colgroup)$`)).OnElements("th")
	p.AllowAttrs("title").OnElements("abbr")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AddSpaceWhenStrippingTag(true)
	return p
})

// Sanitize returns legal-text HTML with everything unsafe removed (see
// policy).
func Sanitize(s string) string {
	return strings.TrimSpace(policy().Sanitize(s))
}

// markdown renders CommonMark with GFM tables and strikethrough. Raw HTML in
// the Markdown is omitted (goldmark's default), not passed through.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// RenderMarkdown converts Markdown to sanitized HTML.
func RenderMarkdown(md string) (string, error) {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(md), &buf); err != nil {
		return "", fmt.Errorf("legaltext: render markdown: %w", err)
	}
	return Sanitize(buf.String()), nil
}

// Text is a legal text loaded from a file.
type Text struct {
	Name  string // the file name without its extension, e.g. "disclosure"
	Title string // the first heading, or Name when there is none
	HTML  string // sanitized
}

// Load reads a Markdown (.md, .markdown) or HTML (.html, .htm) file and
// returns its sanitized HTML and title.
func Load(path string) (Text, error) {
	data, err := os.ReadFile(path) // #nosec G304 -- the operator's own file, named on the command line
	if err != nil {
		return Text{}, fmt.Errorf("legaltext: %w", err)
	}
	ext := strings.ToLower(filepath.Ext(path))
	t := Text{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}
	switch ext {
	case ".md", ".markdown":
		if t.HTML, err = RenderMarkdown(string(data)); err != nil {
			return Text{}, err
		}
	case ".html", ".htm":
		t.HTML = Sanitize(string(data))
	default:
		return Text{}, fmt.Errorf("legaltext: %s: not a Markdown or HTML file", path)
	}
	if t.Title = FirstHeading(t.HTML); t.Title == "" {
		t.Title = t.Name
	}
	return t, nil
}

// LoadDir loads every Markdown and HTML file of a folder, sorted by name.
func LoadDir(dir string) ([]Text, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("legaltext: %w", err)
	}
	var texts []Text
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".md", ".markdown", ".html", ".htm":
		default:
			continue
		}
		if e.IsDir() {
			continue
		}
		t, err := Load(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		texts = append(texts, t)
	}
	sort.Slice(texts, func(i, j int) bool { return texts[i].Name < texts[j].Name })
	return texts, nil
}

// FirstHeading returns the text of the first h1-h6 element, or "".
func FirstHeading(s string) string {
	z := nethtml.NewTokenizer(strings.NewReader(s))
	var in atom.Atom
	var text strings.Builder
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return ""
		case nethtml.StartTagToken:
			if in == 0 {
				switch a := z.Token().DataAtom; a {
				case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
					in = a
				}
			}
		case nethtml.TextToken:
			if in != 0 {
				text.Write(z.Text())
			}
		case nethtml.EndTagToken:
			if in != 0 && z.Token().DataAtom == in {
				return strings.Join(strings.Fields(text.String()), " ")
			}
		}
	}
}

// Tokens are the values the text tokens stand for (spec section 7, GET
// /api/v2/document/{id}).
type Tokens struct {
	SubjectName    string // the applicant's full name; FirstName LastName when empty
	FirstName      string
	LastName       string
	ClientName     string // the company's name
	AccountingCode string // the company's primary accounting code
	// EmployerName is the previous employer a per-employer DOT release
	// names; "" outside those releases.
	EmployerName string
	// Language is the text's: the words the portal adds itself (a DOT
	// release that names no single employer) are in it. "" is en-US.
	Language portal.Locale
}

// AnyDOTEmployer is what {{employerName}} reads in a DOT release that names
// no single employer (the setup wizard's); AnyDOTEmployerEsUS in a Spanish
// text.
const (
	AnyDOTEmployer     = "each of my previous employers regulated by the U.S. Department of Transportation"
	AnyDOTEmployerEsUS = "cada uno de mis empleadores anteriores regulados por el Departamento de Transporte de los EE. UU."
)

// releaseHead opens a per-employer DOT release, per language.
var releaseHead = map[portal.Locale]string{
	portal.LocaleEnUS: "Previous employer this release is for:",
	portal.LocaleEsUS: "Empleador anterior al que se refiere esta autorización:",
}

// TokensFor returns the token values for an applicant of a company. Serving
// a document and checking a signature's content hash both use it, so the
// content signed is exactly the content shown.
func TokensFor(s *portal.Subject, c *portal.Company) Tokens {
	return Tokens{FirstName: s.FirstName, LastName: s.LastName, ClientName: c.Name, AccountingCode: c.AccountingCode}
}

// Render returns a document's content as the applicant sees and signs it:
// the stored (sanitized) HTML with the tokens replaced.
func Render(content string, s *portal.Subject, c *portal.Company) string {
	return ReplaceTokens(content, TokensFor(s, c))
}

// RenderRelease returns a per-employer DOT release as the applicant sees
// and signs it: a first paragraph naming the previous employer (in the
// text's language), so the signed content names it even when the company's
// text has no {{employerName}} token, then the text with the tokens
// replaced.
func RenderRelease(content string, s *portal.Subject, c *portal.Company, employerName string, lang portal.Locale) string {
	v := TokensFor(s, c)
	v.EmployerName, v.Language = employerName, lang
	head := cmp.Or(releaseHead[lang], releaseHead[portal.LocaleEnUS])
	return "<p><strong>" + head + "</strong> " + html.EscapeString(employerName) + "</p>\n" + ReplaceTokens(content, v)
}

// Shown returns a document of the file as its applicant is shown and signs
// it (Render; for an instance naming one of the file's DOT-flagged
// employment entries, RenderRelease), and the hash a signature of it
// carries. Serving a document and signing it both call it, so the content
// signed is exactly the content read. An instance that names no such entry
// renders as the plain document: signing refuses it.
func Shown(f *portal.LegalFile, d portal.LegalDocument, instance string) (content, sha256 string) {
	if entry, ok := f.DOTEntry(instance); ok && instance != "" {
		content = RenderRelease(d.Content, f.Subject, f.Company, entry.EmployerName, d.Language)
	} else {
		v := TokensFor(f.Subject, f.Company)
		v.Language = d.Language
		content = ReplaceTokens(d.Content, v)
	}
	return content, signedpdf.ContentHash(content)
}

func (v Tokens) lookup(name string) (string, bool) {
	switch name {
	case "subjectName":
		if v.SubjectName == "" {
			return strings.TrimSpace(v.FirstName + " " + v.LastName), true
		}
		return v.SubjectName, true
	case "firstName":
		return v.FirstName, true
	case "lastName":
		return v.LastName, true
	case "clientName":
		return v.ClientName, true
	case "accountingCode":
		return v.AccountingCode, true
	case "employerName":
		if v.EmployerName == "" && v.Language == portal.LocaleEsUS {
			return AnyDOTEmployerEsUS, true
		} else if v.EmployerName == "" {
			return AnyDOTEmployer, true
		}
		return v.EmployerName, true
	}
	return "", false
}

var tokenPattern = regexp.MustCompile(`\{\{\s*([A-Za-z]+)\s*\}\}`)

// ReplaceTokens replaces {{subjectName}}, {{firstName}}, {{lastName}},
// {{clientName}}, {{accountingCode}} and {{employerName}} (spaces inside the braces allowed)
// with HTML-escaped values. Unknown tokens are left as they are.
func ReplaceTokens(s string, v Tokens) string {
	return tokenPattern.ReplaceAllStringFunc(s, func(m string) string {
		value, ok := v.lookup(tokenPattern.FindStringSubmatch(m)[1])
		if !ok {
			return m
		}
		return html.EscapeString(value)
	})
}
