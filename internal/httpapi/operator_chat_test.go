package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// The operator API's chat acts for the key's company: its applicants'
// conversations only, and only while the company has chat on.
func TestOperatorAPIChat(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := newChatAPI(t, db)
		jane, err := db.Subjects().FindSubjectByID(ctx, a.ids["jane"])
		if err != nil {
			t.Fatal(err)
		}
		carl, err := db.Subjects().FindSubjectByID(ctx, a.ids["carl"])
		if err != nil {
			t.Fatal(err)
		}
		_, acmeKey, err := a.ops.APIKeys.CreateAPIKey(ctx, jane.CompanyID, "HR system")
		if err != nil {
			t.Fatal(err)
		}
		_, globexKey, err := a.ops.APIKeys.CreateAPIKey(ctx, carl.CompanyID, "Globex HR")
		if err != nil {
			t.Fatal(err)
		}
		janeChat := fmt.Sprintf("/api/v2/operator/applicants/%d/chat-messages", a.ids["jane"])
		if rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: a.tokens["jane"], Body: map[string]any{"message": "Where do I send my licence?"}}); rec.Code != http.StatusCreated {
			t.Fatalf("jane's message: %d %s", rec.Code, rec.Body)
		}

		t.Run("ThreadsListTheKeysCompany", func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: "/api/v2/operator/chats", Token: acmeKey})
			out := decodeAs[struct {
				Payload []struct {
					Applicant struct {
						ID int64 `json:"id"`
					} `json:"applicant"`
					Messages int            `json:"messages"`
					Unread   int            `json:"unread"`
					Last     chatMessageOut `json:"last"`
				} `json:"payload"`
			}](t, rec)
			if rec.Code != http.StatusOK || len(out.Payload) != 1 || out.Payload[0].Applicant.ID != a.ids["jane"] ||
				out.Payload[0].Unread != 1 || out.Payload[0].Last.Message != "Where do I send my licence?" {
				t.Errorf("%d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "GET", URL: "/api/v2/operator/chats", Token: globexKey})
			if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "licence") {
				t.Errorf("Globex's list: %d %s", rec.Code, rec.Body)
			}
		})
		t.Run("ShowMarksTheApplicantsMessagesRead", func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: janeChat, Token: acmeKey})
			list := decodeAs[struct {
				Payload []chatMessageOut `json:"payload"`
			}](t, rec)
			if rec.Code != http.StatusOK || len(list.Payload) != 1 || list.Payload[0].Sender != "subject" {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "GET", URL: janeChat, Token: acmeKey})
			list = decodeAs[struct {
				Payload []chatMessageOut `json:"payload"`
			}](t, rec)
			if list.Payload[0].ReadAt == nil {
				t.Errorf("jane's message is still unread after the operator read it: %s", rec.Body)
			}
		})
		t.Run("ReplyAsJSONReachesTheApplicant", func(t *testing.T) {
			rec := a.send(request{Method: "POST", URL: janeChat, Token: acmeKey, Body: map[string]any{"message": "Attach it <b>here</b>.", "senderName": "Dana at Acme"}})
			m := decodeAs[chatMessageOut](t, rec)
			if rec.Code != http.StatusCreated || m.Sender != "employer" || m.SenderName != "Dana at Acme" || m.Message != "Attach it <b>here</b>." {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "GET", URL: a.url("jane", "/unread-messages"), Token: a.tokens["jane"]})
			if !strings.Contains(rec.Body.String(), `"unreadMessages":1`) {
				t.Errorf("jane's unread count: %s", rec.Body)
			}
		})
		t.Run("ReplyWithAFileAndItsDownload", func(t *testing.T) {
			pdf := []byte("%PDF-1.4\n% form\n%%EOF\n")
			body, ct := multipartStream(textPart("senderName", "Dana"), textPart("message", "Please sign this form."), filePart("consent.pdf", "application/pdf", pdf))
			rec := a.send(request{Method: "POST", URL: janeChat, Token: acmeKey, Body: mustRead(t, body), ContentType: ct})
			m := decodeAs[chatMessageOut](t, rec)
			if rec.Code != http.StatusCreated || m.FileID == nil || *m.FileName != "consent.pdf" || m.SenderName != "Dana" {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "GET", URL: fmt.Sprintf("%s/download-file?fileId=%d", janeChat, *m.FileID), Token: acmeKey})
			if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), pdf) {
				t.Errorf("operator download: %d", rec.Code)
			}
			rec = a.send(request{Method: "GET", URL: a.url("jane", fmt.Sprintf("/download-file?fileId=%d", *m.FileID)), Token: a.tokens["jane"]})
			if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), pdf) {
				t.Errorf("jane's download: %d", rec.Code)
			}
		})
		for _, tc := range []struct {
			name, method, url, key string
			body                   any
			code                   int
		}{
			{"OtherCompanysApplicantIsNotFound", "GET", fmt.Sprintf("/api/v2/operator/applicants/%d/chat-messages", a.ids["carl"]), acmeKey, nil, http.StatusNotFound},
			{"ReplyToOtherCompanysApplicantIsNotFound", "POST", fmt.Sprintf("/api/v2/operator/applicants/%d/chat-messages", a.ids["carl"]), acmeKey, map[string]any{"message": "hi"}, http.StatusNotFound},
			{"ReplyWhereChatIsOffIsForbidden", "POST", fmt.Sprintf("/api/v2/operator/applicants/%d/chat-messages", a.ids["carl"]), globexKey, map[string]any{"message": "hi"}, http.StatusForbidden},
			{"EmptyReplyIsRefused", "POST", janeChat, acmeKey, map[string]any{"message": "  "}, http.StatusUnprocessableEntity},
			{"LongSenderNameIsRefused", "POST", janeChat, acmeKey, map[string]any{"message": "hi", "senderName": strings.Repeat("n", 201)}, http.StatusUnprocessableEntity},
			{"AnotherConversationsFileIsNotFound", "GET", janeChat + "/download-file?fileId=999999", acmeKey, nil, http.StatusNotFound},
			{"NoKeyIsUnauthorized", "GET", janeChat, "", nil, http.StatusUnauthorized},
			{"ApplicantTokenIsUnauthorized", "GET", janeChat, a.tokens["jane"], nil, http.StatusUnauthorized},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if rec := a.send(request{Method: tc.method, URL: tc.url, Token: tc.key, Body: tc.body}); rec.Code != tc.code {
					t.Errorf("%s %s = %d %s; want %d", tc.method, tc.url, rec.Code, rec.Body, tc.code)
				}
			})
		}
	})
}

