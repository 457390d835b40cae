package mail_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	pmail "applicantportal/internal/mail"
	"applicantportal/internal/portal"
)

// fakeSMTP is a relay just big enough for net/smtp: it offers STARTTLS
// when it has a certificate, takes PLAIN auth, and records what it is sent.
type fakeSMTP struct {
	addr string
	tls  *tls.Config

	mu       sync.Mutex
	auth     []string // decoded PLAIN credentials
	from, to []string
	data     []string
	tlsUsed  []bool
}

func startFakeSMTP(t *testing.T, cert *tls.Certificate) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	f := &fakeSMTP{addr: ln.Addr().String()}
	if cert != nil {
		f.tls = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(conn)
		}
	}()
	return f
}

func (f *fakeSMTP) serve(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	tp := textproto.NewConn(conn)
	secure := false
	tp.PrintfLine("220 fake ESMTP")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			if f.tls != nil && !secure {
				tp.PrintfLine("250-fake\r\n250-STARTTLS\r\n250 AUTH PLAIN")
			} else {
				tp.PrintfLine("250-fake\r\n250 AUTH PLAIN")
			}
		case "STARTTLS":
			tp.PrintfLine("220 go ahead")
			tc := tls.Server(conn, f.tls)
			if err := tc.Handshake(); err != nil {
				return
			}
			conn, secure = tc, true
			tp = textproto.NewConn(tc)
		case "AUTH":
			_, b64, _ := strings.Cut(arg, " ")
			creds, _ := base64.StdEncoding.DecodeString(b64)
			f.mu.Lock()
			f.auth = append(f.auth, string(creds))
			f.mu.Unlock()
			tp.PrintfLine("235 ok")
		case "MAIL":
			f.mu.Lock()
			f.from = append(f.from, arg)
			f.mu.Unlock()
			tp.PrintfLine("250 ok")
		case "RCPT":
			f.mu.Lock()
			f.to = append(f.to, arg)
			f.mu.Unlock()
			tp.PrintfLine("250 ok")
		case "DATA":
			tp.PrintfLine("354 go ahead")
			b, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.data = append(f.data, string(b))
			f.tlsUsed = append(f.tlsUsed, secure)
			f.mu.Unlock()
			tp.PrintfLine("250 queued")
		case "QUIT":
			tp.PrintfLine("221 bye")
			return
		default:
			tp.PrintfLine("502 what")
		}
	}
}

func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fake relay"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	parsed, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(parsed)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

