package portal_test

// testdata/legal-cases.json is the one table of legal step visibility and
// order cases, shared with the app's Vitest. Its shape:
//
//	{
//	  "about": "...",
//	  "cases": [{
//	    "name": "NonUSDocumentHiddenForUSResident",       // a test name: the behaviour it proves
//	    "documents": [{                                   // the company's documents, in any order
//	      "id": 2,                                        // document id (also the order within a priority)
//	      "documentType": "disclosure",                   // e_sign, rights_fed, ... or any dynamic type
//	      "visibility": "non_us",                         // all | non_us | anything else = regional
//	      "regions": [{"state": "US-CA"}, {"county": 6075}],
//	      "editable": true                                // false: never a step
//	    }],
//	    "location": {                                     // subject data location (spec section 3)
//	      "residency":  {"nonUs": false, "state": "US-TX", "county": 48201},
//	      "employment": {"nonUs": false, "state": "US-TX", "county": 48201}
//	    },
//	    "want": [                                         // the steps, in order; [] for none
//	      {"documentType": "e_sign", "documentIds": [1]},
//	      {"documentType": "rights", "documentIds": [3, 6],   // the merged rights step, federal first
//	       "ackFlags": ["ackReceiptYourRights", "ackFed", "ackSf"]}  // only on the rights step
//	    ],
//	    "freeReportCopy": true                            // optional: whether the free copy of the
//	  }]                                                  // report is offered (CA, OK, MN)
//	}

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"reflect"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

type legalCase struct {
	Name      string `json:"name"`
	Documents []struct {
		ID           int64           `json:"id"`
		DocumentType string          `json:"documentType"`
		Visibility   string          `json:"visibility"`
		Regions      []portal.Region `json:"regions"`
		Editable     bool            `json:"editable"`
	} `json:"documents"`
	Location       portal.Location `json:"location"`
	Want           []legalCaseStep `json:"want"`
	FreeReportCopy *bool           `json:"freeReportCopy"`
}

type legalCaseStep struct {
	DocumentType string   `json:"documentType"`
	DocumentIDs  []int64  `json:"documentIds"`
	AckFlags     []string `json:"ackFlags,omitempty"`
}

func TestLegalSteps(t *testing.T) {
	raw, err := os.ReadFile("testdata/legal-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []legalCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatalf("legal-cases.json: %v", err)
	}
	if len(table.Cases) < 15 {
		t.Fatalf("legal-cases.json holds %d cases, want at least 15", len(table.Cases))
	}
	seen := map[string]bool{}
	for _, c := range table.Cases {
		if seen[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			var docs []portal.LegalDocument
			for _, d := range c.Documents {
				docs = append(docs, portal.LegalDocument{ID: d.ID, Type: portal.LegalDocumentType{
					ID: d.ID, DocumentType: d.DocumentType, Visibility: d.Visibility, Regions: d.Regions, Editable: d.Editable,
				}})
			}
			got := []legalCaseStep{}
			for _, s := range portal.LegalSteps(docs, c.Location) {
				g := legalCaseStep{DocumentType: s.DocumentType, AckFlags: s.AckFlags}
				for _, d := range s.Documents {
					g.DocumentIDs = append(g.DocumentIDs, d.ID)
				}
				if s.Priority != portal.Priority(s.DocumentType) {
					t.Errorf("step %s has priority %d, want %d", s.DocumentType, s.Priority, portal.Priority(s.DocumentType))
				}
				got = append(got, g)
			}
			want := c.Want
			if want == nil {
				want = []legalCaseStep{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("steps\n got %+v\nwant %+v", got, want)
			}
			if c.FreeReportCopy != nil {
				if got := portal.FreeReportCopyOffered(c.Location); got != *c.FreeReportCopy {
					t.Errorf("FreeReportCopyOffered = %v, want %v", got, *c.FreeReportCopy)
				}
			}
		})
	}
}

