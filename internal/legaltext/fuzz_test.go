package legaltext_test

import (
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
)

// legalSeeds are the sanitizer's hostile and harmless inputs.
var legalSeeds = []string{
	`<p>Read this</p><script>alert(1)</script>`,
	`<p onclick="steal()">Click</p><p style="color:red" class="x">Plain</p>`,
	`<a href="javascript:alert(1)">Go</a><a href="jav&#x09;ascript:alert(1)">Go</a>`,
	`<a href="https://example.com/rights" target="_top">Rights</a><a href="mailto:help@example.com">Mail</a>`,
	`<iframe src="https://evil.example">inner</iframe><svg onload=alert(1)><img src=x onerror=alert(1)>`,
	`<h2>Title</h2><ol start="3"><li>Three</li></ol><table><tr><th scope="col">A</th><td colspan="2">B</td></tr></table>`,
	`<abbr title="x&quot; onmouseover=&quot;alert(1)">FCRA</abbr> {{ firstName }} {{subjectName}}`,
	`<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &#0; &#x1F600;</p>`,
	"<p>a\x00b</p><!-- <script> --><![CDATA[<script>]]>",
	"# Title\n\n[link](javascript:alert(1)) <script>x</script>\n\n| a | b |\n|---|---|\n| ~~c~~ | d |",
}

// checkSafe fails when html holds anything that runs: a script, style,
// iframe, object, embed or form element, an event-handler attribute, a
// link whose scheme is not https or mailto, or a style attribute.
func checkSafe(t *testing.T, what, in, html string) {
	t.Helper()
	if strings.Contains(strings.ToLower(html), "<script") {
		t.Fatalf("%s(%q) = %q holds a script tag", what, in, html)
	}
	z := nethtml.NewTokenizer(strings.NewReader(html))
	for {
		tt := z.Next()
		if tt == nethtml.ErrorToken {
			return
		}
		if tt != nethtml.StartTagToken && tt != nethtml.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		switch tok.Data {
		case "script", "style", "iframe", "object", "embed", "form", "input", "img", "svg", "math", "link", "meta", "base":
			t.Fatalf("%s(%q) = %q holds a <%s>", what, in, html, tok.Data)
		}
		for _, a := range tok.Attr {
			key := strings.ToLower(a.Key)
			value := strings.ToLower(strings.TrimSpace(a.Val))
			switch {
			case strings.HasPrefix(key, "on"), key == "style", key == "src", key == "srcdoc", key == "formaction":
				t.Fatalf("%s(%q) = %q holds the attribute %s", what, in, html, a.Key)
			case key == "href" && !strings.HasPrefix(value, "https:") && !strings.HasPrefix(value, "mailto:"):
				t.Fatalf("%s(%q) = %q holds the link %q", what, in, html, a.Val)
			}
		}
	}
}

// FuzzSanitize: the sanitizer's output holds nothing that runs, and
// sanitizing it again leaves it unchanged (what is stored is what a second
// save, or a re-import, would store). Tokens replaced with any values in
// the stored text (what the applicant is shown and signs) keep it safe.
func FuzzSanitize(f *testing.F) {
	for _, s := range legalSeeds {
		f.Add(s, `"><script>alert(1)</script>`)
	}
	f.Add("", "")
	f.Fuzz(func(t *testing.T, in, value string) {
		out := legaltext.Sanitize(in)
		checkSafe(t, "Sanitize", in, out)
		if again := legaltext.Sanitize(out); again != out {
			t.Fatalf("Sanitize(%q) = %q; sanitized again %q", in, out, again)
		}
		shown := legaltext.ReplaceTokens(out, legaltext.Tokens{FirstName: value, LastName: value, ClientName: value,
			AccountingCode: value, EmployerName: value})
		checkSafe(t, "ReplaceTokens", out, shown)
		subject := &portal.Subject{FirstName: value, LastName: value}
		company := &portal.Company{Name: value, AccountingCode: value}
		checkSafe(t, "Render", out, legaltext.Render(out, subject, company))
		checkSafe(t, "RenderRelease", out, legaltext.RenderRelease(out, subject, company, value, portal.LocaleEsUS))
		file := &portal.LegalFile{Subject: subject, Company: company,
			DOTEntries: []portal.DOTEntry{{ID: "e1", EmployerName: value}}}
		for _, instance := range []string{"", "e1", value} {
			content, hash := legaltext.Shown(file, portal.LegalDocument{Content: out}, instance)
			checkSafe(t, "Shown", out, content)
			if again, hash2 := legaltext.Shown(file, portal.LegalDocument{Content: out}, instance); again != content || hash2 != hash {
				t.Fatalf("Shown(%q) twice differs: the content signed would not be the content read", instance)
			}
		}
		legaltext.FirstHeading(out)
		legaltext.IsSample(out)
	})
}

// FuzzRenderMarkdown: a Markdown legal text renders to HTML that holds
// nothing that runs and that the sanitizer leaves unchanged.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range legalSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out, err := legaltext.RenderMarkdown(md)
		if err != nil {
			return
		}
		checkSafe(t, "RenderMarkdown", md, out)
		if again := legaltext.Sanitize(out); again != out {
			t.Fatalf("RenderMarkdown(%q) = %q; sanitized again %q", md, out, again)
		}
	})
}
