package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"applicantportal/internal/portal"
)

// serveFile answers a stored file as a download named name, streaming its
// content from rc (which it closes). The headers keep a browser from ever
// running or sniffing it: it is an attachment, of its stored type, in a
// sandbox.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, file *portal.File, rc io.ReadCloser, name string) {
	defer rc.Close()
	h := w.Header()
	h.Set("Content-Type", file.ContentType)
	h.Set("Content-Disposition", contentDisposition(name))
	h.Set("Content-Length", strconv.FormatInt(file.Size, 10))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "sandbox")
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, rc); err != nil {
		// The status is sent: all that is left is to cut the answer
		// short (its length then does not match) and say why in the log.
		s.logger.ErrorContext(r.Context(), "file download cut short", "file", file.ID, "err", err)
		panic(http.ErrAbortHandler)
	}
}

// contentDisposition is an attachment header with an ASCII fallback name
// and the exact name in RFC 5987 form, so no name can break the header.
func contentDisposition(name string) string {
	var ascii strings.Builder
	for _, r := range name {
		switch {
		case r == '"' || r == '\\' || r < 0x20 || r >= 0x7f:
			ascii.WriteByte('_')
		default:
			ascii.WriteRune(r)
		}
	}
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, ascii.String(), pathEscapeAll(name))
}

// pathEscapeAll percent-encodes every byte outside RFC 5987's attr-char.
func pathEscapeAll(s string) string {
	const attr = "!#$&+-.^_`|~"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(attr, c) >= 0) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
