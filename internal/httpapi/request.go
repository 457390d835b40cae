package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return jsonError(err)
	}
	if !utf8.Valid(body) {
		return errNotText
	}
	if err := checkJSONText(body); err != nil {
		return err
	}
	// null, an array or a bare value would decode as an empty change.
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] != '{' {
		return portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return wrongType(body, typeErr)
		}
		return jsonError(err)
	}
	if dec.More() {
		return portal.Errorf(portal.EMALFORMED, "The request body must hold one JSON object.")
	}
	return nil
}

// validText reports whether s is text that both databases keep as given:
// valid UTF-8 without a NUL byte. PostgreSQL refuses either in a text
// value with an error (which would be a 500), while SQLite stores them, so
// every string from outside is checked once where it enters: the URL's
// path and query here (refuseBadText), JSON bodies (decodeJSON,
// checkCallbackText), form bodies (the token endpoint's check).
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

var errNotText = portal.Errorf(portal.EMALFORMED, "The request holds text that is not valid UTF-8, or a NUL character.")

// refuseBadText answers a request whose path or query holds what
// validText refuses before any handler reads it: a path that cannot name
// anything is a 404, a query value a 400.
func (s *Server) refuseBadText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !validText(r.URL.Path) {
			s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "Nothing is found at this address: it holds text that is not valid UTF-8, or a NUL character."))
			return
		}
		// A query that does not parse is read by the handlers as far as it
		// does (url.Values keeps what parsed), so what parsed is checked.
		query, _ := url.ParseQuery(r.URL.RawQuery)
		for k, vs := range query {
			if validText(k) && !slices.ContainsFunc(vs, func(v string) bool { return !validText(v) }) {
				continue
			}
			err := portal.Errorf(portal.EMALFORMED, "The %s query parameter holds text that is not valid UTF-8, or a NUL character.", k)
			switch {
			case r.URL.Path == tokenLoginPath:
				// An invitation token that cannot be one is answered as any
				// unknown token (403), on which the app shows the login page.
				err = portal.ErrInvitation
			case !validText(k):
				err = errNotText
			}
			s.Error(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkCallbackText refuses a JSON body from an outside party (a signed
// callback, whose exact bytes are kept for the signature check) holding
// invalid UTF-8 or a NUL in any string; its other rules are the party's.
func checkCallbackText(body []byte) error {
	if !utf8.Valid(body) {
		return errNotText
	}
	return checkJSON(body, func(_ []string, v string) error {
		if !validText(v) {
			return errNotText
		}
		return nil
	})
}

// MaxJSONString bounds every string of a JSON body, in characters, unless
// a field has its own bound in longJSONFields. The fields' own rules are
// tighter (names 50, e-mail 254...); this ceiling holds for the fields that
// have none and for keys the handler ignores, and keeps any value well
// under PostgreSQL's limit of about 2,700 bytes for an indexed text.
const MaxJSONString = 512

// longJSONFields are the fields (by path) allowed past MaxJSONString: the
// signature image is a data URL, bounded by the signing body limit and by
// portal.CheckSignatureImage.
var longJSONFields = map[string]bool{"signature": true}

// longJSONValue reports whether path may pass MaxJSONString: the values of
// service entries (services.{alias}.{index}.{api}), which their field's
// maxLength bounds (up to 2000 for a textarea; portal.CheckEntryStructure).
func longJSONValue(path []string) bool {
	return longJSONFields[strings.Join(path, ".")] || (len(path) == 4 && path[0] == "services")
}

// checkJSONText walks a JSON body before it is decoded and refuses what
// encoding/json would let through silently: a key given twice in one
// object (encoding/json keeps the last, matching keys case-insensitively,
// so two readers of one body could disagree about a value), control
// characters in a string (NUL in particular, which PostgreSQL refuses in
// text), and strings over their bound. Malformed JSON is left to the
// decoder, whose messages are clearer.
func checkJSONText(body []byte) error {
	return checkJSON(body, checkJSONString)
}

// checkJSONKeys is checkJSONText without the checks of strings, for a
// body whose text has its own rules (a chat message is long and keeps
// control characters but NUL).
func checkJSONKeys(body []byte) error {
	return checkJSON(body, func([]string, string) error { return nil })
}

func checkJSON(body []byte, checkString func(path []string, s string) error) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	err := walkJSON(dec, nil, checkString)
	var pe *portal.Error
	if errors.As(err, &pe) {
		return err
	}
	return nil
}

// maxJSONDepth bounds the nesting of a JSON body. The portal's bodies nest
// four levels at most; the bound keeps walkJSON's recursion small whatever
// a client sends.
const maxJSONDepth = 32

// walkJSON reads one JSON value from dec; path names it ("licenses.0.number").
func walkJSON(dec *json.Decoder, path []string, checkString func(path []string, s string) error) error {
	if len(path) > maxJSONDepth {
		return portal.Errorf(portal.EMALFORMED, "The request body is nested too deeply.")
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case string:
		return checkString(path, t)
	case json.Delim:
		switch t {
		case '{':
			seen := map[string]bool{}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := tok.(string)
				if hasControl(key) {
					return portal.Errorf(portal.EMALFORMED, "The request has a key with a control character.")
				}
				keyPath := append(path[:len(path):len(path)], key)
				folded := foldKey(key)
				if seen[folded] {
					return portal.Errorf(portal.EMALFORMED, "The request has a duplicate key: %s.", strings.Join(keyPath, "."))
				}
				seen[folded] = true
				if err := walkJSON(dec, keyPath, checkString); err != nil {
					return err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if err := walkJSON(dec, append(path[:len(path):len(path)], strconv.Itoa(i)), checkString); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err
	}
	return nil
}

func checkJSONString(path []string, s string) error {
	field := strings.Join(path, ".")
	var msg portal.Phrase
	switch {
	case hasControl(s):
		msg = portal.Phrasef("This value contains a control character, which is not allowed.")
	case !longJSONValue(path) && utf8.RuneCountInString(s) > MaxJSONString:
		msg = portal.Phrasef("This value is too long: at most %d characters.", MaxJSONString)
	default:
		return nil
	}
	if field == "" {
		return portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	if len(path) == 4 && path[0] == "services" {
		// A service entry's errors are named {alias}.{index}.{api}, as the
		// service data checks name them, so the form finds its field.
		field = strings.Join(path[1:], ".")
	}
	var fe portal.FieldErrors
	fe.AddPhrase(field, msg)
	return fe.Err()
}

// foldKey maps a key to one spelling per case-insensitive class, the way
// encoding/json matches keys to fields (Unicode simple folding: "ſ" and
// "s", "K" and the Kelvin sign are one key to it).
func foldKey(key string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, key)
}

// hasControl reports whether s holds a C0 or C1 control character (or
// DEL) other than tab, line feed and carriage return, which multi-line
// text may hold. Single-line fields refuse those too, in their own rules.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
	})
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
			fe.Addf(typeErr.Field, "This value has the wrong type (expected %s).", typeErr.Type.String())
			return fe.Err()
		}
		return portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	return portal.Errorf(portal.EMALFORMED, "The request body is not valid JSON.")
}

