package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

const chatUsage = `Usage: portal chat list [--data DIR | --database-url URL] [--company ID]
       portal chat show [--data DIR | --database-url URL] --subject ID
       portal chat reply [--data DIR | --database-url URL] --subject ID --message TEXT [--file PATH] [--as NAME]

` + chatSummary + "\n"

const chatSummary = `The chat between applicants and their employer (company preference
company_subject_chat). list prints one line per conversation, the most recent
first: applicant id, name, e-mail, messages, messages not read by the employer,
and the time of the last. show prints one conversation, oldest first, and marks
the applicant's messages read. reply sends the employer's message (with an
optional attachment, under the applicants' upload rules), shows it in the
applicant's open chat at once, e-mails an applicant who is away, and prints
the message's id. Messages are sealed: the data key is needed (--data-key).`

func runChat(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("chat", args, chatUsage, stderr, "list", "show", "reply")
	switch word {
	case "list":
		return runChatList(ctx, args, stdout, stderr)
	case "show":
		return runChatShow(ctx, args, stdout, stderr)
	case "reply":
		return runChatReply(ctx, args, stdout, stderr)
	}
	return err
}

// chatFlags are the flags every chat command takes.
type chatFlags struct {
	*flags
	st      *storage
	dataKey string
}

func newChatFlags(name string, stderr io.Writer) *chatFlags {
	f := &chatFlags{flags: newFlags("chat "+name, chatSummary, stderr)}
	f.st = f.storage()
	f.StringVar(&f.dataKey, "data-key", "", "the data key serve uses (messages are sealed with it); empty means data.key in --data")
	return f
}

// open opens the database with the data key; the caller closes it.
func (f *chatFlags) open(ctx context.Context) (portal.OperatorServices, *store.DB, error) {
	db, err := openSealedStore(ctx, f.st, f.dataKey)
	if err != nil {
		return portal.OperatorServices{}, nil, err
	}
	return db.Operator(), db, nil
}

func chatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

func runChatList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newChatFlags("list", stderr)
	var companyID int64
	f.Int64Var(&companyID, "company", 0, "list only this company's conversations (default: every company's)")
	if err := f.parse(args); err != nil {
		return err
	}
	ops, db, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	threads, err := ops.Chat.ChatThreads(ctx, companyID)
	if err != nil {
		return describe(err)
	}
	if len(threads) == 0 {
		fmt.Fprintln(stdout, "No conversations.")
		return nil
	}
	for _, t := range threads {
		a := t.Applicant
		fmt.Fprintf(stdout, "%6d  %-30s  %-40s  %3d messages  %3d unread  last %s\n", a.ID,
			printable(strings.TrimSpace(a.FirstName+" "+a.LastName)), printable(a.Email), t.Messages, t.Unread, chatTime(t.Last.CreatedAt))
	}
	return nil
}

func runChatShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newChatFlags("show", stderr)
	var subjectID int64
	f.Int64Var(&subjectID, "subject", 0, "the applicant's id (portal chat list shows them)")
	if err := f.parse(args); err != nil {
		return err
	}
	if subjectID <= 0 {
		fmt.Fprint(stderr, chatUsage)
		return errors.New("portal chat show: give --subject")
	}
	ops, db, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	msgs, err := ops.Chat.ChatConversation(ctx, 0, subjectID)
	if err != nil {
		return describe(err)
	}
	if len(msgs) == 0 {
		fmt.Fprintf(stdout, "No messages with applicant %d.\n", subjectID)
		return nil
	}
	for i, m := range msgs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		who := "applicant"
		if m.Sender == portal.ChatSenderEmployer {
			who = "employer"
		}
		read := "unread"
		if m.ReadAt != nil {
			read = "read " + chatTime(*m.ReadAt)
		}
		fmt.Fprintf(stdout, "#%d  %s  %s (%s)  %s\n", m.ID, chatTime(m.CreatedAt), printable(m.SenderName), who, read)
		if m.Message != "" {
			fmt.Fprintf(stdout, "  %s\n", strings.ReplaceAll(printable(m.Message), "\n", "\n  "))
		}
		if m.File != nil {
			fmt.Fprintf(stdout, "  [attachment: %s, %d bytes, %s, file id %d]\n", printable(m.File.Name), m.File.Size, m.File.ContentType, m.File.ID)
		}
	}
	return nil
}

func runChatReply(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newChatFlags("reply", stderr)
	var subjectID int64
	var message, file, as string
	f.Int64Var(&subjectID, "subject", 0, "the applicant's id (portal chat list shows them)")
	f.StringVar(&message, "message", "", "the message's text (at most 5000 characters)")
	f.StringVar(&file, "file", "", "a file to attach (a PDF, an image or a document, at most 20 MB)")
	f.StringVar(&as, "as", "", "the name the applicant sees beside the message (default: the company's name)")
	if err := f.parse(args); err != nil {
		return err
	}
	if subjectID <= 0 {
		fmt.Fprint(stderr, chatUsage)
		return errors.New("portal chat reply: give --subject and --message (or --file)")
	}
	req := portal.ChatReply{SubjectID: subjectID, Message: message, SenderName: as}
	if file != "" {
		fh, err := os.Open(file) // #nosec G304 -- the operator's own file, named on the command line
		if err != nil {
			return err
		}
		defer fh.Close()
		req.File = &portal.Upload{Name: filepath.Base(file), Body: fh}
	}
	ops, db, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := ops.Chat.ReplyChat(ctx, req)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintln(stdout, m.ID)
	return nil
}
