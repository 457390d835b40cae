package mail_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	pmail "applicantportal/internal/mail"
	"applicantportal/internal/mail/mailtest"
	"applicantportal/internal/portal"
)

func TestSMTPSend(t *testing.T) {
	ctx := context.Background()
	cert, roots := mailtest.SelfSigned(t)
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	m := portal.Mail{To: "pat.lee@example.com", Subject: "Votre vérification",
		Body: "Hello Pat,\n\n.a line starting with a dot\nhttps://portal.example.com/setup?token=abc=def\n"}

	t.Run("STARTTLSAuthAndAMessageAsSent", func(t *testing.T) {
		relay := mailtest.NewRelay(t, &cert)
		s, err := pmail.New(pmail.Config{Addr: relay.Addr, Username: "portal", Password: "s3cret",
			From: "ClearPath Screening <no-reply@clearpath.example>", Now: func() time.Time { return now },
			TLS: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		got := relay.Messages()
		if len(got) != 1 || !got[0].TLS {
			t.Fatalf("relay got %+v, want 1 message over TLS", got)
		}
		if got[0].Auth != "\x00portal\x00s3cret" {
			t.Errorf("PLAIN credentials %q", got[0].Auth)
		}
		if got[0].From != "FROM:<no-reply@clearpath.example>" || got[0].To != "TO:<pat.lee@example.com>" {
			t.Errorf("envelope %q %q", got[0].From, got[0].To)
		}
		msg, err := mail.ReadMessage(strings.NewReader(got[0].Data))
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
		relay := mailtest.NewRelay(t, nil)
		s, err := pmail.New(pmail.Config{Addr: relay.Addr, From: "no-reply@localhost"})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Send(ctx, m)
		if err == nil || !strings.Contains(err.Error(), "does not offer STARTTLS") {
			t.Errorf("Send = %v, want a refusal of the clear-text relay", err)
		}
		if len(relay.Messages()) != 0 {
			t.Error("the message was sent in clear text")
		}
	})
	t.Run("InsecureSendsToALocalRelay", func(t *testing.T) {
		relay := mailtest.NewRelay(t, nil)
		s, err := pmail.New(pmail.Config{Addr: relay.Addr, From: "no-reply@localhost", Insecure: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		if got := relay.Messages(); len(got) != 1 || got[0].Auth != "" || got[0].TLS {
			t.Errorf("relay got %+v; want 1 message in clear text without a login", got)
		}
	})
	t.Run("HeaderInjectionRefused", func(t *testing.T) {
		relay := mailtest.NewRelay(t, nil)
		s, _ := pmail.New(pmail.Config{Addr: relay.Addr, From: "no-reply@localhost", Insecure: true})
		for _, bad := range []portal.Mail{
			{To: "pat@example.com\r\nBcc: all@example.com", Subject: "Hi", Body: "x"},
			{To: "pat@example.com", Subject: "Hi\nBcc: all@example.com", Body: "x"},
			{To: "not an address", Subject: "Hi", Body: "x"},
		} {
			if err := s.Send(ctx, bad); portal.ErrorCode(err) != portal.EINVALID {
				t.Errorf("Send(%q, %q) = %v, want EINVALID", bad.To, bad.Subject, err)
			}
		}
		if len(relay.Messages()) != 0 {
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
