package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

func (s *Server) registerReminderRoutes(mux *routes) {
	mux.HandleFunc("POST /api/v2/reminders/stop", s.handleRemindersStop)
	mux.HandleFunc("POST /api/v2/reminders/resume", s.handleRemindersResume)
	mux.HandleFunc("PUT /api/v2/user/timezone", s.require(setupAllowed, s.handleUserTimeZonePut))
}

type reminderTokenRequest struct {
	Token string `json:"token"`
}

// handleRemindersStop stops the reminders of the stop link's applicant.
// The answer is the same for an unknown token, so the link reveals
// nothing; the app's page calls it from script, never on a plain GET, so a
// mail scanner that fetches the link stops nothing.
func (s *Server) handleRemindersStop(w http.ResponseWriter, r *http.Request) {
	s.handleReminderToken(w, r, s.svc.Reminders.StopReminders, "You won't get more reminders.")
}

func (s *Server) handleRemindersResume(w http.ResponseWriter, r *http.Request) {
	s.handleReminderToken(w, r, s.svc.Reminders.ResumeReminders, "Reminders are back on.")
}

func (s *Server) handleReminderToken(w http.ResponseWriter, r *http.Request, act func(ctx context.Context, token string) error, message string) {
	var req reminderTokenRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if strings.TrimSpace(req.Token) == "" {
		var fe portal.FieldErrors
		fe.Add("token", "Open the link from your reminder e-mail or text again")
		s.Error(w, r, fe.Err())
		return
	}
	ctx := portal.WithActor(r.Context(), portal.Actor{Kind: portal.ActorApplicant, Address: s.clientIP(r)})
	if err := act(ctx, strings.TrimSpace(req.Token)); err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, messageBody(r, message))
}

type timeZoneRequest struct {
	TimeZone string `json:"timeZone"`
}

// handleUserTimeZonePut records the browser's time zone, which the app
// sends after every login: quiet hours use it until an address says where
// the applicant lives.
func (s *Server) handleUserTimeZonePut(w http.ResponseWriter, r *http.Request) {
	var req timeZoneRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Reminders.SetTimeZone(r.Context(), callerFrom(r.Context()).SubjectID, strings.TrimSpace(req.TimeZone)); err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"timeZone": strings.TrimSpace(req.TimeZone)})
}

// DefaultStalledDays is how long without progress makes an applicant
// stalled when the operator does not say.
const DefaultStalledDays = 3

// parseStalledDays reads ?days=N (1 to 365).
func parseStalledDays(v string) (int, error) {
	if v == "" {
		return DefaultStalledDays, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 365 {
		var fe portal.FieldErrors
		fe.Add("days", "Enter a whole number of days from 1 to 365")
		return 0, fe.Err()
	}
	return n, nil
}

type operatorStalledApplicant struct {
	operatorApplicant
	StoppedAt        string `json:"stoppedAt"`
	LastProgressAt   string `json:"lastProgressAt"`
	StalledDays      int    `json:"stalledDays"`
	RemindersSent    int    `json:"remindersSent"`
	RemindersStopped bool   `json:"remindersStopped"`
}

// handleOperatorStalledList is GET /api/v2/operator/applicants?stalled=true.
func (s *Server) handleOperatorStalledList(w http.ResponseWriter, r *http.Request) {
	days, err := parseStalledDays(r.URL.Query().Get("days"))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	list, err := s.svc.Operator.Reminders.FindStalled(r.Context(), operatorFrom(r.Context()).CompanyID, time.Duration(days)*24*time.Hour)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	now := s.now()
	out := make([]operatorStalledApplicant, 0, len(list))
	for _, a := range list {
		out = append(out, operatorStalledApplicant{operatorApplicant: newOperatorApplicant(a.Subject), StoppedAt: a.StoppedAt,
			LastProgressAt: operatorTime(a.LastProgress), StalledDays: int(now.Sub(a.LastProgress) / (24 * time.Hour)),
			RemindersSent: a.RemindersSent, RemindersStopped: a.RemindersStopped})
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}
