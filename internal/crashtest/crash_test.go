package crashtest_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/demo"
	"applicantportal/internal/store/storetest"

	_ "modernc.org/sqlite"
)

// How long the crash test runs, and how it can be made to run longer:
// PORTAL_CRASH_CYCLES kills per database (default crashCycles), and
// PORTAL_CRASH_SEED the seed of the kill moments and of the writes (a
// failure logs the seed it ran with).
const (
	crashCycles = 4
	// A kill comes at a random moment up to this long after every writer
	// of the cycle has had a write acknowledged (or has nothing left to
	// write): each kind is written in every cycle however loaded the
	// machine, and many writes are in flight at the kill.
	maxRunBeforeKill = time.Second
	// How long the writers may take to get going before the test gives up.
	writersStartWithin = time.Minute
	// Chat messages and uploads only grow, and each is read back after
	// every restart: a few per writer and cycle are plenty.
	appendsPerCycle = 6
)

// TestAcknowledgedWritesSurviveSIGKILL runs the real binary with three
// applicants writing concurrently (personal information, address
// history, other names, a draft, a preparation mark, chat messages,
// uploads, legal signatures and a status move), kills it with SIGKILL at
// a random moment, restarts it on the same data and reads everything
// back: each write the server acknowledged (2xx) must be there with what
// was sent (the latest acknowledged value of a resource, or a write in
// flight at the kill, never anything else), and nothing half written.
// After the last kill SQLite's integrity_check and foreign_key_check must
// pass, and `portal audit verify` too: a
// kill between an act and its audit row would break the chain.
func TestAcknowledgedWritesSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the real binary for several seconds: not with -short")
	}
	// Beside the two-instance test, which mostly waits.
	t.Parallel()
	t.Run("SQLite", func(t *testing.T) {
		d := sqliteDeployment(t)
		crashUnderWrites(t, d, func(t *testing.T) { checkSQLiteIntegrity(t, filepath.Join(d.dataDir, "portal.db")) })
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		if os.Getenv(storetest.EnvURL) == "" {
			t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
		}
		crashUnderWrites(t, postgresDeployment(t, storetest.Database(t, os.Getenv(storetest.EnvURL))), nil)
	})
}

func crashUnderWrites(t *testing.T, d *deployment, afterLastKill func(t *testing.T)) {
	cycles := envInt(t, "PORTAL_CRASH_CYCLES", crashCycles)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PORTAL_CRASH_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("PORTAL_CRASH_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (PORTAL_CRASH_SEED=%d reproduces the kill moments), %d kills", seed, seed, cycles)
	random := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	started := time.Now()

	p := d.start(t)
	c := newAPI(p.base)
	apps := setUpApplicants(t, d, c)
	var acked, unknown int
	byKind := map[string]int{}
	for cycle := 1; cycle <= cycles; cycle++ {
		// What the last instance acknowledged is there before anyone
		// writes again (the first time: what the set-up left).
		for _, a := range apps {
			a.verify(t, c)
		}
		if t.Failed() {
			t.Fatalf("cycle %d: reads after the restart disagree with the acknowledged writes (seed %d)", cycle, seed)
		}
		ctx, stopWriting := context.WithCancel(context.Background())
		var wg, going sync.WaitGroup
		for _, a := range apps {
			a.startWriters(ctx, t, c, cycle, &wg, &going)
		}
		if !waitFor(&going, writersStartWithin) {
			t.Errorf("cycle %d: not every writer had a write acknowledged within %v", cycle, writersStartWithin)
		}
		time.Sleep(time.Duration(random.Int64N(int64(maxRunBeforeKill))))
		p.kill()
		stopWriting()
		wg.Wait()
		c.close()
		for _, a := range apps {
			acked += a.acked
			unknown += a.unknown
			a.acked, a.unknown = 0, 0
		}
		if cycle == cycles && afterLastKill != nil {
			afterLastKill(t)
		}
		p = d.start(t)
		c = newAPI(p.base)
	}
	for _, a := range apps {
		a.verify(t, c)
		a.wantWrittenOnce(t)
		for kind, n := range a.ackedByKind {
			byKind[kind] += n
		}
	}
	p.stop(t)
	verifyAuditChain(t, d)
	t.Logf("%d kills, %d writes acknowledged, %d in flight at a kill (kept or not), in %v",
		cycles, acked, unknown, time.Since(started).Round(10*time.Millisecond))
	t.Logf("acknowledged, by kind: %v", byKind)
	for _, kind := range writeKinds {
		if byKind[kind] == 0 {
			t.Errorf("no %s write was acknowledged over the run: the test proves nothing of them", kind)
		}
	}
}

