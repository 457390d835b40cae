package httpapi

import "testing"

func TestContentDispositionKeepsAnyNameInsideTheHeader(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"report.pdf", `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`},
		{`a"b\c.pdf`, `attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`},
		{"résumé 1.pdf", `attachment; filename="r_sum_ 1.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%201.pdf`},
		{"x\r\nSet-Cookie: a=b", `attachment; filename="x__Set-Cookie: a=b"; filename*=UTF-8''x%0D%0ASet-Cookie%3A%20a%3Db`},
	} {
		if got := contentDisposition(tc.name); got != tc.want {
			t.Errorf("contentDisposition(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
}
