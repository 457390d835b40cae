// Package mailtest is an in-process SMTP relay for tests of what the
// portal sends.
package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"math/big"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"
)

// Relay is an SMTP relay just big enough for net/smtp: it offers STARTTLS
// when it has a certificate, takes PLAIN auth, and records what it is sent.
type Relay struct {
	// Addr is where it listens (127.0.0.1:port).
	Addr string
	tls  *tls.Config

	mu       sync.Mutex
	messages []Message
}

// Message is one mail the relay accepted.
type Message struct {
	// Auth is the PLAIN credentials given before it ("\x00user\x00password"),
	// or "".
	Auth string
	// From and To are the MAIL and RCPT arguments ("FROM:<a@b>").
	From, To string
	// Data is the message as sent after DATA, dot-unstuffed.
	Data string
	// TLS says the connection had switched to TLS.
	TLS bool
}

// Messages lists the mails accepted so far.
func (f *Relay) Messages() []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Message(nil), f.messages...)
}

// NewRelay starts a relay for the test; with cert it offers STARTTLS.
func NewRelay(t testing.TB, cert *tls.Certificate) *Relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	f := &Relay{Addr: ln.Addr().String()}
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

func (f *Relay) serve(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	tp := textproto.NewConn(conn)
	var m Message
	tp.PrintfLine("220 fake ESMTP")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			if f.tls != nil && !m.TLS {
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
			conn, m.TLS = tc, true
			tp = textproto.NewConn(tc)
		case "AUTH":
			_, b64, _ := strings.Cut(arg, " ")
			creds, _ := base64.StdEncoding.DecodeString(b64)
			m.Auth = string(creds)
			tp.PrintfLine("235 ok")
		case "MAIL":
			m.From = arg
			tp.PrintfLine("250 ok")
		case "RCPT":
			m.To = arg
			tp.PrintfLine("250 ok")
		case "DATA":
			tp.PrintfLine("354 go ahead")
			b, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			m.Data = string(b)
			f.mu.Lock()
			f.messages = append(f.messages, m)
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

// SelfSigned is a certificate for 127.0.0.1 and the pool that trusts it.
func SelfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
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
