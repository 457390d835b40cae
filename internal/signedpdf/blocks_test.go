package signedpdf

import (
	"fmt"
	"strings"
	"testing"
)

// describe prints blocks compactly: kind/indent/marker then the runs, with
// * around bold and _ around italic text.
func describe(bs []block) string {
	var out []string
	for _, b := range bs {
		var s strings.Builder
		fmt.Fprintf(&s, "%d/%d%s:", b.kind, b.indent, b.marker)
		for _, r := range b.runs {
			t := r.text
			if r.bold {
				t = "*" + t + "*"
			}
			if r.italic {
				t = "_" + t + "_"
			}
			s.WriteString(t)
		}
		out = append(out, s.String())
	}
	return strings.Join(out, "|")
}

func TestBlocksFromHTML(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"WhitespaceCollapsedLikeHTML", "<p>  one \n two   <strong>three</strong>  four </p>", "0/0:one two *three* four"},
		{"HeadingsKeepTheirLevel", "<h2>Rights</h2><p>Text</p>", "1/0:Rights|0/0:Text"},
		{"OrderedListNumberedFromStart", `<ol start="3"><li>a</li><li><p>b</p></li></ol>`, "2/13.:a|2/14.:b"},
		{"NestedListIndented", "<ul><li>a<ul><li>b</li></ul></li></ul>", "2/1\u2022:a|2/2\u2022:b"},
		{"TableRowsJoinedWithBoldHeaders", "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>", "3/0:*A* | *B*|3/0:1 | 2"},
		{"LinkURLShownWhenTextDiffers", `<p><a href="https://x.example/r">rights</a> and <a href="mailto:a@x.example">a@x.example</a></p>`, "0/0:rights (https://x.example/r) and a@x.example"},
		{"LineBreakKept", "<p>one<br> two</p>", "0/0:one\ntwo"},
		{"LooseTextBecomesParagraph", "just text <em>here</em>", "0/0:just text _here_"},
		{"RuleKept", "<p>a</p><hr><p>b</p>", "0/0:a|4/0:|0/0:b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe(blocksFromHTML(tc.in)); got != tc.want {
				t.Errorf("blocksFromHTML(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}