// waitFor waits for wg, at most d; false when it timed out.
func waitFor(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive whole number", name, s)
	}
	return n
}

// checkSQLiteIntegrity opens the database the killed process left, as the
// next start would, and runs SQLite's own checks.
func checkSQLiteIntegrity(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`PRAGMA integrity_check`)
	if err != nil {
		t.Fatalf("integrity_check: %v", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		rows.Scan(&line)
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if len(problems) > 0 {
		t.Errorf("PRAGMA integrity_check after the kill: %q", problems)
	}
	rows, err = db.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatalf("foreign_key_check: %v", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, parent string
		var rowid, fk sql.NullInt64
		rows.Scan(&table, &rowid, &parent, &fk)
		t.Errorf("PRAGMA foreign_key_check after the kill: %s row %v points at a missing %s", table, rowid.Int64, parent)
	}
}

// verifyAuditChain runs `portal audit verify`, which exits non-zero on a
// broken chain.
func verifyAuditChain(t *testing.T, d *deployment) {
	t.Helper()
	if out, err := d.tryCLI("audit", "verify"); err != nil {
		t.Errorf("portal audit verify after the kills: %v\n%s", err, out)
	} else {
		t.Logf("portal audit verify: %s", strings.TrimSpace(out))
	}
}

// --- The applicants and what they write ------------------------------------------------------------

// applicant is one logged-in applicant and what was written for them: each
// resource has one writer at a time, so "the latest acknowledged value"
// is well defined.
type applicant struct {
	name        string
	first, last string
	email       string
	token       string
	profile     int64
	ssn         string // what the personal information sends; "" keeps the one on file
	registers   []*register
	chat        *appendLog
	uploads     *appendLog // nil: not allowed to upload (before setup-complete)
	legal       *signatures
	statusMove  *statusMove

	acked, unknown int            // this cycle's writes, summed by the test
	ackedByKind    map[string]int // every acknowledged write, by what it wrote
	mu             sync.Mutex
}

func (a *applicant) count(what string, o outcome) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch o {
	case written:
		a.acked++
		a.ackedByKind[what]++
	case inFlight:
		a.unknown++
	}
}

// setUpApplicants makes the three applicants: the demo applicant (set up,
// so they may upload), one invited applicant who signs legal documents,
// and one full-profile applicant whose status moves to Setup Complete.
func setUpApplicants(t *testing.T, d *deployment, c api) []*applicant {
	t.Helper()
	var demoTok tokens
	c.must(t, "POST", "/oauth/access_token", "", passwordGrant(demo.LoginEmail, demo.LoginPass), 200, &demoTok)
	casey := &applicant{name: "demo", first: "Casey", last: "Morgan", email: demo.LoginEmail, token: demoTok.AccessToken}
	casey.uploads = &appendLog{kind: uploadLog}

	invitedTok := inviteAndSetUp(t, d, c, "crash.signer@example.com", "Robin", "Signer")
	robin := &applicant{name: "signer", first: "Robin", last: "Signer", email: "crash.signer@example.com",
		token: invitedTok.AccessToken, ssn: "123456780", legal: &signatures{signed: map[int64]bool{}}}

	fullTok := inviteAndSetUp(t, d, c, "crash.full@example.com", "Avery", "Fullprofile", "--full-profile")
	avery := &applicant{name: "full", first: "Avery", last: "Fullprofile", email: "crash.full@example.com",
		token: fullTok.AccessToken, ssn: "234567891", statusMove: &statusMove{}}

	apps := []*applicant{casey, robin, avery}
	for _, a := range apps {
		a.profile = profileID(t, c, a.token)
		a.chat = &appendLog{kind: chatLog}
		a.ackedByKind = map[string]int{}
		for _, k := range registerKinds {
			a.registers = append(a.registers, &register{kind: k})
		}
	}
	// The starting values, before any write.
	for _, a := range apps {
		for _, r := range a.registers {
			v, err := r.kind.read(context.Background(), c, a)
			if err != nil {
				t.Fatalf("%s: read %s: %v", a.name, r.kind.name, err)
			}
			r.acked = v
		}
	}
	return apps
}