func TestPriority(t *testing.T) {
	for _, tc := range []struct {
		documentType string
		want         int
	}{
		{portal.DocESign, 100},
		{portal.DocDisclosure, 99},
		{portal.DocInvestigative, 98},
		{portal.DocCaliforniaDisclosure, 97},
		{portal.DocStateDisclosures, 96},
		{portal.DocRights, 95},
		{portal.DocRightsNY23a, 95},
		{portal.DocDOTRelease, 0},
		{"idaho_release", 0},
		{portal.DocAuthorization, -100},
	} {
		t.Run(tc.documentType, func(t *testing.T) {
			if got := portal.Priority(tc.documentType); got != tc.want {
				t.Errorf("Priority(%q) = %d, want %d", tc.documentType, got, tc.want)
			}
		})
	}
}

// pngImage returns a small valid PNG, all ink (a zero Gray is black).
func pngImage(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 20, 5))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader returns a PNG that claims the given size but holds no pixels.
func pngHeader(width, height uint32) []byte {
	chunk := func(typ string, data []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		out = append(out, typ...)
		out = append(out, data...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, width)
	ihdr = binary.BigEndian.AppendUint32(ihdr, height)
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit grey
	out := append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...)
	return append(out, chunk("IEND", nil)...)
}

func dataURL(b []byte) string { return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b) }

// step returns the step of a single document of the given type, or for rights
// types the merged rights step of all given types.
func step(types ...string) portal.LegalStep {
	var docs []portal.LegalDocument
	for i, typ := range types {
		docs = append(docs, portal.LegalDocument{ID: int64(i + 1), Type: portal.LegalDocumentType{
			DocumentType: typ, Visibility: portal.VisibilityAll, Editable: true,
		}})
	}
	return portal.LegalSteps(docs, portal.Location{})[0]
}

// wantFieldErrors checks err is a validation error on exactly the given
// fields, each message containing the given text.
func wantFieldErrors(t *testing.T, err error, want map[string]string) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Code != portal.EINVALID || pe.Message != portal.ValidationMessage {
		t.Fatalf("error = %v, want a validation error", err)
	}
	got := map[string]string{}
	for _, f := range pe.Fields {
		got[f.Field] = f.Message
	}
	for field, text := range want {
		msg, ok := got[field]
		if !ok {
			t.Errorf("no error on %s; errors: %v", field, pe.Fields)
		} else if !strings.Contains(msg, text) {
			t.Errorf("%s: message %q does not contain %q", field, msg, text)
		}
	}
	for field, msg := range got {
		if _, ok := want[field]; !ok {
			t.Errorf("unexpected error on %s: %q", field, msg)
		}
	}
}

