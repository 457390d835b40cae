package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"applicantportal/internal/portal"
)

// The app collects a signature once and the applicant adopts it for each
// document with a press of its own: every press is a signing call of its own,
// so each document keeps its own record (time, address, the document's hash)
// even though the image is the same, and a later call leaves the earlier
// records as they were.
func TestAdoptedSignatureIsRecordedPerDocument(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		sig := pngDataURL(legalPNG(t, 300, 100, false))
		presses := []struct {
			name string
			doc  string
			ip   string
		}{
			{"FirstDocumentAsksForTheSignature", portal.DocDisclosure, "198.51.100.7"},
			{"NextDocumentAdoptsIt", portal.DocInvestigative, "203.0.113.9"},
			{"AnotherAdoptionFromTheSameAddress", portal.DocCaliforniaDisclosure, "203.0.113.9"},
		}
		for _, p := range presses {
			id := a.docs[p.doc]
			w := a.send(request{Method: "POST", URL: fmt.Sprintf("/api/v2/user/document/%d/signature", id), Token: a.tokens["jane"],
				Body:   a.body("jane", []int64{id}, map[string]any{"ackReceipt": true, "signature": sig}),
				Header: map[string]string{"RemoteAddr": p.ip + ":5151"}})
			if w.Code != http.StatusCreated {
				t.Fatalf("%s: status %d, want 201: %s", p.name, w.Code, w.Body)
			}
		}
		signed := map[int64]listEntry{}
		for _, e := range a.list("jane", "") {
			signed[e.ID] = e
		}
		for i, p := range presses {
			t.Run(p.name, func(t *testing.T) {
				id := a.docs[p.doc]
				s := signed[id].Signature
				if s == nil {
					t.Fatalf("%s is not signed", p.doc)
				}
				if s.SignatureUserIP != p.ip {
					t.Errorf("address %q, want %q: the press of this document", s.SignatureUserIP, p.ip)
				}
				if s.SignatureData == "" || s.CreatedAt.IsZero() {
					t.Errorf("signature = %+v, want its image and time", s)
				}
				if want := a.content("jane", id).ContentSHA256; s.ContentSHA256 != want {
					t.Errorf("hash %s, want this document's %s", s.ContentSHA256, want)
				}
				if i > 0 {
					earlier := signed[a.docs[presses[i-1].doc]].Signature
					if s.CreatedAt.Before(earlier.CreatedAt) {
						t.Errorf("signed at %v, before the press that came first (%v)", s.CreatedAt, earlier.CreatedAt)
					}
				}
			})
		}
		// Only what was pressed is signed: the other documents wait for presses of their own.
		for _, doc := range []string{portal.DocESign, portal.DocAuthorization, portal.DocDOTRelease} {
			if signed[a.docs[doc]].Signature != nil {
				t.Errorf("%s was signed without a call of its own", doc)
			}
		}
	})
}
