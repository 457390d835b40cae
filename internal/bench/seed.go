package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// benchPassword is every seeded applicant's password: long, varied and not
// in the common-password list, so the password rules take it.
const benchPassword = "Quiet-Lantern-Harbor-4921"

// applicant is a seeded applicant, logged in.
type applicant struct {
	Email     string
	Token     string // bearer access token
	ProfileID int64
}

// operator calls the operator API with an API key of the demo company.
type operator struct {
	client *http.Client
	base   string
	key    string
}

// newOperator makes an API key for the demo employer (company 1) with the
// CLI, as an operator would.
func newOperator(ctx context.Context, p *portalProcess, client *http.Client) (*operator, error) {
	out, err := p.cli(ctx, "apikey", "create", "--company", "1", "--name", "make bench")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	key := strings.TrimSpace(lines[len(lines)-1])
	if !strings.HasPrefix(key, "pk_") {
		return nil, fmt.Errorf("bench: portal apikey create printed no key: %q", out)
	}
	return &operator{client: client, base: p.base, key: key}, nil
}

// invite invites an applicant through the operator API and returns the
// invitation link the answer carries.
func (o *operator) invite(ctx context.Context, email, first, last string) (string, error) {
	body, _ := json.Marshal(map[string]any{"email": email, "firstName": first, "lastName": last})
	var answer struct {
		InvitationURL string `json:"invitationUrl"`
	}
	if err := doJSON(ctx, o.client, http.MethodPost, o.base+"/api/v2/operator/invitations", o.key, body, http.StatusCreated, &answer); err != nil {
		return "", fmt.Errorf("invite %s: %w", email, err)
	}
	if answer.InvitationURL == "" {
		return "", fmt.Errorf("invite %s: no invitationUrl in the answer", email)
	}
	return answer.InvitationURL, nil
}

// setUp takes an invitation link as the app does: the token login, the
// password, then the password grant.
func setUp(ctx context.Context, client *http.Client, base, invitation, email string) (applicant, error) {
	u, err := url.Parse(invitation)
	if err != nil {
		return applicant{}, fmt.Errorf("invitation %q: %w", invitation, err)
	}
	var setup struct {
		AccessToken string `json:"access_token"`
	}
	if err := doJSON(ctx, client, http.MethodGet, base+"/api/user?token="+url.QueryEscape(u.Query().Get("token")), "", nil, http.StatusOK, &setup); err != nil {
		return applicant{}, fmt.Errorf("token login of %s: %w", email, err)
	}
	pw, _ := json.Marshal(map[string]string{"password": benchPassword})
	if err := doJSON(ctx, client, http.MethodPatch, base+"/api/v2/user", setup.AccessToken, pw, http.StatusOK, nil); err != nil {
		return applicant{}, fmt.Errorf("password of %s: %w", email, err)
	}
	token, err := login(ctx, client, base, email, benchPassword)
	if err != nil {
		return applicant{}, err
	}
	var user struct {
		Profile struct {
			ID int64 `json:"id"`
		} `json:"profile"`
	}
	if err := doJSON(ctx, client, http.MethodGet, base+"/api/v2/user", token, nil, http.StatusOK, &user); err != nil {
		return applicant{}, fmt.Errorf("user of %s: %w", email, err)
	}
	return applicant{Email: email, Token: token, ProfileID: user.Profile.ID}, nil
}

// loginBody is the app's password grant.
func loginBody(email, password string) []byte {
	b, _ := json.Marshal(map[string]string{"grant_type": "password", "username": email, "password": password,
		"client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default"})
	return b
}

func login(ctx context.Context, client *http.Client, base, email, password string) (string, error) {
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := doJSON(ctx, client, http.MethodPost, base+"/oauth/access_token", "", loginBody(email, password), http.StatusOK, &tok); err != nil {
		return "", fmt.Errorf("login of %s: %w", email, err)
	}
	return tok.AccessToken, nil
}

// seed invites n applicants and sets each up, a few at a time (each set-up
// hashes and checks a password, a core's work for a moment).
func seed(ctx context.Context, client *http.Client, op *operator, n int) ([]applicant, error) {
	apps := make([]applicant, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			email := fmt.Sprintf("bench.seed%04d@example.com", i)
			link, err := op.invite(ctx, email, "Bench", "Seeded")
			if err == nil {
				apps[i], err = setUp(ctx, client, op.base, link, email)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("bench: seed: %w", err)
		}
	}
	return apps, nil
}

// doJSON sends a request and checks its status; out, when not nil, gets
// the JSON answer.
func doJSON(ctx context.Context, client *http.Client, method, u, token string, body []byte, want int, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d, want %d: %.300s", method, req.URL.Path, resp.StatusCode, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, req.URL.Path, err)
		}
	}
	return nil
}
