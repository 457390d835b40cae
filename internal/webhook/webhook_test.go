package webhook_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/webhook"
)

func TestVerify(t *testing.T) {
	const secret = "whsec_test"
	body := []byte(`{"id":"evt_1","type":"applicant.invited"}`)
	sent := time.Unix(1_800_000_000, 0)
	good := webhook.Sign(secret, sent, body)
	for _, tc := range []struct {
		name   string
		secret string
		header string
		body   []byte
		now    time.Time
		want   error
	}{
		{"Good", secret, good, body, sent.Add(time.Minute), nil},
		{"GoodAtTheWindowsEdge", secret, good, body, sent.Add(webhook.ReplayWindow), nil},
		{"GoodAmongSeveralSignatures", secret, good + ",v1=" + strings.Repeat("ab", 32), body, sent, nil},
		{"WrongSecret", "whsec_other", good, body, sent, webhook.ErrSignatureMismatch},
		{"OldTimestamp", secret, good, body, sent.Add(webhook.ReplayWindow + time.Second), webhook.ErrSignatureTooOld},
		{"FutureTimestamp", secret, good, body, sent.Add(-webhook.ReplayWindow - time.Second), webhook.ErrSignatureTooOld},
		{"TamperedBody", secret, good, []byte(`{"id":"evt_1","type":"applicant.submitted"}`), sent, webhook.ErrSignatureMismatch},
		{"TimestampChanged", secret, strings.Replace(good, "t=1800000000", "t=1800000001", 1), body, sent, webhook.ErrSignatureMismatch},
		{"Empty", secret, "", body, sent, webhook.ErrMalformedSignature},
		{"NoSignature", secret, "t=1800000000", body, sent, webhook.ErrMalformedSignature},
		{"NoTimestamp", secret, good[strings.Index(good, "v1="):], body, sent, webhook.ErrMalformedSignature},
		{"NotHex", secret, "t=1800000000,v1=zz", body, sent, webhook.ErrMalformedSignature},
		{"NoEquals", secret, "t=1800000000,v1", body, sent, webhook.ErrMalformedSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := webhook.Verify(tc.secret, tc.header, tc.body, tc.now, webhook.ReplayWindow); !errors.Is(err, tc.want) {
				t.Errorf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestSenderSignsAndRefusesInsideAddresses(t *testing.T) {
	var got *http.Request
	var gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got, gotBody = r, string(b)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	now := time.Unix(1_800_000_000, 0)
	m := portal.WebhookMessage{URL: srv.URL + "/hook", Secret: "whsec_x", EventID: "evt_7", EventType: "applicant.invited", Body: []byte(`{"id":"evt_7"}`)}
	ctx := context.Background()

	status, err := webhook.New(webhook.Config{AllowInsecure: true, Now: func() time.Time { return now }}).SendWebhook(ctx, m)
	if err != nil || status != http.StatusAccepted {
		t.Fatalf("send: %d, %v", status, err)
	}
	if got.Header.Get(webhook.EventIDHeader) != "evt_7" || got.Header.Get(webhook.EventTypeHeader) != "applicant.invited" ||
		got.Header.Get("Content-Type") != "application/json" ||
		webhook.Verify("whsec_x", got.Header.Get(webhook.SignatureHeader), []byte(gotBody), now, webhook.ReplayWindow) != nil {
		t.Errorf("request %v %q", got.Header, gotBody)
	}

	strict := webhook.New(webhook.Config{})
	if _, err := strict.SendWebhook(ctx, m); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("http refused: %v", err)
	}
	for _, host := range []string{"127.0.0.1", "localhost"} {
		m.URL = strings.Replace(srv.URL, "http://127.0.0.1", "https://"+host, 1)
		if _, err := strict.SendWebhook(ctx, m); err == nil || !strings.Contains(err.Error(), "not an internet address") {
			t.Errorf("%s refused at connection, after resolving: %v", host, err)
		}
	}
}
