package main_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

// TestListingsShowTerminalEscapesAsText: a company name, an applicant's
// name or an API key's name holding terminal escapes (ESC [ 31m, a
// cursor move, a right-to-left override) prints with each control
// character shown as U+FFFD, in every listing of outside text: the
// outbox, company list, applicant list and show, chat list, API key list.
func TestListingsShowTerminalEscapesAsText(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	const evil = "Evil\x1b[31m Corp\x1b[2J\u202e"
	c := &portal.Company{Name: evil}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	ops := db.Operator()
	res, err := ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{BaseURL: "https://portal.example.com",
		NewSubject: portal.NewSubject{CompanyID: c.ID, Email: "sam@example.com", FirstName: "Sam", LastName: "Lee"}})
	if err != nil {
		t.Fatal(err)
	}
	// The names as another writer (an older version, an import) may have
	// stored them, past today's checks.
	if _, err := db.SQL().Exec(`UPDATE subjects SET first_name = $1, last_name = $2, username = $3 WHERE id = $4`,
		"Sam\x1b]0;owned\x07", "Lee\x1b[1A", "sam\x1b[8m@example.com", res.Subject.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`UPDATE outbox SET last_error = $1`, "relay said \x1b[5m no"); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.Companies.SetCompanyPreference(ctx, c.ID, portal.PrefSubjectChat, "true"); err != nil {
		t.Fatal(err)
	}
	// The reply is signed with the company's name.
	if _, err := ops.Chat.ReplyChat(ctx, portal.ChatReply{SubjectID: res.Subject.ID, Message: "Hello"}); err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(res.Subject.ID)
	for _, args := range [][]string{
		{"outbox"}, {"company", "list"}, {"applicant", "list"}, {"applicants"}, {"applicant", "show", "--subject", id},
		{"chat", "list"}, {"chat", "show", "--subject", id},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out := runPortal(t, append(args, "--data", data)...)
			if strings.ContainsAny(out, "\x1b\x07\u202e") {
				t.Errorf("portal %s printed a control character raw:\n%q", strings.Join(args, " "), out)
			}
			if !strings.Contains(out, "\uFFFD") {
				t.Errorf("portal %s shows no replaced character:\n%q", strings.Join(args, " "), out)
			}
		})
	}
}
