package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
)

// tlsConfig is the TLS setting of --tls-cert and --tls-key, nil when
// neither is given (plain HTTP, behind a proxy that terminates TLS). The
// pair is read once, at start: a renewed certificate takes a restart.
func (c *serveConfig) tlsConfig() (*tls.Config, error) {
	if c.TLSCert == "" && c.TLSKey == "" {
		return nil, nil
	}
	if c.TLSCert == "" || c.TLSKey == "" {
		return nil, fmt.Errorf("--tls-cert and --tls-key go together: give both to serve HTTPS, or neither")
	}
	cert, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	// Go's defaults otherwise: TLS 1.2 and up, its own cipher suites.
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// serveOn serves srv on ln, over TLS when srv has a TLS setting.
func serveOn(srv *http.Server, ln net.Listener) error {
	if srv.TLSConfig != nil {
		return srv.ServeTLS(ln, "", "")
	}
	return srv.Serve(ln)
}
