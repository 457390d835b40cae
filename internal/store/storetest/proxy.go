package storetest

import (
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/store"
)

// Proxy is a TCP proxy between a test and the shared PostgreSQL server, so
// a test can make the database go away (Cut) and come back (Restore)
// without touching the server, which other tests use.
type Proxy struct {
	tb     testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
	// silent holds the connections accepted while the proxy drops
	// everything (Silence): they never get an answer.
	silent bool
	held   []net.Conn
	wg     sync.WaitGroup
}

// NewProxy listens on a free local port and forwards every connection to
// target (host:port) until the test ends.
func NewProxy(tb testing.TB, target string) *Proxy {
	tb.Helper()
	p := &Proxy{tb: tb, target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	tb.Cleanup(func() {
		p.Cut()
		p.wg.Wait()
	})
	return p
}

// Addr is where the proxy listens.
func (p *Proxy) Addr() string { return p.addr }

// Cut drops every forwarded connection and refuses new ones, as a
// stopped server does.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.held {
		c.Close()
	}
	p.held = nil
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Silence drops what travels either way on every connection and answers
// nothing on new ones, as a network that loses packets does: a client
// waits until its own deadline.
func (p *Proxy) Silence() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.silent = true
}

func (p *Proxy) isSilent() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.silent
}

// Restore listens again on the same address (after Cut), or forwards
// again (after Silence; the connections that lost bytes are dropped, as
// their clients would find them broken).
func (p *Proxy) Restore() {
	p.tb.Helper()
	p.mu.Lock()
	if p.silent {
		p.silent = false
		for _, c := range p.held {
			c.Close()
		}
		p.held = nil
		for c := range p.conns {
			c.Close()
			delete(p.conns, c)
		}
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	var ln net.Listener
	var err error
	// The port was just closed; the kernel may take a moment to free it.
	for range 50 {
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.tb.Fatalf("proxy: listen again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.forward(c)
		}
	}()
}

// forward pipes c to a new connection to the target, both closed by Cut.
func (p *Proxy) forward(c net.Conn) {
	p.mu.Lock()
	if p.silent {
		p.held = append(p.held, c)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // cut meanwhile
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[c], p.conns[up] = true, true
	p.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		defer p.wg.Done()
		// When either side ends or fails, end both, as a lost
		// connection does. While silent, what arrives is dropped.
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 && !p.isSilent() {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		dst.Close()
		src.Close()
		p.mu.Lock()
		delete(p.conns, dst)
		delete(p.conns, src)
		p.mu.Unlock()
	}
	p.wg.Add(2)
	go pipe(up, c)
	go pipe(c, up)
}

// OpenPostgresViaProxy opens a new migrated database (Database)
// (skipping the test when PORTAL_TEST_DATABASE_URL is not set) through a
// Proxy of its own, which the test cuts and restores to make the database
// go away and come back.
func OpenPostgresViaProxy(tb testing.TB, cfg store.Config) (*store.DB, *Proxy) {
	tb.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		tb.Skip(EnvURL + " is not set; PostgreSQL tests skipped")
	}
	u, err := url.Parse(Database(tb, base))
	if err != nil {
		tb.Fatal(err)
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	p := NewProxy(tb, target)
	u.Host = p.Addr()
	cfg.DatabaseURL = u.String()
	return open(tb, cfg), p
}