// writeKinds names every kind of write the test makes, as classify is told.
var writeKinds = func() []string {
	kinds := []string{"chat messages", "uploads", "legal signature", "status move"}
	for _, k := range registerKinds {
		kinds = append(kinds, k.name)
	}
	return kinds
}()

// outcome is what a write's answer says about it.
type outcome int

const (
	written  outcome = iota // 2xx: it must be there from now on
	inFlight                // no answer (the kill): it may be there or not, never half
	refused                 // 429 or 503: nothing was written
)

// classify turns an answer into an outcome; any other status fails the
// test: the writes are all valid.
func classify(t *testing.T, a *applicant, what string, status int, body []byte, err error, want int) outcome {
	var o outcome
	switch {
	case err != nil:
		o = inFlight
	case status == want:
		o = written
	case status == 429 || status == 503:
		o = refused
	default:
		t.Errorf("%s: %s answered %d, want %d: %.300s", a.name, what, status, want, body)
		o = refused
	}
	a.count(what, o)
	return o
}

// startWriters starts one writer per resource of the applicant; each
// writes until ctx ends, and calls its going (once, for the going
// WaitGroup) when a write of it is acknowledged or it ends.
func (a *applicant) startWriters(ctx context.Context, t *testing.T, c api, cycle int, wg, going *sync.WaitGroup) {
	start := func(write func(going func())) {
		going.Add(1)
		var once sync.Once
		done := func() { once.Do(going.Done) }
		wg.Go(func() {
			defer done()
			write(done)
		})
	}
	for _, r := range a.registers {
		start(func(going func()) { r.write(ctx, t, c, a, going) })
	}
	start(func(going func()) { a.chat.write(ctx, t, c, a, cycle, going) })
	if a.uploads != nil {
		start(func(going func()) { a.uploads.write(ctx, t, c, a, cycle, going) })
	}
	if a.legal != nil {
		start(func(going func()) { a.legal.write(ctx, t, c, a, going) })
	}
	if a.statusMove != nil {
		start(func(going func()) { a.statusMove.write(ctx, t, c, a) })
	}
}

// verify reads every resource back after a restart.
func (a *applicant) verify(t *testing.T, c api) {
	t.Helper()
	ctx := context.Background()
	for _, r := range a.registers {
		r.verify(ctx, t, c, a)
	}
	a.chat.verify(ctx, t, c, a)
	if a.uploads != nil {
		a.uploads.verify(ctx, t, c, a)
	}
	if a.legal != nil {
		a.legal.verify(ctx, t, c, a)
	}
	if a.statusMove != nil {
		a.statusMove.verify(ctx, t, c, a)
		// Documents may be uploaded from Setup Complete on.
		if a.statusMove.acked && a.uploads == nil {
			a.uploads = &appendLog{kind: uploadLog}
		}
	}
}

// wantWrittenOnce checks that the write-once resources were written at
// all over the run: a test that never signed proves nothing of signing.
func (a *applicant) wantWrittenOnce(t *testing.T) {
	t.Helper()
	if a.legal != nil && len(a.legal.signed) == 0 {
		t.Errorf("%s: no legal document was signed over the run", a.name)
	}
	if a.statusMove != nil && !a.statusMove.acked {
		t.Errorf("%s: the status never moved to Setup Complete over the run", a.name)
	}
}

// --- Resources with a latest value -----------------------------------------------------------------

// register is one resource whose latest write wins: the value read back
// must be the latest acknowledged one, or one sent since and not answered.
type register struct {
	kind  registerKind
	seq   int
	acked string
	maybe []string
}