func TestSignRequestValidate(t *testing.T) {
	sig := dataURL(pngImage(t))
	jane := portal.Signer{FirstName: "Jane", LastName: "Doe", SSN: "123-45-6789"}
	noSSNYet := portal.Signer{FirstName: "Jane", LastName: "Doe"}
	fields := func(f portal.SignatureFields, signature string) portal.SignRequest {
		return portal.SignRequest{SignatureFields: f, Signature: signature}
	}
	names := portal.SignatureFields{FirstName: "Jane", LastName: "Doe"}
	with := func(f portal.SignatureFields, change func(*portal.SignatureFields)) portal.SignatureFields {
		change(&f)
		return f
	}
	tooLarge := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, portal.MaxSignatureBytes)...)

	for _, tc := range []struct {
		name   string
		step   portal.LegalStep
		req    portal.SignRequest
		signer portal.Signer
		want   map[string]string // field -> part of its message; nil means valid
	}{
		{"ESignValidWithoutImage", step(portal.DocESign),
			fields(with(names, func(f *portal.SignatureFields) { f.AckConsent, f.AckNotices = true, true }), ""), jane, nil},
		{"ESignNamesMatchIgnoringCaseAndSpaces", step(portal.DocESign),
			fields(portal.SignatureFields{FirstName: "  jANE ", LastName: "doe", AckConsent: true, AckNotices: true}, ""), jane, nil},
		{"ESignFirstNameMustMatchApplication", step(portal.DocESign),
			fields(portal.SignatureFields{FirstName: "Janet", LastName: "Doe", AckConsent: true, AckNotices: true}, ""), jane,
			map[string]string{"firstName": "The first name must match the name on your application: Jane"}},
		{"ESignNeedsNamesAndBothAcknowledgements", step(portal.DocESign), fields(portal.SignatureFields{}, ""), jane,
			map[string]string{"firstName": "First name is required", "lastName": "Last name is required", "ackConsent": "consent", "ackNotices": "notices"}},
		{"ESignDeclineIsValid", step(portal.DocESign), fields(portal.SignatureFields{DeclineESign: true}, ""), jane, nil},
		{"ESignDeclineAndConsentTogetherRejected", step(portal.DocESign),
			fields(portal.SignatureFields{DeclineESign: true, AckConsent: true}, ""), jane,
			map[string]string{"ackConsent": "not both"}},
		{"DisclosureValid", step(portal.DocDisclosure), fields(portal.SignatureFields{AckReceipt: true}, sig), jane, nil},
		{"DisclosureNeedsReceiptAndSignature", step(portal.DocDisclosure), fields(portal.SignatureFields{}, ""), jane,
			map[string]string{"ackReceipt": "received and read", "signature": "Please sign"}},
		{"InvestigativeNeedsReceipt", step(portal.DocInvestigative), fields(portal.SignatureFields{}, sig), jane,
			map[string]string{"ackReceipt": "received"}},
		{"CaliforniaDisclosureNeedsReceipt", step(portal.DocCaliforniaDisclosure), fields(portal.SignatureFields{}, sig), jane,
			map[string]string{"ackReceipt": "received"}},
		{"StateDisclosuresNeedSignature", step(portal.DocStateDisclosures), fields(portal.SignatureFields{AckReceipt: true}, ""), jane,
			map[string]string{"signature": "Please sign"}},
		{"SignatureAsPlainBase64Accepted", step(portal.DocDisclosure),
			fields(portal.SignatureFields{AckReceipt: true}, base64.StdEncoding.EncodeToString(pngImage(t))), jane, nil},
		{"NonPNGSignatureRejected", step(portal.DocDisclosure),
			fields(portal.SignatureFields{AckReceipt: true}, "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString([]byte("\xff\xd8\xff\xe0JFIF"))), jane,
			map[string]string{"signature": "must be a PNG"}},
		{"OversizedSignatureRejected", step(portal.DocDisclosure), fields(portal.SignatureFields{AckReceipt: true}, dataURL(tooLarge)), jane,
			map[string]string{"signature": "at most 200 KB"}},
		{"BrokenPNGRejected", step(portal.DocDisclosure),
			fields(portal.SignatureFields{AckReceipt: true}, dataURL(append([]byte("\x89PNG\r\n\x1a\n"), "garbage"...))), jane,
			map[string]string{"signature": "could not be read"}},
		{"PNGWithoutPixelDataRejected", step(portal.DocDisclosure),
			fields(portal.SignatureFields{AckReceipt: true}, dataURL(pngHeader(10, 10))), jane,
			map[string]string{"signature": "could not be read"}},
		{"HugeCanvasRejected", step(portal.DocDisclosure),
			fields(portal.SignatureFields{AckReceipt: true}, dataURL(pngHeader(50000, 50000))), jane,
			map[string]string{"signature": "million pixels"}},
		{"UnreadableSignatureRejected", step(portal.DocDisclosure), fields(portal.SignatureFields{AckReceipt: true}, "data:image/png;base64,@@@"), jane,
			map[string]string{"signature": "could not be read"}},
		{"ImageSentWithESignStillChecked", step(portal.DocESign),
			fields(with(names, func(f *portal.SignatureFields) { f.AckConsent, f.AckNotices = true, true }), dataURL([]byte("GIF89a"))), jane,
			map[string]string{"signature": "must be a PNG"}},
		{"AuthorizationValid", step(portal.DocAuthorization),
			fields(with(names, func(f *portal.SignatureFields) { f.AuthConsent = true }), sig), jane, nil},
		{"AuthorizationNeedsConsentAndMatchingLastName", step(portal.DocAuthorization),
			fields(portal.SignatureFields{FirstName: "Jane", LastName: "Smith"}, sig), jane,
			map[string]string{"authConsent": "authorize", "lastName": "The last name must match the name on your application: Doe"}},
		{"RightsNeedsReceiptAndEveryNoticeFlag", step(portal.DocRightsFed, portal.DocRightsCACredit), fields(portal.SignatureFields{AckFed: true}, ""), jane,
			map[string]string{"ackReceiptYourRights": "summary of your rights", "ackCaCredit": "California"}},
		{"RightsValidWithFlagsOfItsNotices", step(portal.DocRightsFed, portal.DocRightsCACredit),
			fields(portal.SignatureFields{AckReceiptYourRights: true, AckFed: true, AckCaCredit: true}, ""), jane, nil},
		{"DOTReleaseValid", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.LastFourSSN = "6789" }), sig), jane, nil},
		{"DOTReleaseNeedsLastFourOrNoSSN", step(portal.DocDOTRelease), fields(names, sig), jane,
			map[string]string{"lastFourSSN": "last four digits"}},
		{"DOTReleaseLastFourMustBeFourDigits", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.LastFourSSN = "67a9" }), sig), jane,
			map[string]string{"lastFourSSN": "four digits"}},
		{"DOTReleaseLastFourMustMatchStoredSSN", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.LastFourSSN = "1234" }), sig), jane,
			map[string]string{"lastFourSSN": portal.SSNMismatchMessage}},
		{"DOTReleaseWithoutStoredSSNDefersCheck", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.LastFourSSN = "1234" }), sig), noSSNYet, nil},
		{"DOTReleaseNoSSNNeedsIdentification", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.NoSSN = true }), sig), jane,
			map[string]string{"identificationCountry": "required", "identificationNumber": "required"}},
		{"DOTReleaseNoSSNWithIdentificationValid", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) {
				f.NoSSN, f.IdentificationCountry, f.IdentificationNumber = true, "CA", "X1234567"
			}), sig), jane, nil},
		{"DOTReleaseIdentificationNumberBounded", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) {
				f.NoSSN, f.IdentificationCountry, f.IdentificationNumber = true, "CA", strings.Repeat("9", portal.MaxIdentificationLength+1)
			}), sig), jane,
			map[string]string{"identificationNumber": "at most 50 characters"}},
		{"DOTReleaseIdentificationNumberOfMaxLengthValid", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) {
				f.NoSSN, f.IdentificationCountry, f.IdentificationNumber = true, "CA", strings.Repeat("9", portal.MaxIdentificationLength)
			}), sig), jane, nil},
		{"DOTReleaseIdentificationNumberWithoutControlCharacters", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) {
				f.NoSSN, f.IdentificationCountry, f.IdentificationNumber = true, "CA", "X12\x0034"
			}), sig), jane,
			map[string]string{"identificationNumber": "as printed"}},
		{"DOTReleaseIdentificationCountryBounded", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) {
				f.NoSSN, f.IdentificationCountry, f.IdentificationNumber = true, strings.Repeat("C", portal.MaxIdentificationCountryLength+1), "X1234567"
			}), sig), jane,
			map[string]string{"identificationCountry": "at most 60 characters"}},
		{"DOTReleaseLastFourNotMoreThanFour", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.LastFourSSN = "67890" }), sig), noSSNYet,
			map[string]string{"lastFourSSN": "exactly four digits"}},
		{"DOTReleaseLastFourNotOtherDigits", step(portal.DocDOTRelease),
			fields(with(names, func(f *portal.SignatureFields) { f.LastFourSSN = "６７８９" }), sig), noSSNYet,
			map[string]string{"lastFourSSN": "exactly four digits"}},
		{"DynamicTypeNeedsSignatureOnly", step("idaho_release"), fields(portal.SignatureFields{}, ""), jane,
			map[string]string{"signature": "Please sign"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFieldErrors(t, tc.req.Validate(tc.step, tc.signer), tc.want)
		})
	}
}

