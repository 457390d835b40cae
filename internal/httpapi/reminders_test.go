package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestReminderStopAPI(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		for _, tc := range []struct {
			name, url  string
			body       any
			wantStatus int
			wantField  string
			wantMsg    string
		}{
			{"UnknownTokenAnswersAsAStop", "/api/v2/reminders/stop", map[string]string{"token": "not-a-token-we-gave"}, http.StatusOK, "", "You won't get more reminders."},
			{"UnknownTokenAnswersAsAResume", "/api/v2/reminders/resume", map[string]string{"token": "not-a-token-we-gave"}, http.StatusOK, "", "Reminders are back on."},
			{"NoToken", "/api/v2/reminders/stop", map[string]string{"token": " "}, http.StatusUnprocessableEntity, "token", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := a.call("POST", tc.url, "", tc.body)
				if code != tc.wantStatus {
					t.Fatalf("%d %v; want %d", code, body, tc.wantStatus)
				}
				if tc.wantMsg != "" && body["message"] != tc.wantMsg {
					t.Errorf("message %v; want %q", body["message"], tc.wantMsg)
				}
				if tc.wantField != "" {
					fields, _ := body["errorFields"].([]any)
					if len(fields) != 1 || fields[0].(map[string]any)["field"] != tc.wantField {
						t.Errorf("errorFields %v; want %s", body["errorFields"], tc.wantField)
					}
				}
			})
		}
	})
}

func TestUserTimeZoneAPI(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		for _, tc := range []struct {
			name, token, zone string
			wantStatus        int
		}{
			{"Saved", a.janeToken, "America/Chicago", http.StatusOK},
			{"UnknownZone", a.janeToken, "Mars/Olympus", http.StatusUnprocessableEntity},
			{"Empty", a.janeToken, "", http.StatusUnprocessableEntity},
			{"NotLoggedIn", "", "America/Chicago", http.StatusUnauthorized},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "PUT", URL: "/api/v2/user/timezone", Token: tc.token, Body: map[string]string{"timeZone": tc.zone}})
				if rec.Code != tc.wantStatus {
					t.Errorf("%d %s; want %d", rec.Code, rec.Body, tc.wantStatus)
				}
			})
		}
		var zone string
		if err := db.SQL().QueryRow(`SELECT time_zone FROM subject_reminders WHERE subject_id = $1`, a.jane.ID).Scan(&zone); err != nil || zone != "America/Chicago" {
			t.Errorf("stored zone %q, %v", zone, err)
		}
	})
}

func TestOperatorAPIStalledApplicants(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		// Jane and Olga last did anything five days ago.
		old := time.Now().Add(-5 * 24 * time.Hour).UnixMilli()
		for _, q := range []string{
			`UPDATE subjects SET created_at = $1, updated_at = $1`,
			`UPDATE token_families SET created_at = $1`,
			`UPDATE tokens SET created_at = $1`,
		} {
			if _, err := db.SQL().Exec(q, old); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			name, query string
			wantStatus  int
			wantIDs     []int64
		}{
			{"DefaultThreeDaysTheKeysCompanyOnly", "?stalled=true", http.StatusOK, []int64{a.jane.ID}},
			{"FourDays", "?stalled=true&days=4", http.StatusOK, []int64{a.jane.ID}},
			{"NotYetAfterSixDays", "?stalled=true&days=6", http.StatusOK, nil},
			{"DaysNotANumber", "?stalled=true&days=soon", http.StatusUnprocessableEntity, nil},
			{"DaysZero", "?stalled=true&days=0", http.StatusUnprocessableEntity, nil},
			{"StalledNotABoolean", "?stalled=maybe", http.StatusUnprocessableEntity, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := a.call("GET", "/api/v2/operator/applicants"+tc.query, a.key, nil)
				if code != tc.wantStatus {
					t.Fatalf("%d %v; want %d", code, body, tc.wantStatus)
				}
				if code != http.StatusOK {
					return
				}
				list, _ := body["payload"].([]any)
				if len(list) != len(tc.wantIDs) {
					t.Fatalf("%v; want %v", list, tc.wantIDs)
				}
				for i, item := range list {
					j := item.(map[string]any)
					if j["id"] != float64(tc.wantIDs[i]) || j["stoppedAt"] == "" || j["stalledDays"] != 5.0 ||
						j["remindersSent"] != 0.0 || j["remindersStopped"] != false || j["lastProgressAt"] == "" {
						t.Errorf("stalled applicant %v", j)
					}
				}
			})
		}
	})
}