type registerKind struct {
	name string
	// write is the request that sets the resource to a value made from seq.
	write func(a *applicant, seq int) (method, path string, body any, value string)
	read  func(ctx context.Context, c api, a *applicant) (string, error)
}

func (r *register) write(ctx context.Context, t *testing.T, c api, a *applicant, going func()) {
	for ctx.Err() == nil {
		r.seq++
		method, path, body, value := r.kind.write(a, r.seq)
		status, answer, err := c.do(ctx, method, path, a.token, body)
		switch classify(t, a, r.kind.name, status, answer, err, 200) {
		case written:
			r.acked, r.maybe = value, nil
			going()
		case inFlight:
			r.maybe = append(r.maybe, value)
		case refused:
			if status != 429 && status != 503 {
				return
			}
		}
	}
}

func (r *register) verify(ctx context.Context, t *testing.T, c api, a *applicant) {
	t.Helper()
	got, err := r.kind.read(ctx, c, a)
	if err != nil {
		t.Errorf("%s: read %s: %v", a.name, r.kind.name, err)
		return
	}
	if got != r.acked && !contains(r.maybe, got) {
		t.Errorf("%s: %s reads %q after the restart; the last acknowledged write was %q (in flight at the kill: %q): an acknowledged write was lost",
			a.name, r.kind.name, got, r.acked, r.maybe)
		return
	}
	r.acked, r.maybe = got, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// letters spells n in letters (a name takes no digits).
func letters(n int) string {
	var b []byte
	for n++; n > 0; n = (n - 1) / 26 {
		b = append([]byte{byte('a' + (n-1)%26)}, b...)
	}
	return string(b)
}

var registerKinds = []registerKind{
	{
		name: "personal information (PUT /api/v2/user)",
		write: func(a *applicant, seq int) (string, string, any, string) {
			maiden := "Maiden" + letters(seq)
			return "PUT", "/api/v2/user", map[string]any{
				"firstName": a.first, "noMiddleName": true, "middleName": "", "lastName": a.last,
				"mothersMaidenName": maiden, "ssn": a.ssn, "confirmSSN": a.ssn, "noSSN": false,
				"dob": "1990-04-12", "confirmDOB": "1990-04-12", "gender": "", "nameSuffix": "",
				"daytimeDialCode": "1", "daytimePhoneNumber": "202 456 1111", "eveningDialCode": "1", "eveningPhoneNumber": "",
				"identificationCountry": "", "countryIdentificationNumber": "",
				"driversLicenseNumber": "D1234567", "noDriversLicenseNumber": false, "driversLicenseState": "US-CA",
				"drugZip": "94103", "cdlRequired": false, "licenses": []any{},
				"primaryNotificationMethod": map[string]string{"type": "email", "email": a.email, "text": ""},
			}, maiden
		},
		read: func(ctx context.Context, c api, a *applicant) (string, error) {
			var user struct {
				Subject struct {
					PersonalInformation *struct {
						MothersMaidenName string `json:"mothersMaidenName"`
					} `json:"personalInformation"`
				} `json:"subject"`
			}
			if err := getJSON(ctx, c, "/api/v2/user", a.token, &user); err != nil {
				return "", err
			}
			if user.Subject.PersonalInformation == nil {
				return "", nil
			}
			return user.Subject.PersonalInformation.MothersMaidenName, nil
		},
	},
	{
		name: "address history (PUT /api/v2/user/subject/address)",
		write: func(a *applicant, seq int) (string, string, any, string) {
			street := fmt.Sprintf("%d Congress Ave", 100+seq)
			return "PUT", "/api/v2/user/subject/address", map[string]any{"draft": false, "addresses": []map[string]any{{
				"country": "US", "street1": street, "street2": "", "city": "Austin", "state": "US-TX", "zip": "78701",
				"from": time.Now().AddDate(-8, 0, 0).Format("2006-01"), "to": "", "current": true,
			}}}, street
		},
		read: func(ctx context.Context, c api, a *applicant) (string, error) {
			var got struct {
				Payload struct {
					Addresses []struct {
						Street1 string `json:"street1"`
					} `json:"addresses"`
				} `json:"payload"`
			}
			if err := getJSON(ctx, c, "/api/v2/user/subject/address", a.token, &got); err != nil {
				return "", err
			}
			if len(got.Payload.Addresses) == 0 {
				return "", nil
			}
			return got.Payload.Addresses[0].Street1, nil
		},
	},
	{
		name: "other names (PUT /api/v2/user/subject/alias)",
		write: func(a *applicant, seq int) (string, string, any, string) {
			first := "Alias" + letters(seq)
			return "PUT", "/api/v2/user/subject/alias", map[string]any{"aliases": []map[string]string{{
				"type": "previous", "firstName": first, "middleName": "", "lastName": "Crash", "suffix": "", "from": "", "to": "",
			}}}, first
		},
		read: func(ctx context.Context, c api, a *applicant) (string, error) {
			var got struct {
				Payload struct {
					Aliases []struct {
						FirstName string `json:"firstName"`
					} `json:"aliases"`
				} `json:"payload"`
			}
			if err := getJSON(ctx, c, "/api/v2/user/subject/alias", a.token, &got); err != nil {
				return "", err
			}
			if len(got.Payload.Aliases) == 0 {
				return "", nil
			}
			return got.Payload.Aliases[0].FirstName, nil
		},
	},
	{
		// The account form's draft: no other writer's save removes it.
		name: "draft (PUT /api/v2/user/drafts/account)",
		write: func(a *applicant, seq int) (string, string, any, string) {
			return "PUT", "/api/v2/user/drafts/account", map[string]any{"fields": map[string]any{"crash.seq": seq}}, strconv.Itoa(seq)
		},
		read: func(ctx context.Context, c api, a *applicant) (string, error) {
			status, body, err := c.do(ctx, "GET", "/api/v2/user/drafts/account", a.token, nil)
			if err != nil {
				return "", err
			}
			if status == 404 {
				return "", nil
			}
			var got struct {
				Payload struct {
					Fields map[string]json.Number `json:"fields"`
				} `json:"payload"`
			}
			if status != 200 {
				return "", fmt.Errorf("GET draft answered %d: %.300s", status, body)
			}
			if err := json.Unmarshal(body, &got); err != nil {
				return "", err
			}
			return got.Payload.Fields["crash.seq"].String(), nil
		},
	},
	{
		name: "preparation mark (PUT /api/v2/user/preparation/otherNames)",
		write: func(a *applicant, seq int) (string, string, any, string) {
			later := seq%2 == 1
			return "PUT", "/api/v2/user/preparation/otherNames", map[string]bool{"later": later}, strconv.FormatBool(later)
		},
		read: func(ctx context.Context, c api, a *applicant) (string, error) {
			var got struct {
				Items []struct {
					ID    string `json:"id"`
					Later bool   `json:"later"`
				} `json:"items"`
			}
			if err := getJSON(ctx, c, "/api/v2/user/preparation", a.token, &got); err != nil {
				return "", err
			}
			for _, it := range got.Items {
				if it.ID == "otherNames" {
					return strconv.FormatBool(it.Later), nil
				}
			}
			return "", fmt.Errorf("no otherNames item in the preparation")
		},
	},
}

func getJSON(ctx context.Context, c api, path, token string, out any) error {
	status, body, err := c.do(ctx, "GET", path, token, nil)
	if err != nil {
		return err
	}
	if status != 200 {
		return fmt.Errorf("GET %s answered %d: %.300s", path, status, body)
	}
	return json.Unmarshal(body, out)
}

// --- Resources that only grow ----------------------------------------------------------------------

// appendLog is a list that writes add to (chat messages, uploads): every
// acknowledged item must be there with what was sent, and any other item
// must be one that was in flight at a kill, whole.
type appendLog struct {
	kind  appendKind
	seq   int
	acked map[int64]string // the item's id -> the tag it was sent with
	maybe map[string]bool  // tags sent without an answer
}

type appendKind int

const (
	chatLog appendKind = iota
	uploadLog
)

func (l *appendLog) name() string {
	if l.kind == chatLog {
		return "chat messages"
	}
	return "uploads"
}

func (l *appendLog) write(ctx context.Context, t *testing.T, c api, a *applicant, cycle int, going func()) {
	if l.acked == nil {
		l.acked, l.maybe = map[int64]string{}, map[string]bool{}
	}
	for range appendsPerCycle {
		if ctx.Err() != nil {
			return
		}
		l.seq++
		tag := fmt.Sprintf("crash %s cycle %d item %d", a.name, cycle, l.seq)
		var status int
		var body []byte
		var err error
		if l.kind == chatLog {
			status, body, err = c.do(ctx, "POST", chatPath(a.profile), a.token, map[string]string{"message": tag})
		} else {
			status, body, err = c.do(ctx, "POST", "/api/v2/user/profile/documents", a.token,
				newUpload([][2]string{{"documentType", "other"}}, "crash.png", "image/png", pngWithTag(tag)))
		}
		switch classify(t, a, l.name(), status, body, err, 201) {
		case written:
			var item struct {
				ID int64 `json:"id"`
			}
			if err := json.Unmarshal(body, &item); err != nil || item.ID == 0 {
				t.Errorf("%s: %s: the answer has no id: %.300s", a.name, l.name(), body)
				return
			}
			l.acked[item.ID] = tag
			going()
		case inFlight:
			l.maybe[tag] = true
		case refused:
			if status != 429 && status != 503 {
				return
			}
		}
	}
}

func (l *appendLog) verify(ctx context.Context, t *testing.T, c api, a *applicant) {
	t.Helper()
	if l.acked == nil {
		l.acked, l.maybe = map[int64]string{}, map[string]bool{}
	}
	got, err := l.read(ctx, c, a)
	if err != nil {
		t.Errorf("%s: read %s: %v", a.name, l.name(), err)
		return
	}
	for id, tag := range l.acked {
		if got[id] != tag {
			t.Errorf("%s: %s: acknowledged item %d (%q) reads %q after the restart: an acknowledged write was lost",
				a.name, l.name(), id, tag, got[id])
		}
	}
	for id, tag := range got {
		if _, ok := l.acked[id]; ok {
			continue
		}
		if !l.maybe[tag] {
			t.Errorf("%s: %s: item %d reads %q, which no write sent: half written?", a.name, l.name(), id, tag)
			continue
		}
		l.acked[id] = tag
	}
	clear(l.maybe)
}

// read answers the applicant's items by id: a chat message's text, an
// upload's tag (its content after the PNG), read from the download.
func (l *appendLog) read(ctx context.Context, c api, a *applicant) (map[int64]string, error) {
	items := map[int64]string{}
	if l.kind == chatLog {
		var got struct {
			Payload []struct {
				ID      int64  `json:"id"`
				Message string `json:"message"`
				Sender  string `json:"sender"`
			} `json:"payload"`
		}
		if err := getJSON(ctx, c, chatPath(a.profile), a.token, &got); err != nil {
			return nil, err
		}
		for _, m := range got.Payload {
			if m.Sender == "subject" {
				items[m.ID] = m.Message
			}
		}
		return items, nil
	}
	var got struct {
		Documents []struct {
			ID int64 `json:"id"`
		} `json:"documents"`
	}
	if err := getJSON(ctx, c, "/api/v2/user/profile/documents", a.token, &got); err != nil {
		return nil, err
	}
	for _, d := range got.Documents {
		path := fmt.Sprintf("/api/v2/user/profile/documents/%d", d.ID)
		status, body, err := c.do(ctx, "GET", path, a.token, nil)
		if err != nil {
			return nil, err
		}
		if status != 200 {
			return nil, fmt.Errorf("GET %s answered %d: %.300s", path, status, body)
		}
		tag, ok := bytes.CutPrefix(body, samplePNG)
		if !ok {
			tag = []byte(fmt.Sprintf("<%d bytes that do not start with the PNG sent>", len(body)))
		}
		items[d.ID] = string(tag)
	}
	return items, nil
}

// --- Writes made once ------------------------------------------------------------------------------

// signatures signs the legal documents every applicant sees (the e-sign
// consent and the disclosure), each once.
type signatures struct {
	signed map[int64]bool // acknowledged, or read back signed
}

// signedTypes are the steps signed: both apply to everyone, and neither is
// the authorization, which must come last.
var signedTypes = map[string]bool{"e_sign": true, "disclosure": true}

type legalDocument struct {
	ID   int64 `json:"id"`
	Type struct {
		DocumentType string `json:"documentType"`
		Visibility   string `json:"visibility"`
	} `json:"type"`
	Signature json.RawMessage `json:"signature"`
}

func (d legalDocument) isSigned() bool {
	return len(d.Signature) > 0 && string(d.Signature) != "null"
}

func (s *signatures) write(ctx context.Context, t *testing.T, c api, a *applicant, going func()) {
	var docs []legalDocument
	if err := getJSON(ctx, c, "/api/v2/user/document", a.token, &docs); err != nil {
		return // the kill; the next cycle signs
	}
	for _, d := range docs {
		if !signedTypes[d.Type.DocumentType] || d.Type.Visibility != "all" || s.signed[d.ID] || d.isSigned() {
			continue
		}
		var text struct {
			ContentSha256 string `json:"contentSha256"`
		}
		if err := getJSON(ctx, c, fmt.Sprintf("/api/v2/document/%d", d.ID), a.token, &text); err != nil {
			return
		}
		body := map[string]any{"contentSha256": map[string]string{strconv.FormatInt(d.ID, 10): text.ContentSha256}}
		if d.Type.DocumentType == "e_sign" {
			body["firstName"], body["lastName"], body["ackConsent"], body["ackNotices"] = a.first, a.last, true, true
		} else {
			body["ackReceipt"], body["signature"] = true, signatureDataURL
		}
		status, answer, err := c.do(ctx, "POST", fmt.Sprintf("/api/v2/user/document/%d/signature", d.ID), a.token, body)
		if classify(t, a, "legal signature", status, answer, err, 201) != written {
			return
		}
		s.signed[d.ID] = true
		going()
	}
}

func (s *signatures) verify(ctx context.Context, t *testing.T, c api, a *applicant) {
	t.Helper()
	var docs []legalDocument
	if err := getJSON(ctx, c, "/api/v2/user/document", a.token, &docs); err != nil {
		t.Errorf("%s: read legal documents: %v", a.name, err)
		return
	}
	signedNow := map[int64]bool{}
	for _, d := range docs {
		if d.isSigned() {
			signedNow[d.ID] = true
		}
	}
	for id := range s.signed {
		if !signedNow[id] {
			t.Errorf("%s: legal document %d was signed (201) but reads unsigned after the restart: an acknowledged write was lost", a.name, id)
		}
	}
	for id := range signedNow {
		s.signed[id] = true
	}
}

// statusMove moves a full-profile applicant from New to Setup Complete
// (all such an applicant needs is the password).
type statusMove struct {
	acked bool
}

func (m *statusMove) write(ctx context.Context, t *testing.T, c api, a *applicant) {
	if m.acked {
		return
	}
	status, answer, err := c.do(ctx, "POST", "/api/v2/user/subject/status", a.token, map[string]int{"statusId": 1})
	if classify(t, a, "status move", status, answer, err, 200) == written {
		m.acked = true
	}
}

func (m *statusMove) verify(ctx context.Context, t *testing.T, c api, a *applicant) {
	t.Helper()
	var user struct {
		Subject struct {
			Status struct {
				StatusID int `json:"statusId"`
			} `json:"status"`
		} `json:"subject"`
	}
	if err := getJSON(ctx, c, "/api/v2/user", a.token, &user); err != nil {
		t.Errorf("%s: read the status: %v", a.name, err)
		return
	}
	switch got := user.Subject.Status.StatusID; {
	case got == 1:
		m.acked = true
	case m.acked:
		t.Errorf("%s: the move to Setup Complete was acknowledged but the status reads %d after the restart", a.name, got)
	}
}

// signatureDataURL is a drawn signature as the app's pad sends it: an
// 8-bit grey PNG with a stroke across.
var signatureDataURL = func() string {
	img := image.NewGray(image.Rect(0, 0, 300, 90))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for x := 20; x < 280; x++ {
		wave := int(math.Round(45 + 20*math.Sin(float64(x)/15)))
		for y := wave - 2; y <= wave+2; y++ {
			img.SetGray(x, y, color.Gray{})
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}()
