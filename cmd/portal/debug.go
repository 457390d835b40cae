package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// serveDebug serves Go's profiler (net/http/pprof) on addr, a listener of
// its own that is never the public one: profiles show the code paths and
// timings of the portal, and a CPU profile costs CPU for as long as it is
// asked to run. Loopback (127.0.0.1:6060) is the advised address, reached
// through an SSH tunnel. It stops when ctx ends; the returned channel closes
// then.
func serveDebug(ctx context.Context, addr string, logger *slog.Logger) (<-chan struct{}, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on --debug-addr %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	// No write timeout: a CPU profile or a trace answers after the
	// seconds it was asked for.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Warn("debug listener stopped", slog.String("error", err.Error()))
		}
	}()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	logger.Info("serving the profiler", slog.String("addr", "http://"+ln.Addr().String()+"/debug/pprof/"))
	return done, nil
}
