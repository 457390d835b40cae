package httpapi_test

import (
	"encoding/json"
	"reflect"
	"testing"
)

// answer is an error answer's texts and codes.
type answer struct {
	ErrorMessage string `json:"errorMessage"`
	ErrorCode    string `json:"errorCode"`
	ErrorFields  []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
		Code    string `json:"code"`
	} `json:"errorFields"`
}

func TestErrorsAnswerInTheRequestsLanguageWithStableCodes(t *testing.T) {
	eachReportAPI(t, func(t *testing.T, a *reportAPI) {
		english := map[string]string{}
		spanish := map[string]string{"Accept-Language": "es-US,es;q=0.9,en;q=0.5"}
		cookie := map[string]string{"Cookie": "locale=es-US", "Accept-Language": "en-US"}
		confirm := func(header map[string]string, body map[string]any) request {
			return request{Method: "POST", URL: "/api/v2/user/profile/report/confirm", Token: a.tokens["jane"], Body: body, Header: header}
		}
		missing := func(header map[string]string) request {
			return request{Method: "GET", URL: "/api/v2/nothing-here", Token: a.tokens["jane"], Header: header}
		}
		type field struct{ Field, Message, Code string }
		emptyEnglish := []field{
			{"dob", "Enter your date of birth.", "personal.dob_required"},
			{"ssnLast4", "Enter the last 4 digits of your Social Security number.", "report.ssn_last4_required"},
		}
		emptySpanish := []field{
			{"dob", "Escriba su fecha de nacimiento.", "personal.dob_required"},
			{"ssnLast4", "Escriba los últimos 4 dígitos de su número de Seguro Social.", "report.ssn_last4_required"},
		}
		tests := []struct {
			name        string
			req         request
			wantStatus  int
			wantCode    string
			wantMessage string
			wantFields  []field
		}{
			{"FieldErrorsInEnglishByDefault", confirm(english, map[string]any{}), 422, "validation.error", "validation error", emptyEnglish},
			{"FieldErrorsInSpanishByAcceptLanguage", confirm(spanish, map[string]any{}), 422, "validation.error", "validation error", emptySpanish},
			{"FieldErrorsInSpanishByTheCookie", confirm(cookie, map[string]any{}), 422, "validation.error", "validation error", emptySpanish},
			{"PhraseInsideAMessageIsTranslated", confirm(spanish, map[string]any{"dob": "1990-04-13", "ssnLast4": "6789"}), 422,
				"validation.error", "validation error", []field{{"dob",
					"Escriba la fecha de nacimiento y los últimos 4 dígitos del número de Seguro Social que nos dio: los datos no coinciden. Le quedan 4 intentos antes de un bloqueo de 15 minutos.",
					"report.mismatch"}}},
			{"NotFoundInEnglishByDefault", missing(english), 404, "request.no_endpoint", "No such API endpoint: GET /api/v2/nothing-here", nil},
			{"NotFoundInSpanishByAcceptLanguage", missing(spanish), 404, "request.no_endpoint", "No existe ese punto de acceso de la API: GET /api/v2/nothing-here", nil},
			{"NotFoundInSpanishByTheCookie", missing(cookie), 404, "request.no_endpoint", "No existe ese punto de acceso de la API: GET /api/v2/nothing-here", nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.send(tt.req)
				var got answer
				if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != tt.wantStatus {
					t.Fatalf("= %d %s", rec.Code, rec.Body)
				}
				var fields []field
				for _, f := range got.ErrorFields {
					fields = append(fields, field{f.Field, f.Message, f.Code})
				}
				if got.ErrorCode != tt.wantCode || got.ErrorMessage != tt.wantMessage || !reflect.DeepEqual(fields, tt.wantFields) {
					t.Errorf("= %d %s", rec.Code, rec.Body)
				}
			})
		}
	})
}