// wrongType answers a value of the wrong JSON type as an error on that
// value's path in the body ("aliases.0.type"). encoding/json's own Field
// leaves out list indexes and names Go structs, and its type is a Go type
// ("[]portal.Alias"): neither means anything to a client.
func wrongType(body []byte, typeErr *json.UnmarshalTypeError) error {
	path := jsonPathAt(body, typeErr.Offset)
	if path == "" {
		return portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	t := typeErr.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var fe portal.FieldErrors
	switch kind := jsonKind(t); {
	case kind == "a number" && strings.HasPrefix(typeErr.Value, "number"):
		fe.Add(path, "This number is out of range.")
	default:
		// kind is itself a text of the catalogue, translated with it.
		fe.Addf(path, "This value has the wrong type: expected %s.", kind)
	}
	return fe.Err()
}

// jsonKind names the JSON type that decodes into t.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

// jsonPathAt names the innermost value of body whose text holds offset
// ("licenses.0.number"), "" for the body itself or when body does not
// parse. encoding/json reports a type error at the end of a wrong scalar
// or just inside a wrong object or list, which both lie in that value.
func jsonPathAt(body []byte, offset int64) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var found []string
	var walk func(path []string) error
	walk = func(path []string) error {
		if len(path) > maxJSONDepth {
			return errors.New("too deep")
		}
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			for i := 0; dec.More(); i++ {
				key := strconv.Itoa(i)
				if d == '{' {
					k, err := dec.Token()
					if err != nil {
						return err
					}
					key, _ = k.(string)
				}
				if err := walk(append(path[:len(path):len(path)], key)); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
		}
		// Children are seen before their parent: the first hit is the innermost.
		if found == nil && start < offset && offset <= dec.InputOffset() {
			found = path
		}
		return nil
	}
	if walk(nil) != nil {
		return ""
	}
	return strings.Join(found, ".")
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

// isHTTPS reports whether the request reached the portal over HTTPS: on
// a TLS connection, or through a trusted proxy whose X-Forwarded-Proto
// says https. Anyone else's header is ignored, as X-Forwarded-For is. A
// proxy that appends its value to the client's puts its own last, so the
// last value counts.
func (s *Server) isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	addr, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil || !s.trusted(addr.Addr().Unmap()) {
		return false
	}
	protos := strings.Split(strings.Join(r.Header.Values("X-Forwarded-Proto"), ","), ",")
	return strings.EqualFold(strings.TrimSpace(protos[len(protos)-1]), "https")
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