// TestOperatorAPIReplyToAnotherCompanyTakesNoSlot: a reply's body was
// read in one of the applicant's upload slots before the applicant was
// found not to be the key's company's (found by QA), so one company's key
// could hold another company's applicant's slots with stalled bodies and
// keep them from sending a file. A reply now takes the key's own share.
func TestOperatorAPIReplyToAnotherCompanyTakesNoSlot(t *testing.T) {
	ctx := context.Background()
	db := storetest.OpenSQLite(t, storetest.Config(t))
	a := newChatAPI(t, db)
	a.serve(httpapi.Config{UploadWait: time.Second}, nil, nil)
	carl, err := db.Subjects().FindSubjectByID(ctx, a.ids["carl"])
	if err != nil {
		t.Fatal(err)
	}
	_, globexKey, err := a.ops.APIKeys.CreateAPIKey(ctx, carl.CompanyID, "Globex HR")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(a.handler)
	defer ts.Close()
	// Globex's key sends jane (of Acme) uploads that stall in their text,
	// as many as she has slots.
	part := "--b\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi"
	for range httpapi.MaxUploadsPerApplicant {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close() // before ts.Close, which waits for the connections
		fmt.Fprintf(conn, "POST /api/v2/operator/applicants/%d/chat-messages HTTP/1.1\r\nHost: x\r\n"+
			"Authorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n%s",
			a.ids["jane"], globexKey, part)
	}
	time.Sleep(300 * time.Millisecond) // the stalled uploads reach the server
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 100)...)
	body, ct := multipartStream(textPart("message", "my licence"), filePart("licence.png", "image/png", png))
	rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: a.tokens["jane"], Body: mustRead(t, body), ContentType: ct})
	if rec.Code != http.StatusCreated {
		t.Errorf("jane's own upload = %d %s, want 201: another company's key holds her upload slots", rec.Code, rec.Body)
	}
}
