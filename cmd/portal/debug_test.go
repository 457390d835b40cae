package main_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// get answers the status and body of a GET of url.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// The profiler is served on --debug-addr only, never on the public
// listener, and not at all without the flag.
func TestDebugAddrServesTheProfilerApart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	debugAddr := ln.Addr().String()
	ln.Close()
	const index = "Types of profiles available"

	s := startServer(t, "--debug-addr", debugAddr)
	if code, body := get(t, "http://"+debugAddr+"/debug/pprof/"); code != 200 || !strings.Contains(body, index) {
		t.Fatalf("debug listener: %d %.200s", code, body)
	}
	if code, body := get(t, "http://"+debugAddr+"/debug/pprof/goroutine?debug=1"); code != 200 || !strings.Contains(body, "goroutine profile") {
		t.Fatalf("goroutine profile: %d %.200s", code, body)
	}
	if _, body := get(t, s.base+"/debug/pprof/"); strings.Contains(body, index) {
		t.Fatal("the public listener serves the profiler")
	}
	s.stop(t)

	plain := startServer(t)
	if _, body := get(t, plain.base+"/debug/pprof/"); strings.Contains(body, index) {
		t.Fatal("the public listener serves the profiler without --debug-addr")
	}
}
