package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// viewInstance is one `portal serve` over a shared database: its own store
// handle, events and server (so its own subject view cache).
type viewInstance struct {
	db      *store.DB
	handler http.Handler
}

func newViewInstance(t *testing.T, db *store.DB, withEvents bool) *viewInstance {
	t.Helper()
	var events portal.Events
	if withEvents {
		ev, err := store.OpenEvents(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ev.Close() })
		events = ev
	}
	srv, err := httpapi.New(httpapi.Config{ClientID: "spa", ClientSecret: "spa-secret"}, storeServices(db, events), testIndex, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &viewInstance{db: db, handler: srv.Handler()}
}

func (in *viewInstance) send(t *testing.T, token, method, path string, body []byte) []byte {
	t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.RemoteAddr = "192.0.2.1:4242"
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	in.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// TestSubjectViewCacheFollowsWrites: two instances on one database, each
// with its subject view cache, and a bare store handle (an operator
// command). After a write through either instance or the command, both
// answer at once what a server with no cache answers; a change of the
// legal documents (the catalog) is seen within its events' bound; and
// without events no answer is kept.
func TestSubjectViewCacheFollowsWrites(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, openDB func(cfg store.Config) *store.DB) {
		ctx := context.Background()
		cfg := storetest.Config(t)
		cli := openDB(cfg)
		token := demoAccessToken(t, cli)
		a, b := newViewInstance(t, openDB(cfg), true), newViewInstance(t, openDB(cfg), true)
		const view = "/api/v2/user/subject"
		// fresh is the answer of a server that keeps nothing (no events).
		fresh := func() []byte {
			t.Helper()
			return newViewInstance(t, cli, false).send(t, token, http.MethodGet, view, nil)
		}
		bothAnswerFresh := func(after string) {
			t.Helper()
			want := fresh()
			for name, in := range map[string]*viewInstance{"a": a, "b": b} {
				if got := in.send(t, token, http.MethodGet, view, nil); !bytes.Equal(got, want) {
					t.Errorf("after %s, instance %s answers\n%s\nwant\n%s", after, name, got, want)
				}
			}
		}
		address := func(street string) []byte {
			return []byte(`{"addresses":[` +
				`{"country":"US","street1":"` + street + `","street2":"","city":"Washington","state":"US-DC","zip":"20500","from":"2021-03","to":"","current":true},` +
				`{"country":"US","street1":"350 Fifth Avenue","street2":"Apt 4","city":"New York","state":"US-NY","zip":"10118","from":"2015-01","to":"2021-03","current":false}` +
				`],"draft":false}`)
		}
		var subjectID int64
		if err := cli.SQL().QueryRowContext(ctx, `SELECT MIN(subject_id) FROM legal_signatures`).Scan(&subjectID); err != nil {
			t.Fatal(err)
		}
		writes := []struct {
			name  string
			write func()
		}{
			{"an address history saved through instance a", func() {
				a.send(t, token, http.MethodPut, "/api/v2/user/subject/address", address("1 First Street"))
			}},
			{"an address history saved through instance b", func() {
				b.send(t, token, http.MethodPut, "/api/v2/user/subject/address", address("2 Second Street"))
			}},
			{"the employment location set by an operator command", func() {
				if err := cli.SetEmploymentLocation(ctx, subjectID, portal.Place{State: "US-NY"}); err != nil {
					t.Fatal(err)
				}
			}},
			{"the personal information deleted by hand (the triggers see every write)", func() {
				if _, err := cli.SQL().ExecContext(ctx, `DELETE FROM personal_info WHERE subject_id = $1`, subjectID); err != nil {
					t.Fatal(err)
				}
			}},
		}
		for _, w := range writes {
			before := a.send(t, token, http.MethodGet, view, nil) // kept
			b.send(t, token, http.MethodGet, view, nil)
			w.write()
			bothAnswerFresh(w.name)
			if bytes.Equal(before, fresh()) {
				t.Errorf("%s: the view did not change, so the test proves nothing", w.name)
			}
		}

		// A legal document changed by an operator command (the catalog):
		// seen within the events' bound.
		time.Sleep(3 * store.EventPoll)
		before := a.send(t, token, http.MethodGet, view, nil)
		var companyID int64
		if err := cli.SQL().QueryRowContext(ctx, `SELECT company_id FROM subjects WHERE id = $1`, subjectID).Scan(&companyID); err != nil {
			t.Fatal(err)
		}
		d := &portal.LegalDocument{CompanyID: companyID, Title: "Disclosure, new", Content: "<p>New</p>",
			Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Code: "disclosure_new", Visibility: portal.VisibilityAll, Editable: true}}
		if _, err := cli.SaveLegalDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
		want := fresh()
		if bytes.Equal(before, want) {
			t.Fatal("the new legal document did not change the view, so the test proves nothing")
		}
		for end := time.Now().Add(2 * time.Second); !bytes.Equal(a.send(t, token, http.MethodGet, view, nil), want); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatal("the changed legal document not seen within 2s")
			}
		}
	})
}

// TestSubjectViewCacheNeedsEvents: without events nothing is kept, so a
// change no event tells of (a legal document retitled by hand) is read at
// once; with them the answer is kept (which proves the cache is used).
func TestSubjectViewCacheNeedsEvents(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		token := demoAccessToken(t, db)
		const view = "/api/v2/user/subject"
		// An unsigned document the checklist names, retitled by hand.
		if _, err := db.SQL().ExecContext(ctx, `DELETE FROM legal_signatures`); err != nil {
			t.Fatal(err)
		}
		retitle := func(title string) {
			t.Helper()
			if _, err := db.SQL().ExecContext(ctx, `UPDATE legal_documents SET title = $1`, title); err != nil {
				t.Fatal(err)
			}
		}
		for _, withEvents := range []bool{false, true} {
			retitle("Before")
			in := newViewInstance(t, db, withEvents)
			time.Sleep(3 * store.EventPoll)
			first := in.send(t, token, http.MethodGet, view, nil)
			if !bytes.Contains(first, []byte("Before")) {
				t.Fatalf("the view does not name the unsigned documents: %s", first)
			}
			retitle("After")
			if got := in.send(t, token, http.MethodGet, view, nil); bytes.Equal(got, first) != withEvents {
				t.Errorf("with events %v: answer kept = %v", withEvents, bytes.Equal(got, first))
			}
		}
	})
}
