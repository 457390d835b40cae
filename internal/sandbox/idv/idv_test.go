package idvsandbox_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
)

// memRecords is sandbox.Records in memory, with the store's semantics
// (versions, expiry).
type memRecords struct {
	mu   sync.Mutex
	now  func() time.Time
	recs map[string]memRecord
}

type memRecord struct {
	value   []byte
	version int64
	expires time.Time
}

func newMemRecords(now func() time.Time) *memRecords {
	return &memRecords{now: now, recs: map[string]memRecord{}}
}

func (m *memRecords) Insert(_ context.Context, kind, key string, value []byte, expires time.Time) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.recs[kind+"/"+key]; ok {
		return r.value, false, nil
	}
	m.recs[kind+"/"+key] = memRecord{value: value, version: 1, expires: expires}
	return value, true, nil
}

func (m *memRecords) Get(_ context.Context, kind, key string) ([]byte, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[kind+"/"+key]
	if !ok || !m.now().Before(r.expires) {
		return nil, 0, portal.Errorf(portal.ENOTFOUND, "No such %s.", kind)
	}
	return r.value, r.version, nil
}

func (m *memRecords) Replace(_ context.Context, kind, key string, version int64, value []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[kind+"/"+key]
	if !ok || r.version != version {
		return false, nil
	}
	r.value, r.version = value, r.version+1
	m.recs[kind+"/"+key] = r
	return true, nil
}

// clock is a movable time, safe for the provider's goroutines.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)} }

var testSecret = []byte("test callback secret")

const (
	testTTL   = 30 * time.Minute
	testDelay = 5 * time.Second
)

func newProvider(c *clock) *idvsandbox.Provider {
	return idvsandbox.New(idvsandbox.Config{Records: newMemRecords(c.now), Secret: testSecret,
		SessionTTL: testTTL, CheckDelay: testDelay, Now: c.now})
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if portal.ErrorCode(err) != code {
		t.Fatalf("err = %v; want code %s", err, code)
	}
}

func TestCreateSession(t *testing.T) {
	c := newClock()
	p := newProvider(c)
	ctx := context.Background()
	a, err := p.CreateSession(ctx, portal.IDVSessionRequest{Reference: "subject-1", ReturnURL: "https://portal.example.com/idv/success"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.CreateSession(ctx, portal.IDVSessionRequest{Reference: "subject-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.ID) != len("idv_")+20 || a.ID[:4] != "idv_" || a.ID == b.ID || a.Token == b.Token || len(a.Token) != 43 {
		t.Errorf("sessions %+v and %+v: want distinct idv_ ids of 20 characters and 32-byte tokens", a, b)
	}
	if !a.ExpiresAt.Equal(c.now().Add(testTTL)) {
		t.Errorf("ExpiresAt = %v; want now + TTL", a.ExpiresAt)
	}
	st, err := p.SessionState(ctx, a.ID)
	if err != nil || st != (portal.IDVState{Status: portal.IDVActive}) {
		t.Errorf("new session state = %+v, %v; want active", st, err)
	}
	_, err = p.SessionState(ctx, "idv_unknown")
	wantCode(t, err, portal.ENOTFOUND)
}

// v1 is the signature's HMAC part.
func v1(signature string) string {
	_, mac, _ := strings.Cut(signature, ",v1=")
	return mac
}

func TestVerifyCallback(t *testing.T) {
	c := newClock()
	p := newProvider(c)
	body := []byte(`{"sessionId":"idv_abc","status":2,"decision":"approved","occurredAt":"2026-11-22T10:00:00Z"}`)
	now := c.now()
	tests := []struct {
		name      string
		signature string
		body      []byte
		wantCode  string
		want      portal.IDVCallback
	}{
		{name: "Good", signature: idvsandbox.Sign(testSecret, now, body), body: body,
			want: portal.IDVCallback{SessionID: "idv_abc", IDVState: portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}}},
		{name: "GoodAmongSeveralSignatures", signature: idvsandbox.Sign([]byte("old secret"), now, body) + ",v1=" + v1(idvsandbox.Sign(testSecret, now, body)), body: body,
			want: portal.IDVCallback{SessionID: "idv_abc", IDVState: portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}}},
		{name: "NullDecision", signature: idvsandbox.Sign(testSecret, now, []byte(`{"sessionId":"idv_abc","status":1,"decision":null}`)),
			body: []byte(`{"sessionId":"idv_abc","status":1,"decision":null}`),
			want: portal.IDVCallback{SessionID: "idv_abc", IDVState: portal.IDVState{Status: portal.IDVCompletedByUser}}},
		{name: "Missing", signature: "", body: body, wantCode: portal.EUNAUTHORIZED},
		{name: "Garbage", signature: "nonsense", body: body, wantCode: portal.EUNAUTHORIZED},
		{name: "WrongSecret", signature: idvsandbox.Sign([]byte("another secret"), now, body), body: body, wantCode: portal.EUNAUTHORIZED},
		{name: "TamperedBody", signature: idvsandbox.Sign(testSecret, now, body),
			body: []byte(`{"sessionId":"idv_abc","status":2,"decision":"declined","occurredAt":"2026-11-22T10:00:00Z"}`), wantCode: portal.EUNAUTHORIZED},
		{name: "Stale", signature: idvsandbox.Sign(testSecret, now.Add(-6*time.Minute), body), body: body, wantCode: portal.EUNAUTHORIZED},
		{name: "FromTheFuture", signature: idvsandbox.Sign(testSecret, now.Add(6*time.Minute), body), body: body, wantCode: portal.EUNAUTHORIZED},
		{name: "JustInTime", signature: idvsandbox.Sign(testSecret, now.Add(-4*time.Minute), body), body: body,
			want: portal.IDVCallback{SessionID: "idv_abc", IDVState: portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}}},
		{name: "SignedButNotANotice", signature: idvsandbox.Sign(testSecret, now, []byte(`[]`)), body: []byte(`[]`), wantCode: portal.EMALFORMED},
		{name: "SignedUnknownStatus", signature: idvsandbox.Sign(testSecret, now, []byte(`{"sessionId":"idv_abc","status":9}`)),
			body: []byte(`{"sessionId":"idv_abc","status":9}`), wantCode: portal.EMALFORMED},
		{name: "SignedUnknownDecision", signature: idvsandbox.Sign(testSecret, now, []byte(`{"sessionId":"idv_abc","status":2,"decision":"maybe"}`)),
			body: []byte(`{"sessionId":"idv_abc","status":2,"decision":"maybe"}`), wantCode: portal.EMALFORMED},
		// A decision comes only with a finished check: "active and
		// approved" would leave the portal's session stuck.
		{name: "SignedDecisionOnAnActiveSession", signature: idvsandbox.Sign(testSecret, now, []byte(`{"sessionId":"idv_abc","status":0,"decision":"approved"}`)),
			body: []byte(`{"sessionId":"idv_abc","status":0,"decision":"approved"}`), wantCode: portal.EMALFORMED},
		{name: "SignedDecisionOnAnExpiredSession", signature: idvsandbox.Sign(testSecret, now, []byte(`{"sessionId":"idv_abc","status":4,"decision":"declined"}`)),
			body: []byte(`{"sessionId":"idv_abc","status":4,"decision":"declined"}`), wantCode: portal.EMALFORMED},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.VerifyCallback(tt.signature, tt.body)
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("VerifyCallback = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
