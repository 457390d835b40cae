package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// scenario is one row of the table: a request the app makes, sent for
// each seeded applicant in turn.
type scenario struct {
	Name   string // as the table shows it
	Key    string // the floor's path for it
	Method string
	Path   func(a applicant) string
	Body   func(a applicant) []byte // nil for none
	Want   int                      // the status every answer must have
	Write  bool
	// Anonymous requests carry no bearer token (the token endpoint).
	Anonymous bool
}

// scenarios are the requests measured against a floor. The bodies are
// what the app sends (web/src/features: personal information, address
// history, chat).
func scenarios() []scenario {
	return []scenario{
		{Name: "GET /api/v2/user", Key: "/user", Method: http.MethodGet, Want: http.StatusOK,
			Path: fixed("/api/v2/user")},
		{Name: "GET /api/v2/user/document (legal list)", Key: "/document", Method: http.MethodGet, Want: http.StatusOK,
			Path: fixed("/api/v2/user/document")},
		{Name: "GET /api/v2/user/subject", Key: "/subject", Method: http.MethodGet, Want: http.StatusOK,
			Path: fixed("/api/v2/user/subject")},
		{Name: "PUT /api/v2/user (personal information)", Key: "/put-user", Method: http.MethodPut, Want: http.StatusOK,
			Path: fixed("/api/v2/user"), Body: personalInformationBody, Write: true},
		{Name: "PUT /api/v2/user/subject/address", Key: "/put-address", Method: http.MethodPut, Want: http.StatusOK,
			Path: fixed("/api/v2/user/subject/address"), Body: addressesBody, Write: true},
		{Name: "POST chat message", Key: "/chat", Method: http.MethodPost, Want: http.StatusCreated,
			Path: func(a applicant) string {
				return fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages", a.ProfileID)
			}, Body: chatMessageBody, Write: true},
	}
}

func fixed(path string) func(applicant) string { return func(applicant) string { return path } }

func personalInformationBody(a applicant) []byte {
	b, _ := json.Marshal(map[string]any{
		"firstName": "Bench", "noMiddleName": true, "middleName": "", "lastName": "Seeded",
		"mothersMaidenName": "Smith", "ssn": "123-45-6789", "confirmSSN": "123-45-6789", "noSSN": false,
		"dob": "1990-04-12", "confirmDOB": "1990-04-12", "gender": "F", "nameSuffix": "",
		"daytimeDialCode": "1", "daytimePhoneNumber": "202 456 1111", "eveningDialCode": "1", "eveningPhoneNumber": "",
		"identificationCountry": "", "countryIdentificationNumber": "",
		"driversLicenseNumber": "D1234567", "noDriversLicenseNumber": false, "driversLicenseState": "US-CA",
		"drugZip": "94103", "cdlRequired": false, "licenses": []any{},
		"primaryNotificationMethod": map[string]string{"type": "email", "email": a.Email, "text": ""},
	})
	return b
}

func addressesBody(applicant) []byte {
	return []byte(`{"addresses":[` +
		`{"country":"US","street1":"1600 Pennsylvania Ave NW","street2":"","city":"Washington","state":"US-DC","zip":"20500","from":"2021-03","to":"","current":true},` +
		`{"country":"US","street1":"350 Fifth Avenue","street2":"Apt 4","city":"New York","state":"US-NY","zip":"10118","from":"2015-01","to":"2021-03","current":false}` +
		`],"draft":false}`)
}

func chatMessageBody(applicant) []byte {
	return []byte(`{"message":"When will my background check be finished?"}`)
}

// reply is what a server answered to one request.
type reply struct {
	Status      int
	ContentType string
	Body        []byte
}

// send makes one request of sc for a and checks its status.
func send(ctx context.Context, client *http.Client, base, path string, sc scenario, a applicant) (reply, error) {
	var body io.Reader
	if sc.Body != nil {
		body = bytes.NewReader(sc.Body(a))
	}
	req, err := http.NewRequestWithContext(ctx, sc.Method, base+path, body)
	if err != nil {
		return reply{}, err
	}
	if !sc.Anonymous {
		req.Header.Set("Authorization", "Bearer "+a.Token)
	}
	if sc.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("%s: %w", sc.Name, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, fmt.Errorf("%s: %w", sc.Name, err)
	}
	if resp.StatusCode != sc.Want {
		return reply{}, fmt.Errorf("%s: %s answered %d, want %d: %.300s", sc.Name, base, resp.StatusCode, sc.Want, b)
	}
	return reply{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b}, nil
}

// target is a server whose CPU is measured: the portal, a floor or a peer.
type target struct {
	pid  int
	base string
	// path is where sc is sent for a: the portal's own path, or the
	// floor's /{key}.
	path func(sc scenario, a applicant) string
}

// round sends n requests of sc, conc at a time, the applicants in turn,
// and returns the server's CPU per request over the round.
func round(ctx context.Context, client *http.Client, t target, sc scenario, apps []applicant, n, conc int) (time.Duration, error) {
	before, err := processCPU(t.pid)
	if err != nil {
		return 0, err
	}
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				a := apps[i%len(apps)]
				if _, err := send(ctx, client, t.base, t.path(sc, a), sc, a); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	after, err := processCPU(t.pid)
	if err != nil {
		return 0, err
	}
	return perRequest(after-before, n), nil
}

// newClient is a keep-alive client for up to conns connections to one
// host, asking for no compression (the API answers are not compressed).
func newClient(conns int) *http.Client {
	return &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			DisableCompression:  true,
			IdleConnTimeout:     90 * time.Second,
		},
	}
}
