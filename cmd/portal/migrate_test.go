package main_test

import (
	"bytes"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeAndOperatorCommandsStartTogether starts portal serve and
// several portal migrate and portal sweep processes on one empty folder
// at the same moment: each must succeed (they take turns at the
// migrations instead of applying one twice).
func TestServeAndOperatorCommandsStartTogether(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	serve := exec.Command(portalBin, "serve", "--addr", "127.0.0.1:0", "--data", data)
	serveOut := &lockedBuffer{}
	serve.Stdout, serve.Stderr = serveOut, serveOut
	var cmds []*exec.Cmd
	for i := range 4 {
		word := "migrate"
		if i%2 == 1 {
			word = "sweep"
		}
		cmds = append(cmds, exec.Command(portalBin, word, "--data", data))
	}
	outs := make([]bytes.Buffer, len(cmds))
	for i, c := range cmds {
		c.Stdout, c.Stderr = &outs[i], &outs[i]
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { serve.Wait(); close(exited) }()
	defer func() { serve.Process.Kill(); <-exited }()
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("portal %s: %v %s", c.Args[1], err, outs[i].String())
		}
	}
	// serve starts (a failed migration would have ended it).
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(serveOut.String(), "Applicant portal listening on"); time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("portal serve exited: %s", serveOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("portal serve did not start: %s", serveOut.String())
		}
	}
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
