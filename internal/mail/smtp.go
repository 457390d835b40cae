// Package mail delivers the portal's e-mail over SMTP: it is the
// portal.Mailer that the outbox is sent through when a relay is configured.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// Config says which relay to use and as whom.
type Config struct {
	// Addr is the relay's host:port.
	Addr string
	// Username and Password log in with PLAIN auth when Username is set;
	// net/smtp refuses to send them over an unencrypted connection to
	// anything but localhost.
	Username string
	Password string
	// From is the sender, "Name <address>" or a bare address.
	From string
	// Insecure allows a relay that does not offer STARTTLS (a local
	// relay); otherwise such a relay is refused rather than sent to in
	// clear text.
	Insecure bool
	// Timeout bounds one delivery when the context has no deadline
	// (default 30s).
	Timeout time.Duration
	// TLS is the STARTTLS configuration; nil verifies the relay's
	// certificate against the system roots. Tests set their own roots.
	TLS *tls.Config
	// Now is the clock of the Date header.
	Now func() time.Time
}

// SMTP sends each mail in its own connection to the relay: the outbox
// sends a few mails every interval, so a pooled connection would mostly
// sit idle and time out.
type SMTP struct {
	cfg  Config
	from *mail.Address
	host string
}

var _ portal.Mailer = (*SMTP)(nil)

// New checks the configuration: an address with a port and a parseable
// sender without line breaks.
func New(cfg Config) (*SMTP, error) {
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil || host == "" {
		return nil, fmt.Errorf("mail: SMTP address %q: want host:port", cfg.Addr)
	}
	if strings.ContainsAny(cfg.From, "\r\n") {
		return nil, errors.New("mail: the sender holds a line break")
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail: sender %q: %v", cfg.From, err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &SMTP{cfg: cfg, from: from, host: host}, nil
}

// Send delivers one mail. A recipient or subject that could inject
// headers is refused before anything is sent.
func (s *SMTP) Send(ctx context.Context, m portal.Mail) error {
	to, msg, err := s.message(m)
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
		defer cancel()
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("mail: connect to %s: %w", s.cfg.Addr, err)
	}
	// net/smtp has no contexts: the deadline covers the whole dialogue, and
	// a cancelled context closes the connection under it.
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("mail: greeting of %s: %w", s.cfg.Addr, err)
	}
	defer c.Close()
	if err := s.deliver(c, to, msg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("mail: %w", ctx.Err())
		}
		return err
	}
	return nil
}

func (s *SMTP) deliver(c *smtp.Client, to string, msg []byte) error {
	if err := c.Hello(heloName(s.from.Address)); err != nil {
		return fmt.Errorf("mail: EHLO: %w", err)
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		tc := s.cfg.TLS
		if tc == nil {
			tc = &tls.Config{ServerName: s.host}
		}
		if err := c.StartTLS(tc); err != nil {
			return fmt.Errorf("mail: STARTTLS: %w", err)
		}
	} else if !s.cfg.Insecure {
		return fmt.Errorf("mail: %s does not offer STARTTLS; use --smtp-insecure only for a relay on a trusted network", s.cfg.Addr)
	}
	if s.cfg.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.cfg.Username, s.cfg.Password, s.host)); err != nil {
			return fmt.Errorf("mail: log in as %s: %w", s.cfg.Username, err)
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return fmt.Errorf("mail: MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("mail: RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("mail: DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("mail: write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mail: message refused: %w", err)
	}
	return c.Quit()
}

// heloName is the name the portal greets the relay with: the sender's
// domain, which the relay can check, rather than the container's host name.
func heloName(from string) string {
	if at := strings.LastIndex(from, "@"); at >= 0 && at < len(from)-1 {
		return from[at+1:]
	}
	return "localhost"
}

// message is the RFC 5322 text of m and its envelope recipient.
func (s *SMTP) message(m portal.Mail) (to string, msg []byte, err error) {
	if strings.ContainsAny(m.To, "\r\n") || strings.ContainsAny(m.Subject, "\r\n") {
		return "", nil, portal.Errorf(portal.EINVALID, "A recipient or subject holds a line break.")
	}
	addr, err := mail.ParseAddress(m.To)
	if err != nil {
		return "", nil, portal.Errorf(portal.EINVALID, "Recipient %q is not an e-mail address.", m.To)
	}
	id := make([]byte, 16)
	rand.Read(id)
	var b bytes.Buffer
	header := func(name, value string) { fmt.Fprintf(&b, "%s: %s\r\n", name, value) }
	header("From", s.from.String())
	header("To", addr.String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", s.cfg.Now().Format(time.RFC1123Z))
	header("Message-ID", "<"+hex.EncodeToString(id)+"@"+heloName(s.from.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=UTF-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(m.Body))
	qp.Close()
	return addr.Address, b.Bytes(), nil
}
