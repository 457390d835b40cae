package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"strings"

	"applicantportal/internal/portal"
)

// MaxJSONBody is the limit of every JSON request body.
const MaxJSONBody = 1 << 20

// decodeJSON reads a JSON object body into v, answering the client's
// mistakes (wrong type, too large, malformed) as domain errors.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	return decodeJSONLimit(w, r, v, MaxJSONBody)
}

// decodeJSONLimit is decodeJSON with its own body limit in bytes.
func decodeJSONLimit(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	if !isJSON(r) {
		return portal.Errorf(portal.EUNSUPPORTED, "The request body must be JSON (Content-Type: application/json).")
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return portal.Errorf(portal.EMALFORMED, "The request body must hold one JSON object.")
	}
	return nil
}

func isJSON(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func jsonError(err error) error {
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooLarge):
		return portal.Errorf(portal.ETOOLARGE, "The request body is too large (the limit is %d bytes).", tooLarge.Limit)
	case errors.Is(err, io.EOF):
		return portal.Errorf(portal.EMALFORMED, "The request body is empty; a JSON object is expected.")
	case errors.As(err, &typeErr):
		if typeErr.Field != "" {
			var fe portal.FieldErrors
			fe.Add(typeErr.Field, "This value has the wrong type (expected "+typeErr.Type.String()+").")
			return fe.Err()
		}
		return portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	return portal.Errorf(portal.EMALFORMED, "The request body is not valid JSON.")
}

// clientIP is the connection's address, or the forwarded one when the
// connection comes from a trusted proxy. Trusting X-Forwarded-For from
// anyone would let an applicant forge the IP stored with a signature.
func (s *Server) clientIP(r *http.Request) string {
	addr, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	ip := addr.Addr().Unmap()
	if !s.trusted(ip) {
		return ip.String()
	}
	// Walk the chain from the nearest hop; the first untrusted address is
	// the client. A proxy may add its own header line instead of appending
	// to the first, so every line counts, in order.
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		ip = hop.Unmap()
		if !s.trusted(ip) {
			break
		}
	}
	return ip.String()
}

func (s *Server) trusted(ip netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "Bearer ") {
		return "", false
	}
	t := strings.TrimSpace(h[7:])
	return t, t != ""
}
