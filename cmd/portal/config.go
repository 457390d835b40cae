package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
)

// flags is a subcommand's flag set where every flag also reads a PORTAL_...
// environment variable; a flag given on the command line wins.
type flags struct {
	*flag.FlagSet
}

func newFlags(name, summary string, stderr io.Writer) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: portal %s [flags]\n\n%s\n\nFlags (each also read from the environment variable shown):\n", name, summary)
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		sort.Strings(names)
		for _, n := range names {
			f := fs.Lookup(n)
			def := ""
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0s" {
				def = fmt.Sprintf(" (default %s)", f.DefValue)
			}
			fmt.Fprintf(stderr, "  --%s, %s\n      %s%s\n", n, envName(n), f.Usage, def)
		}
	}
	return &flags{fs}
}

func envName(flagName string) string {
	return "PORTAL_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse reads the command line, then fills every flag not given there from
// its environment variable.
func (f *flags) parse(args []string) error {
	rest, err := f.parseWithArgs(args)
	if err == nil && len(rest) > 0 {
		return fmt.Errorf("portal %s: unexpected argument %q", f.Name(), rest[0])
	}
	return err
}

// parseWithArgs is parse for commands that take arguments besides flags
// (portal documents load DIR); flags may come before or after them. It
// returns the arguments.
func (f *flags) parseWithArgs(args []string) ([]string, error) {
	var rest []string
	for {
		if err := f.Parse(args); err != nil {
			return nil, err
		}
		if f.NArg() == 0 {
			break
		}
		rest = append(rest, f.Arg(0))
		args = f.Args()[1:]
	}
	return rest, f.applyEnv()
}

// applyEnv fills every flag not given on the command line from its
// environment variable.
func (f *flags) applyEnv() error {
	given := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	var err error
	f.VisitAll(func(fl *flag.Flag) {
		if given[fl.Name] || err != nil {
			return
		}
		if v, ok := os.LookupEnv(envName(fl.Name)); ok {
			if e := fl.Value.Set(v); e != nil {
				err = fmt.Errorf("portal %s: %s=%q: %v", f.Name(), envName(fl.Name), v, e)
			}
		}
	})
	return err
}

// storage are the flags every command that opens the database shares.
type storage struct {
	DataDir     string
	DatabaseURL string
}

func (f *flags) storage() *storage {
	s := &storage{}
	f.StringVar(&s.DataDir, "data", "./data", "data folder: the SQLite database portal.db and the generated data key live here")
	f.StringVar(&s.DatabaseURL, "database-url", "", "PostgreSQL URL (postgres://user:pass@host/db); empty means the embedded SQLite in --data")
	return s
}

// serveConfig is every setting of `portal serve`.
type serveConfig struct {
	storage         *storage
	Addr            string
	DebugAddr       string
	BaseURL         string
	APIBaseURL      string
	Demo            bool
	ClientID        string
	ClientSecret    string
	InviteTTL       time.Duration
	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
	SetupTokenTTL   time.Duration
	ResetTTL        time.Duration
	EmailChangeTTL  time.Duration
	DraftTTL        time.Duration
	TrustedProxies  string
	// TLSCert and TLSKey are PEM files: with both, serve speaks HTTPS.
	TLSCert         string
	TLSKey          string
	DataKey         string
	LogLevel        string
	LogFormat       string
	SubjectChat     bool
	ShutdownTimeout time.Duration
	SweepInterval   time.Duration
	// PasswordChecks and PasswordCheckWait bound concurrent password
	// hashing (argon2id, 19 MiB each).
	PasswordChecks    int
	PasswordCheckWait time.Duration
	PDFRenders        int
	// MaxUploads and UploadWait bound the uploads streaming at once.
	MaxUploads int
	UploadWait time.Duration
	// Brand is the screening provider the app shows; IDVFrameOrigin,
	// ChatWidgetURL and LogoSources are the outside parties the
	// Content-Security-Policy allows.
	Brand          httpapi.Brand
	IDVFrameOrigin string
	ChatWidgetURL  string
	LogoSources    string
	// Identity verification, payment and self-pay (the sandboxes' settings
	// are named so).
	IDVPageURL             string
	IDVCallbackSecret      string
	IDVSessionTTL          time.Duration
	IDVCheckDelay          time.Duration
	PaymentTimeout         time.Duration
	PaymentSlowDelay       time.Duration
	SelfPayForbiddenStates string
	// Mail: kept in the outbox unless SMTPAddr names a relay.
	SMTPAddr     string
	SMTPUsername string
	SMTPPassword string
	SMTPInsecure bool
	MailFrom     string
	MailInterval time.Duration
	// Webhooks and text messages: delivered by workers of serve.
	WebhookAllowInsecure bool
	WebhookInterval      time.Duration
	SMSInterval          time.Duration
	// Reminders of applicants who have not finished, and how often they
	// are looked for.
	Reminders        *reminderConfig
	ReminderInterval time.Duration
}

func serveFlags(stderr io.Writer) (*flags, *serveConfig) {
	f := newFlags("serve", "Serves the applicant portal: the app and its JSON API.", stderr)
	c := &serveConfig{storage: f.storage()}
	f.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	f.StringVar(&c.DebugAddr, "debug-addr", "", "address of a separate listener serving Go's profiler at /debug/pprof/ (host:port; loopback advised, never the public address); empty serves none")
	f.StringVar(&c.BaseURL, "base-url", "", "public address of the portal, used in e-mailed links (default http://ADDR)")
	f.StringVar(&c.APIBaseURL, "api-base-url", "/", "where the app sends its API calls: a path (/portal/ behind a proxy that serves the API under that prefix) or an absolute http(s) URL of another origin")
	f.BoolVar(&c.Demo, "demo", false, "seed a demo employer and applicants into an empty database, and print a demo invitation link and login")
	f.StringVar(&c.ClientID, "client-id", "portal-spa", "OAuth client id of the single-page app, registered at start")
	f.StringVar(&c.ClientSecret, "client-secret", "portal-spa-secret", "OAuth client secret of the single-page app (a browser cannot keep it secret: it identifies, it does not protect)")
	f.DurationVar(&c.InviteTTL, "invite-ttl", 14*24*time.Hour, "how long an invitation link stays valid")
	f.DurationVar(&c.AccessTokenTTL, "access-token-ttl", time.Hour, "lifetime of an access token")
	f.DurationVar(&c.RefreshTokenTTL, "refresh-token-ttl", 24*time.Hour, "lifetime of a refresh token")
	f.DurationVar(&c.SetupTokenTTL, "setup-token-ttl", 30*time.Minute, "lifetime of the setup credential an invitation link gives")
	f.DurationVar(&c.ResetTTL, "reset-ttl", time.Hour, "how long a password-reset link stays valid")
	f.DurationVar(&c.EmailChangeTTL, "email-change-ttl", 24*time.Hour, "how long the link confirming a new e-mail address stays valid")
	f.DurationVar(&c.DraftTTL, "draft-ttl", portal.DefaultDraftTTL, "how long a form's draft (typed, not submitted) is kept after its last change; the sweep deletes it then")
	f.StringVar(&c.TrustedProxies, "trusted-proxies", "", "comma-separated CIDRs (or addresses) of reverse proxies whose X-Forwarded-For (the client's address) and X-Forwarded-Proto (https) are believed, e.g. 10.0.0.0/8; anyone else's are ignored")
	f.StringVar(&c.TLSCert, "tls-cert", "", "PEM certificate file (with its chain) to serve HTTPS directly, with --tls-key; empty serves plain HTTP (behind a TLS-terminating proxy)")
	f.StringVar(&c.TLSKey, "tls-key", "", "PEM private key file of --tls-cert")
	f.StringVar(&c.DataKey, "data-key", "", "base64 or hex 32-byte key that seals SSNs and other PII at rest; during a key rotation several, separated by commas, the sealing one first; empty means data.key in --data, generated on first start")
	f.StringVar(&c.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	f.StringVar(&c.LogFormat, "log-format", "json", "log format: json or text")
	f.BoolVar(&c.SubjectChat, "feature-subject-chat", true, "feature flag subjectChat: show Messages (the chat with the employer's hiring team) (the company must allow chat too)")
	f.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 20*time.Second, "how long SIGTERM waits for in-flight requests")
	f.DurationVar(&c.SweepInterval, "sweep-interval", time.Hour, "how often to delete expired throttle records, tokens, invitations and reset links (once at start, then at this interval); 0 disables")
	f.IntVar(&c.PasswordChecks, "password-checks", 0, "how many password hashes or checks (argon2id, 19 MiB each) may run at once; 0 means one per core (GOMAXPROCS)")
	f.DurationVar(&c.PasswordCheckWait, "password-check-wait", 2*time.Second, "how long a login waits for a free password check before it answers 503 with Retry-After")
	f.IntVar(&c.PDFRenders, "pdf-renders", 0, "how many signed PDFs (and signature images being checked) are prepared at once, each taking up to about 20 MB while it works; others wait up to 3 s, then get 503; 0 means one per CPU")
	f.IntVar(&c.MaxUploads, "max-uploads", 8, "how many file uploads (documents, filled-in forms) are received at once; each holds about 300 KB while it streams into the database")
	f.DurationVar(&c.UploadWait, "upload-wait", 20*time.Second, "how long an upload waits for a free slot before it answers 503 with Retry-After")
	def := httpapi.DefaultBrand()
	f.StringVar(&c.Brand.Name, "brand-name", def.Name, "the screening provider's name, shown on the login page, the welcome step and every page's footer")
	f.StringVar(&c.Brand.LogoURL, "brand-logo-url", def.LogoURL, "the provider's logo: an https URL or a path of the portal; empty shows the built-in wordmark")
	f.StringVar(&c.Brand.SupportEmail, "brand-support-email", def.SupportEmail, "the support e-mail address every page's footer shows")
	f.StringVar(&c.Brand.SupportPhone, "brand-support-phone", def.SupportPhone, "the support phone number every page's footer shows, as written here")
	f.StringVar(&c.Brand.PrivacyPolicyURL, "brand-privacy-url", def.PrivacyPolicyURL, "the privacy policy: an https URL or a path of the portal")
	f.StringVar(&c.IDVFrameOrigin, "idv-frame-origin", "", "origin of the identity-verification provider's page the app frames (https://verify.example.com); empty allows none besides the portal")
	f.StringVar(&c.ChatWidgetURL, "chat-widget-url", "", "https URL of the support chat widget's script; its origin may run scripts, be connected to and framed")
	f.StringVar(&c.IDVPageURL, "idv-page-url", "/sandbox/idv/{id}?token={token}", "the identity-verification provider's page, framed on /idv: a path of the portal or an https address, with {id} and {token} for the session's")
	f.StringVar(&c.IDVCallbackSecret, "idv-callback-secret", "", "shared secret the identity-verification provider signs callbacks with (HMAC-SHA256); empty derives one from the data key, which the built-in sandbox uses")
	f.DurationVar(&c.IDVSessionTTL, "idv-session-ttl", 30*time.Minute, "how long an identity-verification session stays open before it expires")
	f.DurationVar(&c.IDVCheckDelay, "idv-check-delay", 5*time.Second, "sandbox provider: how long its check of an approved session takes (completedByUser, then checkCompleted and dataCompleted)")
	f.DurationVar(&c.PaymentTimeout, "payment-timeout", 10*time.Second, "how long the portal waits for the payment processor before telling the applicant to try again")
	f.DurationVar(&c.PaymentSlowDelay, "payment-slow-delay", 15*time.Second, "sandbox processor: how long the processor-timeout test card takes to answer (longer than --payment-timeout)")
	f.StringVar(&c.SelfPayForbiddenStates, "self-pay-forbidden-states", strings.Join(portal.DefaultSelfPayForbiddenStates, ","), "comma-separated state codes whose residents are never asked to pay for their own screening (confirm the list with counsel; docs/operations.md names the sources)")
	f.StringVar(&c.LogoSources, "logo-sources", "https:", "comma-separated origins that may serve logos (brand and company logos); https: allows any https address")
	f.StringVar(&c.SMTPAddr, "smtp-addr", "", "SMTP relay (host:port) the e-mail is sent through; empty keeps it in the outbox, where portal outbox shows it")
	f.StringVar(&c.SMTPUsername, "smtp-username", "", "user name for the relay (PLAIN auth, only over TLS or to localhost); empty sends without logging in")
	f.StringVar(&c.SMTPPassword, "smtp-password", "", "password for the relay (never logged)")
	f.BoolVar(&c.SMTPInsecure, "smtp-insecure", false, "send to a relay that does not offer STARTTLS, in clear text (a relay on localhost or a trusted network only)")
	f.StringVar(&c.MailFrom, "mail-from", "", "sender of the e-mail, such as \"ClearPath Screening <no-reply@clearpath.example>\"; empty means the brand name at no-reply@localhost")
	f.DurationVar(&c.MailInterval, "mail-interval", 10*time.Second, "how often the outbox is sent through the SMTP relay")
	f.BoolVar(&c.WebhookAllowInsecure, "webhook-allow-insecure", false, webhookAllowInsecureUsage)
	f.DurationVar(&c.WebhookInterval, "webhook-interval", 5*time.Second, "how often due webhook deliveries are sent (each waits its backoff after a failure)")
	f.DurationVar(&c.SMSInterval, "sms-interval", 10*time.Second, "how often the text messages are sent through the SMS provider (the built-in sandbox)")
	c.Reminders = f.reminders()
	f.DurationVar(&c.ReminderInterval, "reminder-interval", 15*time.Minute, "how often the reminders due are looked for and queued (a reminder due in quiet hours goes at the first run after 08:00); 0 sends none")
	return f, c
}

// reminderConfig is the reminder schedule as serve and portal reminders
// send read it.
type reminderConfig struct {
	Schedule string
	Repeat   time.Duration
	Until    time.Duration
}

func (f *flags) reminders() *reminderConfig {
	c := &reminderConfig{}
	f.StringVar(&c.Schedule, "reminder-schedule", "24h,72h", "comma-separated, increasing delays after an applicant's last progress (invitation, opening the app, a save) at which they are reminded to finish")
	f.DurationVar(&c.Repeat, "reminder-repeat", 7*24*time.Hour, "after the last of --reminder-schedule, remind again at this interval; 0 repeats never")
	f.DurationVar(&c.Until, "reminder-until", 0, "how long after the applicant's latest invitation reminders are sent; 0 means --invite-ttl")
	return c
}

// schedule checks the flags and gives the store's schedule; until0 is the
// window when --reminder-until is 0.
func (c *reminderConfig) schedule(until0 time.Duration) (portal.ReminderSchedule, error) {
	after, err := portal.ParseReminderDelays(c.Schedule)
	if err != nil {
		return portal.ReminderSchedule{}, fmt.Errorf("--reminder-schedule: %w", err)
	}
	if c.Repeat < 0 || c.Until < 0 {
		return portal.ReminderSchedule{}, fmt.Errorf("--reminder-repeat and --reminder-until must be 0 or positive (got %s, %s)", c.Repeat, c.Until)
	}
	if len(after) == 0 && c.Repeat == 0 {
		return portal.ReminderSchedule{}, fmt.Errorf("--reminder-schedule and --reminder-repeat are both empty: to send no reminders, set --reminder-interval 0")
	}
	until := c.Until
	if until == 0 {
		until = until0
	}
	return portal.ReminderSchedule{After: after, Repeat: c.Repeat, Until: until}, nil
}

// webhookAllowInsecureUsage is the flag's text in serve and portal webhook add.
const webhookAllowInsecureUsage = "accept webhook endpoints over http and on local or private addresses, and deliver to them (tests and local development only: otherwise an API key could make the server call inside its own network)"
