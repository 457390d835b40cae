package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// rotationWorld is a legal world whose company chats, for the key rotation
// tests: it writes every kind of sealed value.
type rotationWorld struct {
	*legalWorld
	ops portal.OperatorServices
}

func newRotationWorld(t *testing.T, db *store.DB) *rotationWorld {
	t.Helper()
	w := &rotationWorld{legalWorld: newLegalWorld(t, db), ops: db.Operator()}
	if _, err := db.SQL().Exec(`UPDATE companies SET subject_chat = TRUE WHERE id = $1`, w.company.ID); err != nil {
		t.Fatal(err)
	}
	w.dotRelease(t, w.jane, portal.SignatureFields{LastFourSSN: "4321"})
	return w
}

// writeEach writes one value of every sealed kind, the i-th: personal
// information, a signature with its image (unless !sign), a chat message
// with an upload, a draft and a mail.
func (w *rotationWorld) writeEach(t *testing.T, i int, sign bool) error {
	ctx := context.Background()
	if err := w.db.Personal().SavePersonalInfo(ctx, w.jane.ID, &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe",
		SSN: fmt.Sprintf("123-45-%04d", 1000+i), DOB: "1990-04-12"}); err != nil {
		return fmt.Errorf("personal information: %w", err)
	}
	dot := w.docs[portal.DocDOTRelease]
	if !sign {
	} else if w.file(t, w.john.ID).Signed(dot) {
		if err := w.db.Legal().DeleteSignature(ctx, w.john.ID, dot); err != nil {
			return fmt.Errorf("delete signature: %w", err)
		}
	}
	req := fullRequest(t, w.john)
	req.LastFourSSN = fmt.Sprintf("%04d", i)
	if sign {
		sigs, err := w.prepare(t, w.john.ID, dot, req, "203.0.113.9")
		if err != nil {
			return fmt.Errorf("signature: %w", err)
		}
		if err := w.db.Legal().SignLegalStep(ctx, w.john.ID, sigs); err != nil {
			return fmt.Errorf("signature: %w", err)
		}
	}
	if _, err := w.ops.Chat.ReplyChat(ctx, portal.ChatReply{SubjectID: w.jane.ID, Message: fmt.Sprintf("message %d", i),
		File: &portal.Upload{Name: fmt.Sprintf("scan-%d.png", i), ContentType: "image/png", Body: bytes.NewReader(pngBytes(3000))}}); err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	if _, err := w.db.Drafts().SaveDraft(ctx, w.jane.ID, portal.DraftPersonal, fields(t, "ssn", fmt.Sprintf(`"123-45-%04d"`, i))); err != nil {
		return fmt.Errorf("draft: %w", err)
	}
	if _, err := w.ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{BaseURL: "https://portal.example.com",
		NewSubject: portal.NewSubject{CompanyID: w.company.ID, Email: fmt.Sprintf("applicant%d@example.com", i), FirstName: "Riley", LastName: "Stone"}}); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	return nil
}

