package httpapi_test

import (
	"context"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"applicantportal/internal/portal"
)

func TestOrderAPI(t *testing.T) {
	eachHistoryAPI(t, func(t *testing.T, a *historyAPI) {
		ctx := context.Background()
		code, profile := a.do("GET", "/api/v2/user/profile", "jane", nil)
		if code != 200 || profile["status"] != "pending" || !reflect.DeepEqual(profile["documentTypes"], []any{}) {
			t.Fatalf("profile = %d %v", code, profile)
		}
		orders := profile["orders"].([]any)
		id := int64(orders[0].(map[string]any)["id"].(float64))
		path := "/api/v2/user/order/" + strconv.FormatInt(id, 10)
		code, body := a.do("GET", path, "jane", nil)
		want := map[string]any{"id": float64(id), "statusId": 0.0, "statusText": "New", "packageName": "Standard", "createdAt": "2026-11-22T10:00:00Z",
			"services": []any{
				map[string]any{"id": body["services"].([]any)[0].(map[string]any)["id"], "code": "emps", "name": "Employment", "alias": "employment", "status": "pending", "hasError": true, "state": "pending", "reason": nil, "estimate": nil, "updatedAt": nil},
				map[string]any{"id": body["services"].([]any)[1].(map[string]any)["id"], "code": "crim", "name": "Criminal", "alias": "crim", "status": "pending", "hasError": false, "state": "pending", "reason": nil, "estimate": nil, "updatedAt": nil},
			}}
		if code != 200 || !reflect.DeepEqual(body, want) {
			t.Fatalf("GET order = %d %v\nwant %v", code, body, want)
		}
		t.Run("NotFound", func(t *testing.T) {
			for _, p := range []string{path + "0", "/api/v2/user/order/abc", "/api/v2/user/order/-1"} {
				if code, body := a.do("GET", p, "jane", nil); code != http.StatusNotFound {
					t.Errorf("GET %s = %d %v", p, code, body)
				}
			}
		})
		t.Run("AnotherApplicantsOrderIsNotFound", func(t *testing.T) {
			if code, body := a.do("GET", path, "bob", nil); code != http.StatusNotFound {
				t.Errorf("bob GET jane's order = %d %v", code, body)
			}
		})
		t.Run("CompleteAtStatus4", func(t *testing.T) {
			for _, step := range [][2]portal.StatusID{{0, 1}, {1, 3}, {3, 4}} {
				if err := a.db.SetSubjectStatus(ctx, a.ids["jane"], step[0], step[1]); err != nil {
					t.Fatal(err)
				}
			}
			_, body := a.do("GET", path, "jane", nil)
			for _, s := range body["services"].([]any) {
				if s.(map[string]any)["status"] != "complete" {
					t.Errorf("service %v; want complete", s)
				}
			}
		})
	})
}
