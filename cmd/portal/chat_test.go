package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

func TestChatCommands(t *testing.T) {
	t.Parallel()
	data, files := t.TempDir(), t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	acme := &portal.Company{Name: "Acme"}
	acme.Preferences.SubjectChat = true
	globex := &portal.Company{Name: "Globex"}
	for _, c := range []*portal.Company{acme, globex} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	carl, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: globex.ID, Email: "carl@example.com", FirstName: "Carl", LastName: "Roe"})
	if err != nil {
		t.Fatal(err)
	}
	profile, err := db.Subjects().FindProfile(ctx, jane.ID)
	if err != nil {
		t.Fatal(err)
	}
	// An applicant's text may hold a terminal's escape sequences.
	if _, err := db.Chat(nil).SendChatMessage(ctx, jane.ID, profile.ID, "Is my check done?\n\x1b[2J second line", nil); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(jane.ID, 10)

	t.Run("ReplyReachesTheServersStreamsFromAnotherProcess", func(t *testing.T) {
		// This test process stands for `portal serve`.
		events, err := store.OpenEvents(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer events.Close()
		ch, cancel := events.Subscribe(ctx, portal.ChatTopic(jane.ID))
		defer cancel()
		out := runPortal(t, "chat", "reply", "--data", data, "--subject", id, "--message", "It is, <b>Jane</b>.", "--as", "Acme support")
		msgID, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
		if err != nil {
			t.Fatalf("reply printed %q, want the message id", out)
		}
		select {
		case e, ok := <-ch:
			var got portal.ChatEvent
			if !ok || json.Unmarshal(e.Payload, &got) != nil || got != (portal.ChatEvent{Kind: "message", MessageID: msgID, Sender: "employer"}) {
				t.Errorf("event %s (open %v), want message %d from the employer", e.Payload, ok, msgID)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no event from the reply within 5 s")
		}
		// Jane wrote a moment ago: she is present, and not e-mailed.
		if mails, _ := db.Outbox(ctx); len(mails) != 0 {
			t.Errorf("outbox = %+v; want none", mails)
		}
	})

	t.Run("ReplyWithAFile", func(t *testing.T) {
		png := filepath.Join(files, "next steps.png")
		os.WriteFile(png, append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...), 0o600)
		out := runPortal(t, "chat", "reply", "--data", data, "--subject", id, "--file", png)
		if _, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64); err != nil {
			t.Fatalf("reply printed %q", out)
		}
	})

	t.Run("List", func(t *testing.T) {
		out := runPortal(t, "chat", "list", "--data", data)
		fields := strings.Fields(out)
		if len(strings.Split(strings.TrimSpace(out), "\n")) != 1 || len(fields) < 10 || fields[0] != id || fields[1] != "Jane" || fields[2] != "Doe" ||
			fields[3] != "jane@example.com" || fields[4] != "3" || fields[6] != "1" || fields[8] != "last" {
			t.Errorf("list = %q", out)
		}
		if out := runPortal(t, "chat", "list", "--data", data, "--company", strconv.FormatInt(globex.ID, 10)); out != "No conversations.\n" {
			t.Errorf("Globex's list = %q", out)
		}
	})

	t.Run("ShowMarksReadAndKeepsTheTerminalSafe", func(t *testing.T) {
		out := runPortal(t, "chat", "show", "--data", data, "--subject", id)
		for _, want := range []string{
			"Jane Doe (applicant)  unread\n  Is my check done?\n  \uFFFD[2J second line\n",
			"Acme support (employer)  unread\n  It is, <b>Jane</b>.\n",
			"Acme (employer)  unread\n  [attachment: next steps.png, 108 bytes, image/png, file id ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("show lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "\x1b") {
			t.Error("show printed an escape character")
		}
		out = runPortal(t, "chat", "show", "--data", data, "--subject", id)
		if !strings.Contains(out, "Jane Doe (applicant)  read ") {
			t.Errorf("the applicant's message is not read after show:\n%s", out)
		}
		if out := runPortal(t, "chat", "list", "--data", data); strings.Fields(out)[6] != "0" {
			t.Errorf("list after show = %q, want 0 unread", out)
		}
	})

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrNoSubject", []string{"reply", "--message", "hi"}, "give --subject"},
		{"ErrEmptyMessage", []string{"reply", "--subject", id, "--message", "  "}, "message: Write a message or attach a file."},
		{"ErrTooLong", []string{"reply", "--subject", id, "--message", strings.Repeat("x", 5001)}, "message: A message is at most 5000 characters."},
		{"ErrUnknownApplicant", []string{"reply", "--subject", "98765", "--message", "hi"}, "Applicant not found."},
		{"ErrChatOff", []string{"reply", "--subject", strconv.FormatInt(carl.ID, 10), "--message", "hi"}, "Chat is off for Globex"},
		{"ErrNoSuchFile", []string{"reply", "--subject", id, "--file", filepath.Join(files, "missing.pdf")}, "no such file"},
		{"ErrShowUnknownApplicant", []string{"show", "--subject", "98765"}, "Applicant not found."},
		{"ErrUnknownWord", []string{"delete"}, "say list or show or reply"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"chat", tt.args[0]}, tt.args[1:]...)
			if tt.args[0] != "delete" {
				args = append([]string{"chat", tt.args[0], "--data", data}, tt.args[1:]...)
			}
			if stderr := runPortalFails(t, args...); !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q, want %q", stderr, tt.want)
			}
		})
	}
}
