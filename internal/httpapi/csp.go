package httpapi

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"
)

// OutsideParties are the other sites the app's pages may load from or talk
// to. The Content-Security-Policy is built from them, so adding a party is a
// setting, not a code change, and nothing else is allowed.
type OutsideParties struct {
	// APIOrigin is the API's origin when it is not the portal's own
	// (Config.APIBaseURL): the app connects to it.
	APIOrigin string
	// IDVFrameOrigin is the identity-verification provider's page, shown
	// in a frame.
	IDVFrameOrigin string
	// IDVPageURL is the provider's page as configured (Config.IDVPageURL,
	// a template with {id} and {token}). A path is the portal's own page
	// (the built-in sandbox); an absolute address's origin is framed like
	// IDVFrameOrigin.
	IDVPageURL string
	// ChatWidgetURL is the support widget's script; its origin may run
	// scripts, be connected to and be framed (widgets open their panel
	// in a frame).
	ChatWidgetURL string
	// LogoSources may serve images: the brand logo and the companies'
	// logos (companyLogoUrlAddress, an address of the employer's choosing).
	// Each is an origin or "https:" (any https address). Empty means
	// "https:".
	LogoSources []string
}

// contentSecurityPolicy builds the policy for the parties, checking each
// first: https only (http for localhost, for development), no path where
// an origin is meant. Inline styles are allowed because the UI primitives
// position popovers with them.
func contentSecurityPolicy(p OutsideParties) (string, error) {
	script := []string{"'self'"}
	connect := []string{"'self'"}
	frame := []string{"'self'"}
	img := []string{"'self'", "data:", "blob:"}
	if p.APIOrigin != "" {
		// parseAPIBaseURL checked it; http stays allowed for an API on
		// another origin, as it was before the policy was built here.
		connect = append(connect, p.APIOrigin)
	}
	idv, err := p.idvOrigins()
	if err != nil {
		return "", err
	}
	frame = append(frame, idv...)
	if p.ChatWidgetURL != "" {
		o, err := checkOrigin("chat widget URL", p.ChatWidgetURL, true)
		if err != nil {
			return "", err
		}
		script, connect, frame = append(script, o), append(connect, o), append(frame, o)
	}
	logos := p.LogoSources
	if len(logos) == 0 {
		logos = []string{"https:"}
	}
	for _, src := range logos {
		if src == "https:" {
			img = append(img, src)
			continue
		}
		o, err := checkOrigin("logo source", src, false)
		if err != nil {
			return "", err
		}
		img = append(img, o)
	}
	directives := []string{
		"default-src 'self'",
		"script-src " + joinUnique(script),
		"style-src 'self' 'unsafe-inline'",
		"img-src " + joinUnique(img),
		"font-src 'self'",
		"connect-src " + joinUnique(connect),
		"frame-src " + joinUnique(frame),
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}
	return strings.Join(directives, "; "), nil
}

// idvOrigins are the checked origins of the identity-verification page:
// IDVFrameOrigin and the origin of an absolute IDVPageURL. The app frames
// that page, so these are what frame-src allows and what the camera is
// delegated to.
func (p OutsideParties) idvOrigins() ([]string, error) {
	var out []string
	if p.IDVFrameOrigin != "" {
		o, err := checkOrigin("identity-verification frame origin", p.IDVFrameOrigin, false)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if p.IDVPageURL != "" {
		u, err := url.Parse(p.IDVPageURL)
		switch {
		case err != nil:
			return nil, fmt.Errorf("httpapi: identity-verification page URL %q: give a path of the portal or an https address with {id} and {token}", p.IDVPageURL)
		case u.Scheme == "" && u.Host == "":
			// A path of the portal itself: 'self' covers it.
			if !strings.HasPrefix(p.IDVPageURL, "/") {
				return nil, fmt.Errorf("httpapi: identity-verification page URL %q: a path must start with /", p.IDVPageURL)
			}
		case strings.ContainsAny(u.Host, "{}"):
			return nil, fmt.Errorf("httpapi: identity-verification page URL %q: the host may not hold a placeholder", p.IDVPageURL)
		default:
			// The template's path and query ({id}, {token}) are the
			// page's; only its origin goes into the policies.
			o, err := checkOrigin("identity-verification page URL", u.Scheme+"://"+u.Host, false)
			if err != nil {
				return nil, err
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// permissionsPolicy is the Permissions-Policy of the app's pages. The
// camera is the portal's own and is delegated to the identity-verification
// page only (the frame on /idv asks for it with allow="camera", so the
// applicant can photograph their document and face there); every other
// powerful feature stays off.
func permissionsPolicy(p OutsideParties) (string, error) {
	idv, err := p.idvOrigins()
	if err != nil {
		return "", err
	}
	camera := []string{"self"}
	for _, o := range idv {
		camera = append(camera, `"`+o+`"`)
	}
	return "camera=(" + joinUnique(camera) + "), microphone=(), geolocation=(), payment=()", nil
}

// checkOrigin returns the origin (scheme://host[:port]) of raw, which must
// be https, or http on localhost. A URL with a path is refused unless
// withPath (a script's address, whose origin is what the policy names).
func checkOrigin(what, raw string, withPath bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		(!withPath && u.Path != "" && u.Path != "/") || strings.ContainsAny(u.Host, "*;'") ||
		strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", fmt.Errorf("httpapi: %s %q: %s", what, raw, originExample(what, withPath))
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLocalhost(u.Hostname()):
	default:
		return "", fmt.Errorf("httpapi: %s %q: use https (http only for localhost)", what, raw)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// originExample says what checkOrigin expects, with an example fitting the
// party, so the operator sees which setting to fix and how.
func originExample(what string, withPath bool) string {
	switch {
	case withPath:
		return "give the https address of the script, such as https://widget.example.net/loader.js"
	case what == "logo source":
		return "give an origin such as https://cdn.example.com, or https: for any https address"
	default:
		return "give an origin such as https://verify.example.com"
	}
}

func isLocalhost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func joinUnique(list []string) string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}
