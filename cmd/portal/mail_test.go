package main_test

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"os/exec"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/mail/mailtest"
)

// TestServeHelpListsTheMailSettings proves each mail setting has a flag
// and an environment variable.
func TestServeHelpListsTheMailSettings(t *testing.T) {
	t.Parallel()
	out, _ := exec.Command(portalBin, "serve", "--help").CombinedOutput()
	for _, want := range []string{"--smtp-addr, PORTAL_SMTP_ADDR", "--smtp-username, PORTAL_SMTP_USERNAME", "--smtp-password, PORTAL_SMTP_PASSWORD",
		"--smtp-insecure, PORTAL_SMTP_INSECURE", "--mail-from, PORTAL_MAIL_FROM", "--mail-interval, PORTAL_MAIL_INTERVAL"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}

// TestServeRefusesABadMailSetting: a relay address without a port, a
// sender that is not an address, or no interval stops the start.
func TestServeRefusesABadMailSetting(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--smtp-addr", "mail.example.com"}, {"--smtp-addr", "127.0.0.1:25", "--mail-from", "not an address"},
		{"--mail-interval", "0s"}} {
		out, err := exec.Command(portalBin, append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, args...)...).CombinedOutput()
		if err == nil || !bytes.Contains(out, []byte(args[len(args)-2])) {
			t.Errorf("serve %v = %v %s; want a refusal naming the flag", args, err, out)
		}
	}
}

// TestServeSendsTheOutboxThroughSMTP: with a relay configured, the
// invitation `portal invite` queues reaches the relay with the link the
// command printed, the relay password stays out of the log, and
// `portal outbox` shows the mail sent, its body (and link) removed.
func TestServeSendsTheOutboxThroughSMTP(t *testing.T) {
	t.Parallel()
	relay := mailtest.NewRelay(t, nil)
	srv := startServer(t, "--demo", "--log-level", "debug", "--smtp-addr", relay.Addr, "--smtp-insecure",
		"--smtp-username", "portal", "--smtp-password", "relay-Secret-4242", "--mail-interval", "100ms",
		"--mail-from", "Acme Hiring <hiring@acme.example>")
	out := runPortal(t, "invite", "--data", srv.data, "--email", "sam.ortiz@example.com", "--first-name", "Sam",
		"--last-name", "Ortiz", "--base-url", srv.base)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	link := lines[len(lines)-1]

	var sent *mailtest.Message
	for deadline := time.Now().Add(10 * time.Second); sent == nil; time.Sleep(50 * time.Millisecond) {
		for _, m := range relay.Messages() {
			if m.To == "TO:<sam.ortiz@example.com>" {
				sent = &m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the invitation did not reach the relay; stderr: %s", srv.stderr)
		}
	}
	msg, err := mail.ReadMessage(strings.NewReader(sent.Data))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if !strings.Contains(string(body), "\n"+link+"\n") || sent.Auth != "\x00portal\x00relay-Secret-4242" ||
		msg.Header.Get("From") != `"Acme Hiring" <hiring@acme.example>` {
		t.Errorf("relay got From %q, auth %q, body %q; want the link %s", msg.Header.Get("From"), sent.Auth, body, link)
	}

	outbox := runPortal(t, "outbox", "--data", srv.data)
	if !strings.Contains(outbox, "(sent ") || !strings.Contains(outbox, "To: sam.ortiz@example.com\nSubject: You're invited to complete your background check for ") {
		t.Errorf("portal outbox = %q; want the invitation sent", outbox)
	}
	// Delivered, the mail keeps no copy of its link.
	if strings.Contains(outbox, link) || !strings.Contains(outbox, "(body removed after delivery)") {
		t.Errorf("portal outbox = %q; want the sent invitation's body removed", outbox)
	}
	srv.stop(t)
	if strings.Contains(srv.stderr.String(), "relay-Secret-4242") {
		t.Error("the SMTP password was logged")
	}
}
