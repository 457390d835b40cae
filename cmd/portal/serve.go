package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	netmail "net/mail"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"applicantportal/internal/demo"
	"applicantportal/internal/httpapi"
	"applicantportal/internal/mail"
	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	paymentsandbox "applicantportal/internal/sandbox/payment"
	sitesandbox "applicantportal/internal/sandbox/sites"
	smssandbox "applicantportal/internal/sandbox/sms"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/webhook"
	"applicantportal/web"
)

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: use debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("log format %q: use json or text", format)
}

func parseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if !strings.Contains(item, "/") {
			addr, err := netip.ParseAddr(item)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %v", item, err)
			}
			out = append(out, netip.PrefixFrom(addr, addr.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %v", item, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// splitList reads a comma-separated flag, dropping blanks.
func splitList(list string) []string {
	var out []string
	for _, item := range strings.Split(list, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// dataKey loads the key that seals PII. With PostgreSQL, several instances
// share one database, so a key generated into one instance's data folder
// would make the others unable to read what it sealed: there the key must
// be given (or already be in the data folder).
func (c *serveConfig) dataKey() (*seal.Sealer, error) {
	return loadSealer(c.storage, c.DataKey)
}

// loadSealer is the sealer of the data key given (--data-key), or else of
// the key file in the data folder (generated there when absent, unless the
// database is PostgreSQL). Operator commands that store personal data
// (portal report upload) use it as serve does.
func loadSealer(st *storage, dataKey string) (*seal.Sealer, error) {
	if st.DatabaseURL != "" && dataKey == "" {
		if _, err := os.Stat(filepath.Join(st.DataDir, seal.KeyFileName)); err != nil { // #nosec G703 -- the operator's own path, from a flag
			return nil, fmt.Errorf("with --database-url, set PORTAL_DATA_KEY (32 bytes, base64 or hex; the same on every instance), e.g. from: openssl rand -base64 32")
		}
	}
	// From data.key the sealer follows the file, so a server picks up a
	// key `portal keys rotate` adds while it serves.
	return seal.Load(dataKey, st.DataDir)
}

// openSealedStore opens the database of st for an operator command that
// stores files or personal data, sealed with the key loadSealer finds; the
// caller closes it.
func openSealedStore(ctx context.Context, st *storage, dataKey string) (*store.DB, error) {
	sealer, err := loadSealer(st, dataKey)
	if err != nil {
		return nil, err
	}
	return openStoreWith(ctx, st, store.Config{Sealer: sealer})
}

func (c *serveConfig) storeConfig(logger *slog.Logger, sealer *seal.Sealer, reminders portal.ReminderSchedule) store.Config {
	return store.Config{Sealer: sealer, Reminders: reminders,
		DataDir: c.storage.DataDir, DatabaseURL: c.storage.DatabaseURL,
		AccessTokenTTL: c.AccessTokenTTL, RefreshTokenTTL: c.RefreshTokenTTL, SetupTokenTTL: c.SetupTokenTTL,
		InvitationTTL: c.InviteTTL, ResetTTL: c.ResetTTL, EmailChangeTTL: c.EmailChangeTTL, DraftTTL: c.DraftTTL, Logger: logger,
		PasswordChecks: c.PasswordChecks, PasswordCheckWait: c.PasswordCheckWait,
		SelfPay:              portal.SelfPayRules{ForbiddenStates: splitList(c.SelfPayForbiddenStates)},
		WebhookAllowInsecure: c.WebhookAllowInsecure,
	}
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, cfg := serveFlags(stderr)
	if err := f.parse(args); err != nil {
		return err
	}
	logger, err := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	if err != nil {
		return err
	}
	if cfg.SweepInterval < 0 {
		return fmt.Errorf("--sweep-interval must be 0 (off) or positive (got %s)", cfg.SweepInterval)
	}
	if cfg.PasswordChecks < 0 || cfg.PasswordCheckWait <= 0 {
		return fmt.Errorf("--password-checks must be 0 (one per core) or positive, and --password-check-wait positive (got %d, %s)", cfg.PasswordChecks, cfg.PasswordCheckWait)
	}
	proxies, err := parseProxies(cfg.TrustedProxies)
	if err != nil {
		return err
	}
	tlsConfig, err := cfg.tlsConfig()
	if err != nil {
		return err
	}
	mailer, err := cfg.mailer()
	if err != nil {
		return err
	}
	if cfg.ReminderInterval < 0 {
		return fmt.Errorf("--reminder-interval must be 0 (off) or positive (got %s)", cfg.ReminderInterval)
	}
	reminders, err := cfg.Reminders.schedule(cfg.InviteTTL)
	if err != nil {
		return err
	}
	sealer, err := cfg.dataKey()
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.storeConfig(logger, sealer, reminders))
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.UpsertClient(ctx, cfg.ClientID, cfg.ClientSecret, "Applicant portal app"); err != nil {
		return err
	}

	events, err := store.OpenEvents(ctx, db)
	if err != nil {
		return err
	}
	defer events.Close()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	addr := "http://" + ln.Addr().String()
	if tlsConfig != nil {
		addr = "https://" + ln.Addr().String()
	}
	baseURL := cfg.BaseURL
	if baseURL == "" {
		baseURL = addr
	}

	callbackSecret := []byte(cfg.IDVCallbackSecret)
	if len(callbackSecret) == 0 {
		callbackSecret = sealer.DeriveKey("idv sandbox callbacks")
	}
	idv := idvsandbox.New(idvsandbox.Config{Records: db.SandboxRecords(), Secret: callbackSecret,
		CallbackURL: strings.TrimSuffix(baseURL, "/") + "/api/v2/idv/callback",
		SessionTTL:  cfg.IDVSessionTTL, CheckDelay: cfg.IDVCheckDelay, Logger: logger})
	payments := paymentsandbox.New(paymentsandbox.Config{Records: db.SandboxRecords(), SlowDelay: cfg.PaymentSlowDelay,
		Secret: sealer.DeriveKey("payment sandbox fingerprints")})

	api, err := httpapi.New(httpapi.Config{
		BaseURL: baseURL, APIBaseURL: cfg.APIBaseURL, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		Features:       map[string]bool{"subjectChat": cfg.SubjectChat},
		TrustedProxies: proxies,
		PDFRenders:     cfg.PDFRenders,
		MaxUploads:     cfg.MaxUploads,
		UploadWait:     cfg.UploadWait,
		Brand:          cfg.Brand,
		IDVFrameOrigin: cfg.IDVFrameOrigin,
		ChatWidgetURL:  cfg.ChatWidgetURL,
		LogoSources:    splitList(cfg.LogoSources),
		IDVPageURL:     cfg.IDVPageURL,
		Sandboxes:      idv.Handler(),
	}, httpapi.Services{
		Services: db.Services(store.ServicesConfig{
			IDV:      store.IDVConfig{Provider: idv, ReturnURL: strings.TrimSuffix(baseURL, "/") + "/idv/success"},
			Payments: payments, PaymentTimeout: cfg.PaymentTimeout,
			Sites:  sitesandbox.New(),
			Events: events,
		}),
		Health: db.Health, Classify: db.Classify,
	}, web.Dist(), logger)
	if err != nil {
		ln.Close()
		return err
	}

	handler := api.Handler()
	if cfg.Demo {
		res, err := demo.Seed(ctx, db, baseURL)
		if err != nil {
			ln.Close()
			return err
		}
		if res.InvitationURL != "" {
			fmt.Fprintf(stdout, "Demo invitation link: %s\n", res.InvitationURL)
		}
		fmt.Fprintf(stdout, "Demo login: %s / %s\n", res.Username, res.Password)
	}

	// The sweeper stops, and is waited for, before the database closes.
	sweepCtx, stopSweeping := context.WithCancel(ctx)
	swept := sweepEvery(sweepCtx, db, cfg.SweepInterval, logger)
	defer func() { stopSweeping(); <-swept }()
	// So do the mail jobs. Reminders are queued with or without a relay.
	mailCtx, stopMail := context.WithCancel(ctx)
	delivered := deliverEvery(mailCtx, db, mailer, cfg.MailInterval, logger)
	reminded := remindEvery(mailCtx, db.Reminders(), baseURL, cfg.ReminderInterval, logger)
	webhooks := deliverWebhooksEvery(mailCtx, db, webhook.New(webhook.Config{Timeout: webhookTimeout, AllowInsecure: cfg.WebhookAllowInsecure}),
		cfg.WebhookInterval, logger)
	texts := deliverTextsEvery(mailCtx, db, smssandbox.New(), cfg.SMSInterval, logger)
	defer func() { stopMail(); <-delivered; <-reminded; <-webhooks; <-texts }()

	if cfg.DebugAddr != "" {
		debugCtx, stopDebug := context.WithCancel(ctx)
		debugDone, err := serveDebug(debugCtx, cfg.DebugAddr, logger)
		if err != nil {
			stopDebug()
			ln.Close()
			return err
		}
		defer func() { stopDebug(); <-debugDone }()
	}

	srv := httpapi.NewHTTPServer(handler, httpapi.DefaultTimeouts(), slog.NewLogLogger(logger.Handler(), slog.LevelWarn))
	served := make(chan error, 1)
	srv.TLSConfig = tlsConfig
	go func() { served <- serveOn(srv, ln) }()
	logger.Info("listening", slog.String("addr", addr), slog.String("database", db.Dialect()))
	fmt.Fprintf(stdout, "Applicant portal listening on %s\n", addr)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	// SIGTERM: stop accepting, let in-flight requests finish.
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

// sweepEvery sweeps the database once now and then at every interval until
// ctx ends; the returned channel closes when it has stopped. An interval of
// 0 sweeps never. A failed sweep is logged and tried again at the next
// tick; several instances on one database may sweep at the same time.
func sweepEvery(ctx context.Context, db *store.DB, interval time.Duration, logger *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	if interval <= 0 {
		close(done)
		return done
	}
	// The trail names the server's own sweeps the system's, not the
	// operator's who started it.
	ctx = portal.WithActor(ctx, portal.Actor{Kind: portal.ActorSystem})
	return runEvery(ctx, interval, func(ctx context.Context) {
		res, err := db.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() != nil:
			// shutting down
		case err != nil:
			logger.Warn("sweep failed", slog.String("error", err.Error()))
		default:
			logger.Debug("swept", sweepAttrs(res)...)
		}
	})
}

// runEvery runs job once now and then at every interval until ctx ends;
// the returned channel closes when it has stopped. An interval of 0 runs
// it never.
func runEvery(ctx context.Context, interval time.Duration, job func(context.Context)) <-chan struct{} {
	done := make(chan struct{})
	if interval <= 0 {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			job(ctx)
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
		}
	}()
	return done
}

// Outbox delivery: a batch of mails is claimed for mailLease, longer than
// the mailer's timeout for the whole batch's sends, so a slow relay does
// not let another process send a claimed mail again.
const (
	mailBatch   = 20
	mailTimeout = 30 * time.Second
	mailLease   = mailBatch*mailTimeout + time.Minute
)

// mailer is the SMTP relay of --smtp-addr, or nil when mail stays in the
// outbox.
func (c *serveConfig) mailer() (portal.Mailer, error) {
	if c.MailInterval <= 0 {
		return nil, fmt.Errorf("--mail-interval must be positive (got %s)", c.MailInterval)
	}
	if c.SMTPAddr == "" {
		return nil, nil
	}
	from := c.MailFrom
	if from == "" {
		from = (&netmail.Address{Name: c.Brand.Name, Address: "no-reply@localhost"}).String()
	}
	m, err := mail.New(mail.Config{Addr: c.SMTPAddr, Username: c.SMTPUsername, Password: c.SMTPPassword,
		From: from, Insecure: c.SMTPInsecure, Timeout: mailTimeout})
	if err != nil {
		return nil, fmt.Errorf("--smtp-addr, --mail-from: %w", err)
	}
	return m, nil
}

// deliverEvery sends the outbox through mailer at every interval, batch
// after batch until it is empty; with no mailer it does nothing. Several
// instances may deliver at once: each mail is claimed by one.
func deliverEvery(ctx context.Context, db *store.DB, mailer portal.Mailer, interval time.Duration, logger *slog.Logger) <-chan struct{} {
	if mailer == nil {
		interval = 0
	}
	// The errors are kept in the outbox (portal outbox); a relay's answer
	// may quote the recipient, so it is not logged.
	return drainEvery(ctx, interval, mailBatch, "mail", logger, func(ctx context.Context) (int, int, error) {
		return db.DeliverOutbox(ctx, mailer, mailLease, mailBatch)
	})
}

// drainEvery runs deliver at every interval, batch after batch until one
// comes back short, logging what it sent and failed (what went wrong is
// kept by the outbox deliver works on, not logged).
func drainEvery(ctx context.Context, interval time.Duration, batch int, what string, logger *slog.Logger,
	deliver func(context.Context) (sent, failed int, err error)) <-chan struct{} {
	return runEvery(ctx, interval, func(ctx context.Context) {
		for ctx.Err() == nil {
			sent, failed, err := deliver(ctx)
			if err != nil {
				if ctx.Err() == nil {
					logger.Warn(what+" delivery failed", slog.String("error", err.Error()))
				}
				return
			}
			if failed > 0 {
				logger.Warn(what+": some could not be sent and are tried again later", slog.Int("sent", sent), slog.Int("failed", failed))
			} else if sent > 0 {
				logger.Debug(what+" sent", slog.Int("sent", sent))
			}
			if sent+failed < batch {
				return
			}
		}
	})
}

// Webhook and text deliveries: claimed batches, leased for longer than
// their sends can take.
const (
	webhookBatch   = 20
	webhookTimeout = 10 * time.Second
	webhookLease   = webhookBatch*webhookTimeout + time.Minute
	textBatch      = 20
	textLease      = 5 * time.Minute
)

// deliverWebhooksEvery posts the due webhook deliveries (portal webhook
// deliveries lists them with their attempts).
func deliverWebhooksEvery(ctx context.Context, db *store.DB, sender portal.WebhookSender, interval time.Duration, logger *slog.Logger) <-chan struct{} {
	return drainEvery(ctx, interval, webhookBatch, "webhooks", logger, func(ctx context.Context) (int, int, error) {
		return db.DeliverWebhooks(ctx, sender, webhookLease, webhookBatch)
	})
}

// deliverTextsEvery sends the queued texts (portal sms outbox lists them).
func deliverTextsEvery(ctx context.Context, db *store.DB, provider portal.SMSProvider, interval time.Duration, logger *slog.Logger) <-chan struct{} {
	return drainEvery(ctx, interval, textBatch, "text messages", logger, func(ctx context.Context) (int, int, error) {
		return db.DeliverTexts(ctx, provider, textLease, textBatch)
	})
}

// remindEvery queues the reminders due (of applicants who have not
// finished), once now and then at every interval; 0 sends none. Several
// instances may run it at once: each reminder is queued by one.
func remindEvery(ctx context.Context, reminders portal.ReminderService, baseURL string, interval time.Duration, logger *slog.Logger) <-chan struct{} {
	return runEvery(ctx, interval, func(ctx context.Context) {
		n, err := reminders.SendReminders(ctx, baseURL)
		switch {
		case err != nil && ctx.Err() != nil:
		case err != nil:
			logger.Warn("reminders failed", slog.String("error", err.Error()), slog.Int("queued", n))
		default:
			logger.Debug("reminders queued", slog.Int("queued", n))
		}
	})
}

// sweepCount is one count of a sweep, named for the log (and, with spaces,
// for portal sweep).
type sweepCount struct {
	name string
	n    int64
}

func sweepCounts(res store.SweepResult) []sweepCount {
	return []sweepCount{
		{"login_failures", res.LoginFailures}, {"reset_requests", res.ResetRequests},
		{"tokens", res.Tokens}, {"token_families", res.TokenFamilies},
		{"invitations", res.Invitations}, {"reset_links", res.PasswordResets},
		{"email_changes", res.EmailChanges}, {"handoffs", res.Handoffs}, {"unfinished_uploads", res.Uploads},
		{"orphaned_files", res.OrphanedFiles},
		{"sandbox_records", res.SandboxRecords}, {"events", res.Events}, {"mail_bodies", res.MailBodies},
		{"login_codes", res.LoginCodes}, {"code_requests", res.CodeRequests}, {"link_requests", res.LinkRequests},
		{"drafts", res.Drafts},
	}
}

func sweepAttrs(res store.SweepResult) []any {
	var attrs []any
	for _, c := range sweepCounts(res) {
		attrs = append(attrs, slog.Int64(c.name, c.n))
	}
	return attrs
}