func TestSignRequestOutcome(t *testing.T) {
	t.Run("DecliningESignMeansPaperForms", func(t *testing.T) {
		r := portal.SignRequest{SignatureFields: portal.SignatureFields{DeclineESign: true}}
		if got := r.Outcome(step(portal.DocESign)); got != portal.SignOutcomePaperForms {
			t.Errorf("Outcome = %q, want %q", got, portal.SignOutcomePaperForms)
		}
	})
	t.Run("ConsentingMeansSigned", func(t *testing.T) {
		r := portal.SignRequest{SignatureFields: portal.SignatureFields{AckConsent: true}}
		if got := r.Outcome(step(portal.DocESign)); got != portal.SignOutcomeSigned {
			t.Errorf("Outcome = %q, want %q", got, portal.SignOutcomeSigned)
		}
	})
	t.Run("DeclineFlagIgnoredOutsideESign", func(t *testing.T) {
		r := portal.SignRequest{SignatureFields: portal.SignatureFields{DeclineESign: true, AckReceipt: true}}
		if got := r.Outcome(step(portal.DocDisclosure)); got != portal.SignOutcomeSigned {
			t.Errorf("Outcome = %q, want %q", got, portal.SignOutcomeSigned)
		}
	})
}

func TestSignRequestRecorded(t *testing.T) {
	ca := portal.Location{Residency: portal.Place{State: "US-CA"}}
	tx := portal.Location{Residency: portal.Place{State: "US-TX"}}
	all := portal.SignatureFields{
		FirstName: "  Jane ", LastName: "Doe", AckConsent: true, AckNotices: true, AckReceipt: true, AuthConsent: true,
		AckReceiptYourRights: true, AckFed: true, AckNj: true, LastFourSSN: " 6789", IdentificationCountry: "CA",
		IdentificationNumber: "X1", FreeReportCopy: true,
	}
	for _, tc := range []struct {
		name string
		step portal.LegalStep
		req  portal.SignatureFields
		loc  portal.Location
		want portal.SignatureFields
	}{
		{"FreeCopyKeptOnAuthorizationInCalifornia", step(portal.DocAuthorization), all, ca,
			portal.SignatureFields{FirstName: "Jane", LastName: "Doe", AuthConsent: true, FreeReportCopy: true}},
		{"FreeCopyDroppedWhereNotOffered", step(portal.DocAuthorization), all, tx,
			portal.SignatureFields{FirstName: "Jane", LastName: "Doe", AuthConsent: true}},
		{"DisclosureKeepsOnlyReceipt", step(portal.DocDisclosure), all, ca, portal.SignatureFields{AckReceipt: true}},
		{"RightsKeepsFlagsOfItsNotices", step(portal.DocRightsFed), all, ca,
			portal.SignatureFields{AckReceiptYourRights: true, AckFed: true}},
		{"DOTReleaseKeepsLastFourWithSSN", step(portal.DocDOTRelease), all, ca,
			portal.SignatureFields{FirstName: "Jane", LastName: "Doe", LastFourSSN: "6789"}},
		{"DOTReleaseKeepsIdentificationWithoutSSN", step(portal.DocDOTRelease),
			portal.SignatureFields{FirstName: "Jane", LastName: "Doe", NoSSN: true, LastFourSSN: "6789", IdentificationCountry: "CA", IdentificationNumber: "X1"}, ca,
			portal.SignatureFields{FirstName: "Jane", LastName: "Doe", NoSSN: true, IdentificationCountry: "CA", IdentificationNumber: "X1"}},
		{"DeclinedESignRecordsOnlyTheChoice", step(portal.DocESign),
			portal.SignatureFields{FirstName: "Jane", DeclineESign: true, AckNotices: true}, ca,
			portal.SignatureFields{DeclineESign: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := portal.SignRequest{SignatureFields: tc.req}.Recorded(tc.step, tc.loc)
			if got != tc.want {
				t.Errorf("Recorded\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestSignatureFieldsLabeled(t *testing.T) {
	t.Run("IdentificationNumberMasked", func(t *testing.T) {
		got := portal.SignatureFields{FirstName: "Jane", NoSSN: true, IdentificationNumber: "AB1234567"}.Labeled()
		want := []portal.LabeledValue{
			{Label: "First name", Value: "Jane"},
			{Label: "Has no US Social Security number", Value: "Yes"},
			{Label: "Identification number", Value: "*****4567"},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Labeled\n got %+v\nwant %+v", got, want)
		}
	})
}

func TestCheckLastFourSSN(t *testing.T) {
	for _, tc := range []struct {
		name, entered, stored string
		valid                 bool
	}{
		{"BothEmptyValid", "", "", true},
		{"MatchingLastFourValid", "6789", "123456789", true},
		{"StoredSSNWithDashesMatches", "6789", "123-45-6789", true},
		{"ErrSSNMismatch", "1234", "123-45-6789", false},
		{"EmptyEntryAgainstStoredSSNRejected", "", "123-45-6789", false},
		{"EntryWithoutStoredSSNRejected", "6789", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := portal.CheckLastFourSSN(tc.entered, tc.stored)
			if tc.valid {
				wantFieldErrors(t, err, nil)
				return
			}
			wantFieldErrors(t, err, map[string]string{"lastFourSSN": portal.SSNMismatchMessage})
			if !portal.IsSSNMismatch(err) {
				t.Error("IsSSNMismatch = false")
			}
		})
	}
	t.Run("SigningWithWrongLastFourIsSSNMismatch", func(t *testing.T) {
		r := portal.SignRequest{SignatureFields: portal.SignatureFields{FirstName: "Jane", LastName: "Doe", LastFourSSN: "0000"}}
		err := r.Validate(step(portal.DocDOTRelease), portal.Signer{FirstName: "Jane", LastName: "Doe", SSN: "123456789"})
		if !portal.IsSSNMismatch(err) {
			t.Errorf("IsSSNMismatch(%v) = false", err)
		}
		if portal.IsSSNMismatch(errors.New("other")) || portal.IsSSNMismatch(nil) {
			t.Error("IsSSNMismatch true for another error")
		}
	})
	if portal.EventSSNMismatch != "ssn-mismatch" {
		t.Errorf("EventSSNMismatch = %q", portal.EventSSNMismatch)
	}
}

func TestStepForAndPendingSteps(t *testing.T) {
	docs := []portal.LegalDocument{
		{ID: 1, Type: portal.LegalDocumentType{DocumentType: portal.DocESign, Visibility: portal.VisibilityAll, Editable: true}},
		{ID: 2, Type: portal.LegalDocumentType{DocumentType: portal.DocRightsFed, Visibility: portal.VisibilityAll, Editable: true}},
		{ID: 3, Type: portal.LegalDocumentType{DocumentType: portal.DocRightsNJ, Visibility: portal.VisibilityAll, Editable: true}},
		{ID: 4, Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityNonUS, Editable: true}},
	}
	steps := portal.LegalSteps(docs, portal.Location{})
	t.Run("RightsNoticeFindsMergedStep", func(t *testing.T) {
		s, ok := portal.StepFor(steps, 3)
		if !ok || s.DocumentType != portal.DocRights || len(s.Documents) != 2 {
			t.Errorf("StepFor(3) = %+v, %v", s, ok)
		}
	})
	t.Run("DocumentThatDoesNotApplyHasNoStep", func(t *testing.T) {
		if _, ok := portal.StepFor(steps, 4); ok {
			t.Error("StepFor(4) found a step for a non_us document")
		}
	})
	t.Run("RightsStepPendingUntilEveryNoticeSigned", func(t *testing.T) {
		signed := map[int64]bool{1: true, 2: true}
		pending := portal.PendingSteps(steps, func(id int64) bool { return signed[id] })
		if len(pending) != 1 || pending[0].DocumentType != portal.DocRights {
			t.Errorf("pending = %+v", pending)
		}
		signed[3] = true
		if pending := portal.PendingSteps(steps, func(id int64) bool { return signed[id] }); len(pending) != 0 {
			t.Errorf("pending after signing all = %+v", pending)
		}
	})
}