func TestSMTPSend(t *testing.T) {
	ctx := context.Background()
	cert, roots := selfSigned(t)
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	m := portal.Mail{To: "pat.lee@example.com", Subject: "Votre vérification",
		Body: "Hello Pat,\n\n.a line starting with a dot\nhttps://portal.example.com/setup?token=abc=def\n"}

	t.Run("STARTTLSAuthAndAMessageAsSent", func(t *testing.T) {
		relay := startFakeSMTP(t, &cert)
		s, err := pmail.New(pmail.Config{Addr: relay.addr, Username: "portal", Password: "s3cret",
			From: "ClearPath Screening <no-reply@clearpath.example>", Now: func() time.Time { return now },
			TLS: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		relay.mu.Lock()
		defer relay.mu.Unlock()
		if len(relay.data) != 1 || !relay.tlsUsed[0] {
			t.Fatalf("relay got %d messages (TLS %v), want 1 over TLS", len(relay.data), relay.tlsUsed)
		}
		if relay.auth[0] != "\x00portal\x00s3cret" {
			t.Errorf("PLAIN credentials %q", relay.auth[0])
		}
		if relay.from[0] != "FROM:<no-reply@clearpath.example>" || relay.to[0] != "TO:<pat.lee@example.com>" {
			t.Errorf("envelope %q %q", relay.from[0], relay.to[0])
		}
		msg, err := mail.ReadMessage(strings.NewReader(relay.data[0]))
		if err != nil {
			t.Fatal(err)
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		date, _ := msg.Header.Date()
		want := map[string]string{
			"From":                      `"ClearPath Screening" <no-reply@clearpath.example>`,
			"To":                        "<pat.lee@example.com>",
			"Content-Type":              "text/plain; charset=UTF-8",
			"Content-Transfer-Encoding": "quoted-printable",
			"MIME-Version":              "1.0",
		}
		for k, v := range want {
			if got := msg.Header.Get(k); got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		if subject != m.Subject || !date.Equal(now) || !strings.HasSuffix(msg.Header.Get("Message-ID"), "@clearpath.example>") {
			t.Errorf("Subject %q, Date %v, Message-ID %q", subject, date, msg.Header.Get("Message-ID"))
		}
		body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
		if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != m.Body {
			t.Errorf("body = %q, want %q", got, m.Body)
		}
	})
	t.Run("RelayWithoutSTARTTLSRefused", func(t *testing.T) {
		relay := startFakeSMTP(t, nil)
		s, err := pmail.New(pmail.Config{Addr: relay.addr, From: "no-reply@localhost"})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Send(ctx, m)
		if err == nil || !strings.Contains(err.Error(), "does not offer STARTTLS") {
			t.Errorf("Send = %v, want a refusal of the clear-text relay", err)
		}
		if len(relay.data) != 0 {
			t.Error("the message was sent in clear text")
		}
	})
	t.Run("InsecureSendsToALocalRelay", func(t *testing.T) {
		relay := startFakeSMTP(t, nil)
		s, err := pmail.New(pmail.Config{Addr: relay.addr, From: "no-reply@localhost", Insecure: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		relay.mu.Lock()
		defer relay.mu.Unlock()
		if len(relay.data) != 1 || len(relay.auth) != 0 {
			t.Errorf("relay got %d messages, %d logins; want 1 message and no login", len(relay.data), len(relay.auth))
		}
	})
	t.Run("HeaderInjectionRefused", func(t *testing.T) {
		relay := startFakeSMTP(t, nil)
		s, _ := pmail.New(pmail.Config{Addr: relay.addr, From: "no-reply@localhost", Insecure: true})
		for _, bad := range []portal.Mail{
			{To: "pat@example.com\r\nBcc: all@example.com", Subject: "Hi", Body: "x"},
			{To: "pat@example.com", Subject: "Hi\nBcc: all@example.com", Body: "x"},
			{To: "not an address", Subject: "Hi", Body: "x"},
		} {
			if err := s.Send(ctx, bad); portal.ErrorCode(err) != portal.EINVALID {
				t.Errorf("Send(%q, %q) = %v, want EINVALID", bad.To, bad.Subject, err)
			}
		}
		if len(relay.data) != 0 {
			t.Error("a refused mail reached the relay")
		}
	})
	t.Run("BadConfigRefused", func(t *testing.T) {
		for _, cfg := range []pmail.Config{
			{Addr: "mail.example.com", From: "a@example.com"},
			{Addr: "mail.example.com:25", From: "not an address"},
			{Addr: "mail.example.com:25", From: "a@example.com\r\nBcc: b@example.com"},
		} {
			if _, err := pmail.New(cfg); err == nil {
				t.Errorf("New(%+v) accepted", cfg)
			}
		}
	})
	t.Run("CancelledContextStopsASlowRelay", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			conn, err := ln.Accept()
			if err == nil {
				defer conn.Close()
				bufio.NewReader(conn).ReadString('\n') // never greets
			}
		}()
		s, _ := pmail.New(pmail.Config{Addr: ln.Addr().String(), From: "no-reply@localhost", Insecure: true})
		ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := s.Send(ctx, m); err == nil || time.Since(start) > 5*time.Second {
			t.Errorf("Send = %v after %s; want an error soon after the deadline", err, time.Since(start))
		}
	})
}