// readEverything reads back every sealed value the world wrote, through db.
func readEverything(t *testing.T, db *store.DB, w *rotationWorld, mails int) {
	t.Helper()
	ctx := context.Background()
	if p, err := db.Personal().FindPersonalInfo(ctx, w.jane.ID); err != nil || p == nil || p.DOB != "1990-04-12" {
		t.Errorf("personal information: %+v, %v", p, err)
	}
	for _, s := range []*portal.Subject{w.jane, w.john} {
		f, err := db.Legal().FindLegalDocuments(ctx, s.ID)
		if err != nil {
			t.Fatalf("%s's signatures: %v", s.FirstName, err)
		}
		if sig := f.Signatures[w.docs[portal.DocDOTRelease]]; sig == nil || !bytes.HasPrefix(sig.SignatureData, pngMagic) || sig.Fields.LastFourSSN == "" {
			t.Errorf("%s's DOT release read back as %+v", s.FirstName, sig)
		}
	}
	msgs, err := db.Operator().Chat.ChatConversation(ctx, 0, w.jane.ID)
	if err != nil || len(msgs) == 0 {
		t.Fatalf("chat: %d messages, %v", len(msgs), err)
	}
	for _, m := range msgs {
		if m.File == nil {
			continue
		}
		f, rc, err := db.Operator().Chat.OpenChatAttachment(ctx, 0, w.jane.ID, m.File.ID)
		if err != nil {
			t.Fatalf("attachment of %q: %v", m.Message, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || len(b) != 3008 || f.Name == "" {
			t.Errorf("attachment of %q: %d bytes named %q, %v", m.Message, len(b), f.Name, err)
		}
	}
	if d, err := db.Drafts().FindDraft(ctx, w.jane.ID, portal.DraftPersonal); err != nil || d == nil || len(d.Fields) == 0 {
		t.Errorf("draft: %+v, %v", d, err)
	}
	out, err := db.Outbox(ctx)
	if err != nil || len(out) < mails {
		t.Fatalf("outbox: %d mails, %v; want at least %d", len(out), err, mails)
	}
	for _, m := range out {
		if m.Body == "" && !m.BodyRemoved {
			t.Errorf("mail %d to %s has no body", m.ID, m.To)
		}
	}
}

// wantAllUnder fails unless every sealed value is under key.
func wantAllUnder(t *testing.T, db *store.DB, key string) {
	t.Helper()
	st, err := db.KeyStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Rotating != "" {
		t.Errorf("a rotation to %s is still recorded as under way", st.Rotating)
	}
	for _, c := range st.Columns {
		if c.Key != key {
			t.Errorf("%d values of %s are under %s; want every one under %s", c.Count, c.Column, c.Key, key)
		}
	}
}

func mustKey(t *testing.T) []byte {
	t.Helper()
	k := make([]byte, seal.KeySize)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

func mustLoadSealer(t *testing.T, dir string) *seal.Sealer {
	t.Helper()
	s, err := seal.Load("", dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKeyRotationUnderWrites: a rotation reseals every sealed value while
// a serving process keeps writing every kind, that process following
// data.key; afterwards the new key alone opens everything.
func TestKeyRotationUnderWrites(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(cfg store.Config) *store.DB) {
		ctx := context.Background()
		dir := t.TempDir()
		cfg := storetest.Config(t)
		cfg.Now = func() time.Time { return legalClock }
		cfg.Sealer = mustLoadSealer(t, dir) // the serving process's
		serving := open(cfg)
		w := newRotationWorld(t, serving)
		for i := range 3 {
			if err := w.writeEach(t, i, true); err != nil {
				t.Fatal(err)
			}
		}
		old := cfg.Sealer.Fingerprint()
		oldKeys, err := seal.LoadKeys("", dir)
		if err != nil {
			t.Fatal(err)
		}

		newKey, err := seal.AddKeyFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		rotatorCfg := cfg
		rotatorCfg.Sealer = mustLoadSealer(t, dir)
		rotator := open(rotatorCfg)
		// Another instance that goes on sealing with the old key for the
		// first half second of the rotation, holding the new one to open
		// only (PORTAL_DATA_KEY=old,new, as the procedure rolls out first):
		// later passes reseal what it wrote.
		ring, err := seal.LoadKeys("", dir)
		if err != nil {
			t.Fatal(err)
		}
		laggingCfg := cfg
		if laggingCfg.Sealer, err = seal.NewRing([][]byte{oldKeys[0], ring[0]}); err != nil {
			t.Fatal(err)
		}
		lagging := open(laggingCfg)
		lw := *w.legalWorld
		lw.db = lagging
		laggingWorld := &rotationWorld{legalWorld: &lw, ops: lagging.Operator()}

		stop := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		var writeErr error
		writes, laggingWrites := 3, 0
		record := func(err error, n *int) {
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				*n++
			} else if writeErr == nil {
				writeErr = err
			}
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := 3; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				record(w.writeEach(t, i, true), &writes)
			}
		}()
		go func() {
			defer wg.Done()
			for i, until := 1000, time.Now().Add(500*time.Millisecond); time.Now().Before(until); i++ {
				record(laggingWorld.writeEach(t, i, false), &laggingWrites)
			}
		}()
		rep, err := rotator.RotateKeys(ctx, store.RotateOptions{Settle: seal.FileCheckInterval + 300*time.Millisecond, BatchSize: 4})
		close(stop)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if writeErr != nil {
			t.Fatalf("a write during the rotation: %v", writeErr)
		}
		if rep.Key != newKey || len(rep.Unopened) != 0 || len(rep.Left) != 0 {
			t.Errorf("rotation = %+v; want values resealed under %s, none unopened or left", rep, newKey)
		}
		// Chat messages are never rewritten: each one sealed with the old
		// key, before the rotation or by the lagging instance during it,
		// was resealed once (and some of the serving process's, written
		// before it looked at data.key again).
		if got, least := rep.Resealed["chat_messages.body"], 3+laggingWrites; laggingWrites == 0 || got < least || got > least+writes-3 {
			t.Errorf("%d chat messages resealed; want the 3 written before, the %d the lagging instance wrote and at most the %d the serving one wrote", got, laggingWrites, writes-3)
		}
		writes += laggingWrites
		if old == newKey || cfg.Sealer.Fingerprint() != newKey {
			t.Errorf("the serving process seals with %s; want the new key %s", cfg.Sealer.Fingerprint(), newKey)
		}

		t.Run("NothingLeftUnderTheOldKey", func(t *testing.T) { wantAllUnder(t, rotator, newKey) })
		t.Run("ServingProcessReadsEverything", func(t *testing.T) { readEverything(t, serving, w, writes) })
		t.Run("NewKeyAloneOpensEverything", func(t *testing.T) {
			keys, err := seal.LoadKeys("", dir)
			if err != nil {
				t.Fatal(err)
			}
			only, err := seal.New(keys[0])
			if err != nil {
				t.Fatal(err)
			}
			c := cfg
			c.Sealer = only
			readEverything(t, open(c), w, writes) // opening checks the data key too
		})
		t.Run("OldKeyAloneNoLongerOpens", func(t *testing.T) {
			keys, err := seal.LoadKeys("", dir)
			if err != nil {
				t.Fatal(err)
			}
			c := cfg
			if c.Sealer, err = seal.New(keys[1]); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Open(ctx, c); err == nil {
				t.Error("the database opened with the old key alone")
			}
		})
	})
}

// TestKeyRotationResumesAfterAStop: a rotation stopped midway records how
// far it came; the next run resumes there and finishes, and a run with
// nothing left reseals nothing.
func TestKeyRotationResumesAfterAStop(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(cfg store.Config) *store.DB) {
		ctx := context.Background()
		oldKey, newKey := mustKey(t), mustKey(t)
		cfg := storetest.Config(t)
		cfg.Now = func() time.Time { return legalClock }
		var err error
		if cfg.Sealer, err = seal.New(oldKey); err != nil {
			t.Fatal(err)
		}
		db := open(cfg)
		w := newRotationWorld(t, db)
		for i := range 2 {
			if err := w.writeEach(t, i, true); err != nil {
				t.Fatal(err)
			}
		}
		before, err := db.KeyStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		values := 0
		for _, c := range before.Columns {
			values += c.Count
		}

		if cfg.Sealer, err = seal.NewRing([][]byte{newKey, oldKey}); err != nil {
			t.Fatal(err)
		}
		rotator := open(cfg)
		stopCtx, cancel := context.WithCancel(ctx)
		batches, resealed := 0, 0
		_, err = rotator.RotateKeys(stopCtx, store.RotateOptions{BatchSize: 2, AfterBatch: func(_ string, n int) {
			resealed += n
			if batches++; batches == 3 {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the stopped rotation: %v; want context.Canceled", err)
		}
		st, err := rotator.KeyStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		under := map[string]int{}
		for _, c := range st.Columns {
			under[c.Key] += c.Count
		}
		newID := seal.Fingerprint(newKey)
		if st.Rotating != newID || under[newID] != resealed || under[seal.Fingerprint(oldKey)] != values-resealed || resealed == 0 {
			t.Fatalf("after the stop: rotating %q, %v under each key, %d resealed; want a rotation to %s recorded midway", st.Rotating, under, resealed, newID)
		}

		rep, err := rotator.RotateKeys(ctx, store.RotateOptions{BatchSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Resumed || rep.Total() != values-resealed {
			t.Errorf("the resumed rotation: resumed %v, %d resealed; want it resumed and %d resealed", rep.Resumed, rep.Total(), values-resealed)
		}
		wantAllUnder(t, rotator, newID)

		again, err := rotator.RotateKeys(ctx, store.RotateOptions{})
		if err != nil || again.Total() != 0 || again.Resumed || len(again.Left) != 0 {
			t.Errorf("a run with nothing left: %+v, %v; want nothing resealed", again, err)
		}
		readEverything(t, rotator, w, 2)

		t.Run("AValueThatDoesNotOpenIsLeftAndReported", func(t *testing.T) {
			altered := append(append([]byte{3}, mustHex(t, seal.Fingerprint(oldKey))...), bytes.Repeat([]byte{7}, 40)...)
			if _, err := db.SQL().Exec(`UPDATE chat_messages SET body = $1 WHERE id = (SELECT MIN(id) FROM chat_messages)`, altered); err != nil {
				t.Fatal(err)
			}
			rep, err := rotator.RotateKeys(ctx, store.RotateOptions{})
			if err != nil || rep.Unopened["chat_messages.body"] != 1 || rep.Total() != 0 || len(rep.Left) != 0 {
				t.Fatalf("rotation = %+v, %v; want the altered value reported as not opening and nothing left", rep, err)
			}
		})
	})
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
