package main_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/mail/mailtest"
)

// selfSignedCert writes mailtest's certificate for 127.0.0.1 and its key
// into dir, answering their paths and a pool that trusts the certificate.
func selfSignedCert(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	cert, pool := mailtest.SelfSigned(t)
	keyDER, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, pool
}

// TestServeTLSSendsHSTS boots the real binary with --tls-cert and
// --tls-key (the key through its environment variable): it listens on
// https, answers with Strict-Transport-Security, and refuses plain HTTP
// on that port.
func TestServeTLSSendsHSTS(t *testing.T) {
	certFile, keyFile, pool := selfSignedCert(t, t.TempDir())
	t.Setenv("PORTAL_TLS_KEY", keyFile)
	s := startServer(t, "--tls-cert", certFile)
	if !strings.HasPrefix(s.base, "https://127.0.0.1:") {
		t.Fatalf("listening on %s; want https", s.base)
	}
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for _, path := range []string{"/healthz", "/login"} {
		res, err := c.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") != "max-age=31536000; includeSubDomains" {
			t.Errorf("GET %s = %d, Strict-Transport-Security %q", path, res.StatusCode, res.Header.Get("Strict-Transport-Security"))
		}
	}
	// Plain HTTP to the TLS port gets Go's 400, never the portal.
	res, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + strings.TrimPrefix(s.base, "https://") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("plain HTTP on the TLS port answered %d; want 400", res.StatusCode)
	}
	s.stop(t)
}

// TestServeWithoutTLSSendsNoHSTS: over plain HTTP, no HSTS, even when the
// client claims https.
func TestServeWithoutTLSSendsNoHSTS(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	req, _ := http.NewRequest("GET", s.base+"/healthz", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if h := res.Header.Get("Strict-Transport-Security"); res.StatusCode != 200 || h != "" {
		t.Errorf("GET /healthz = %d, Strict-Transport-Security %q; want none", res.StatusCode, h)
	}
	s.stop(t)
}

// TestServeRefusesHalfATLSSetting: a certificate without its key (or the
// reverse), or files that do not hold them, stop serve with the flag named.
func TestServeRefusesHalfATLSSetting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	certFile, keyFile, _ := selfSignedCert(t, dir)
	for _, args := range [][]string{
		{"--tls-cert", certFile},
		{"--tls-key", keyFile},
		{"--tls-cert", keyFile, "--tls-key", certFile},
		{"--tls-cert", filepath.Join(dir, "missing.pem"), "--tls-key", keyFile},
	} {
		out, err := exec.Command(portalBin, append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, args...)...).CombinedOutput()
		if err == nil || !bytes.Contains(out, []byte("--tls-")) {
			t.Errorf("serve %v = %v %s; want a refusal naming the flags", args, err, out)
		}
	}
}
