package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestOperatorAPIWebhooks(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := newOperatorAPI(t, db)
		others, _, err := a.ops.Webhooks.CreateWebhookEndpoint(ctx, a.other.ID, "https://other.example.com/events")
		if err != nil {
			t.Fatal(err)
		}
		code, body := a.call("POST", "/api/v2/operator/webhooks", a.key, map[string]any{"url": "https://hr.acme.example/events"})
		secret, _ := body["secret"].(string)
		if code != http.StatusCreated || body["url"] != "https://hr.acme.example/events" || !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("create: %d %v", code, body)
		}
		id := int64(body["id"].(float64))
		if _, err := a.ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{
			NewSubject: portal.NewSubject{CompanyID: a.acme.ID, Email: "riley@example.com", FirstName: "Riley", LastName: "Stone"}}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, method, url string
			body              any
			status            int
			want              string // in the answer
		}{
			{"ListIsTheKeysCompanysOnly", "GET", "/api/v2/operator/webhooks", nil, http.StatusOK, `"url":"https://hr.acme.example/events"`},
			{"DeliveriesWithTheirEvent", "GET", fmt.Sprintf("/api/v2/operator/webhooks/%d/deliveries", id), nil, http.StatusOK,
				`"eventType":"applicant.invited"`},
			{"HTTPRefused", "POST", "/api/v2/operator/webhooks", map[string]any{"url": "http://hr.acme.example/events"}, http.StatusUnprocessableEntity,
				`"field":"url"`},
			{"PrivateAddressRefused", "POST", "/api/v2/operator/webhooks", map[string]any{"url": "https://10.0.0.5/events"}, http.StatusUnprocessableEntity,
				"not a private or local one"},
			{"OtherCompanysDeliveriesNotFound", "GET", fmt.Sprintf("/api/v2/operator/webhooks/%d/deliveries", others.ID), nil, http.StatusNotFound,
				"Webhook endpoint not found."},
			{"OtherCompanysEndpointNotRemoved", "DELETE", fmt.Sprintf("/api/v2/operator/webhooks/%d", others.ID), nil, http.StatusNotFound,
				"Webhook endpoint not found."},
			{"Removed", "DELETE", fmt.Sprintf("/api/v2/operator/webhooks/%d", id), nil, http.StatusNoContent, ""},
			{"RemovedStaysListed", "GET", "/api/v2/operator/webhooks", nil, http.StatusOK, `"removedAt":"`},
			{"RevokedKey", "GET", "/api/v2/operator/webhooks", nil, http.StatusUnauthorized, "revoked"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				key := a.key
				if tc.name == "RevokedKey" {
					key = a.revoked
				}
				rec := a.send(request{Method: tc.method, URL: tc.url, Token: key, Body: tc.body})
				if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.want) ||
					strings.Contains(rec.Body.String(), "other.example.com") || (tc.method == "GET" && strings.Contains(rec.Body.String(), "whsec_")) {
					t.Errorf("%d %s; want %d with %s", rec.Code, rec.Body, tc.status, tc.want)
				}
			})
		}
		list, _ := a.ops.Webhooks.FindWebhookEndpoints(ctx, a.other.ID)
		if len(list) != 1 || list[0].RemovedAt != nil {
			t.Errorf("the other company's endpoint: %+v", list)
		}
	})
}
