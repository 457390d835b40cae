package portal_test

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/lookup"
	"applicantportal/internal/phone"
	"applicantportal/internal/portal"
)

// personalNow is the clock of every personal information test.
var personalNow = time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)

// validPersonal is a complete, valid form; each case changes one thing.
func validPersonal() portal.PersonalInfo {
	return portal.PersonalInfo{
		FirstName:              "Jane",
		MiddleName:             "Q",
		LastName:               "Doe",
		MothersMaidenName:      "Smith",
		SSN:                    "123-45-6789",
		ConfirmSSN:             "123456789",
		DOB:                    "1990-04-25",
		ConfirmDOB:             "1990-04-25",
		Gender:                 "F",
		DaytimeDialCode:        "1",
		DaytimePhoneNumber:     "(202) 456-1111",
		DriversLicenseNumber:   "D1234567",
		DriversLicenseState:    "US-CA",
		DrugZip:                "94105",
		NoDriversLicenseNumber: false,
		PrimaryNotificationMethod: portal.NotificationMethod{
			Type:  portal.NotifyByEmail,
			Email: "jane@example.com",
		},
	}
}

// personalRules wires the real lookups and phone check, as cmd/portal does.
func personalRules() portal.PersonalRules {
	return portal.PersonalRules{
		ValidGender:  lookup.IsGender,
		ValidSuffix:  lookup.IsSuffix,
		ValidState:   lookup.IsStateCode,
		ValidCountry: lookup.IsCountry,
		ValidRegion:  lookup.IsRegionID,
		ValidPhone:   phone.Valid,
	}
}

func TestPersonalInfoValidate(t *testing.T) {
	type fields map[string]string // field -> exact message, "" for any
	tests := []struct {
		name   string
		change func(p *portal.PersonalInfo)
		rules  func(r *portal.PersonalRules)
		want   fields // nil: valid
	}{
		{"CompleteFormAccepted", nil, nil, nil},

		// Names.
		{"FirstNameRequired", func(p *portal.PersonalInfo) { p.FirstName = "  " }, nil,
			fields{"firstName": "First name is required."}},
		{"LastNameRequired", func(p *portal.PersonalInfo) { p.LastName = "" }, nil,
			fields{"lastName": "Last name is required."}},
		{"MiddleNameRequiredWithoutNoMiddleName", func(p *portal.PersonalInfo) { p.MiddleName = "" }, nil,
			fields{"middleName": `Middle name is required. If you have none, tick "No middle name".`}},
		{"NoMiddleNameLetsMiddleNameBeEmpty", func(p *portal.PersonalInfo) { p.MiddleName, p.NoMiddleName = "", true }, nil, nil},
		{"NoMiddleNameIgnoresATypedMiddleName", func(p *portal.PersonalInfo) { p.MiddleName, p.NoMiddleName = "R2D2", true }, nil, nil},
		{"NamesWithHyphenApostrophePeriodSpaceAccepted", func(p *portal.PersonalInfo) {
			p.FirstName, p.MiddleName, p.LastName, p.MothersMaidenName = "Mary-Jane", "St. John", "O'Brien", "D’Arcy"
		}, nil, nil},
		{"NamesWithAccentsAccepted", func(p *portal.PersonalInfo) { p.FirstName, p.LastName = "José", "Müller-Łukasz" }, nil, nil},
		{"FirstNameWithDigitsRejected", func(p *portal.PersonalInfo) { p.FirstName = "Jane2" }, nil,
			fields{"firstName": "First name can only contain letters, spaces, hyphens, apostrophes and periods."}},
		{"LastNameWithSymbolsRejected", func(p *portal.PersonalInfo) { p.LastName = "Doe!" }, nil, fields{"lastName": ""}},
		{"MiddleNameWithDigitsRejected", func(p *portal.PersonalInfo) { p.MiddleName = "3" }, nil, fields{"middleName": ""}},
		{"NameOfOnlyPunctuationRejected", func(p *portal.PersonalInfo) { p.FirstName = "-.'" }, nil, fields{"firstName": ""}},
		{"NameOf50LettersAccepted", func(p *portal.PersonalInfo) { p.LastName = strings.Repeat("é", 50) }, nil, nil},
		{"NameOf51LettersRejected", func(p *portal.PersonalInfo) { p.LastName = strings.Repeat("a", 51) }, nil,
			fields{"lastName": "Last name must be at most 50 characters."}},
		{"MothersMaidenNameOptional", func(p *portal.PersonalInfo) { p.MothersMaidenName = "" }, nil, nil},
		{"MothersMaidenNameWithDigitsRejected", func(p *portal.PersonalInfo) { p.MothersMaidenName = "Sm1th" }, nil,
			fields{"mothersMaidenName": ""}},

		// SSN.
		{"SSNRequiredWhenCompanyRequiresIt", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "", "" },
			func(r *portal.PersonalRules) { r.RequireSSN = true },
			fields{"ssn": `SSN is required. If you have none, tick "No SSN".`}},
		{"SSNOptionalWhenCompanyDoesNotRequireIt", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "", "" }, nil, nil},
		{"SSNNotRequiredAgainWhenOneIsOnFile", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "", "" },
			func(r *portal.PersonalRules) { r.RequireSSN, r.SSNOnFile = true, true }, nil},
		{"SSNWithDashesAndSpacesAccepted", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = " 123 45-6789", "123-45-6789" }, nil, nil},
		{"SSNWithLettersRejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "12a-45-6789", "12a-45-6789" }, nil,
			fields{"ssn": "Enter the 9 digits of your SSN, like 123-45-6789."}},
		{"SSNOfEightDigitsRejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "12345678", "12345678" }, nil,
			fields{"ssn": "Enter the 9 digits of your SSN, like 123-45-6789."}},
		{"SSNOfTenDigitsRejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "1234567890", "1234567890" }, nil,
			fields{"ssn": ""}},
		{"SSNArea000Rejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "000-45-6789", "000456789" }, nil,
			fields{"ssn": "This is not a valid SSN. Check the number on your Social Security card."}},
		{"SSNArea666Rejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "666-45-6789", "666456789" }, nil,
			fields{"ssn": ""}},
		{"SSNArea9xxRejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "912-45-6789", "912456789" }, nil,
			fields{"ssn": ""}},
		{"SSNGroup00Rejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "123-00-6789", "123006789" }, nil,
			fields{"ssn": ""}},
		{"SSNSerial0000Rejected", func(p *portal.PersonalInfo) { p.SSN, p.ConfirmSSN = "123-45-0000", "123450000" }, nil,
			fields{"ssn": ""}},
		{"ConfirmSSNMismatchRejected", func(p *portal.PersonalInfo) { p.ConfirmSSN = "123456788" }, nil,
			fields{"confirmSSN": "The SSNs do not match."}},
		{"ConfirmSSNMissingRejected", func(p *portal.PersonalInfo) { p.ConfirmSSN = "" }, nil,
			fields{"confirmSSN": "Type your SSN again to confirm it."}},
		{"ConfirmSSNWithoutSSNRejected", func(p *portal.PersonalInfo) { p.SSN = "" }, nil,
			fields{"confirmSSN": "The SSNs do not match."}},
		{"NoSSNWaivesSSNEvenWhenCompanyRequiresIt", func(p *portal.PersonalInfo) {
			p.SSN, p.ConfirmSSN, p.NoSSN = "", "", true
			p.IdentificationCountry, p.CountryIdentificationNumber = "CA", "123 456 789"
		}, func(r *portal.PersonalRules) { r.RequireSSN = true }, nil},
		{"NoSSNIgnoresATypedSSN", func(p *portal.PersonalInfo) {
			p.SSN, p.NoSSN = "000-00-0000", true
			p.IdentificationCountry, p.CountryIdentificationNumber = "ca", "X1"
		}, nil, nil},
		{"NoSSNRequiresIdentificationCountry", func(p *portal.PersonalInfo) {
			p.NoSSN, p.CountryIdentificationNumber = true, "X1"
		}, nil, fields{"identificationCountry": "Choose the country that issued your identification number."}},
		{"NoSSNRequiresIdentificationNumber", func(p *portal.PersonalInfo) {
			p.NoSSN, p.IdentificationCountry = true, "MX"
		}, nil, fields{"countryIdentificationNumber": "Identification number is required when you have no SSN."}},
		{"NoSSNWithUnknownCountryRejected", func(p *portal.PersonalInfo) {
			p.NoSSN, p.IdentificationCountry, p.CountryIdentificationNumber = true, "Canada", "X1"
		}, nil, fields{"identificationCountry": "Choose a country from the list."}},
		{"IdentificationNumberLongerThan50Rejected", func(p *portal.PersonalInfo) {
			p.NoSSN, p.IdentificationCountry, p.CountryIdentificationNumber = true, "GB", strings.Repeat("9", 51)
		}, nil, fields{"countryIdentificationNumber": ""}},

		// Date of birth.
		{"DOBRequired", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "", "" }, nil,
			fields{"dob": "Enter your date of birth."}},
		{"Feb30Rejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "1990-02-30", "1990-02-30" }, nil,
			fields{"dob": "Date of birth must be a real date."}},
		{"Month13Rejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "1990-13-01", "1990-13-01" }, nil,
			fields{"dob": ""}},
		{"USStyleDateRejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "04/25/1990", "04/25/1990" }, nil,
			fields{"dob": ""}},
		{"LeapDayDOBAccepted", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "2000-02-29", "2000-02-29" }, nil, nil},
		{"DOBInTheFutureRejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "2030-01-01", "2030-01-01" }, nil,
			fields{"dob": "Date of birth must be in the past."}},
		{"DOBTodayRejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "2026-03-15", "2026-03-15" }, nil,
			fields{"dob": "Date of birth must be in the past."}},
		{"DOBBefore1900Rejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "1899-12-31", "1899-12-31" }, nil,
			fields{"dob": "Date of birth cannot be before 1900."}},
		{"DOBOnFirstDayOf1900Accepted", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "1900-01-01", "1900-01-01" }, nil, nil},
		{"ApplicantYoungerThan14Rejected", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "2012-03-16", "2012-03-16" }, nil,
			fields{"dob": "You must be at least 14 years old."}},
		{"ApplicantTurning14TodayAccepted", func(p *portal.PersonalInfo) { p.DOB, p.ConfirmDOB = "2012-03-15", "2012-03-15" }, nil, nil},
		{"ConfirmDOBMismatchRejected", func(p *portal.PersonalInfo) { p.ConfirmDOB = "1990-04-24" }, nil,
			fields{"confirmDOB": "The dates of birth do not match."}},
		{"ConfirmDOBMissingRejected", func(p *portal.PersonalInfo) { p.ConfirmDOB = "" }, nil,
			fields{"confirmDOB": "Enter your date of birth again to confirm it."}},

		// Gender and suffix come from the lookups, by code.
		{"GenderOptional", func(p *portal.PersonalInfo) { p.Gender = "" }, nil, nil},
		{"LowercaseGenderCodeAccepted", func(p *portal.PersonalInfo) { p.Gender = "x" }, nil, nil},
		{"GenderNotInLookupRejected", func(p *portal.PersonalInfo) { p.Gender = "Female" }, nil,
			fields{"gender": "Choose a gender from the list."}},
		{"SuffixFromLookupAccepted", func(p *portal.PersonalInfo) { p.NameSuffix = "JR" }, nil, nil},
		{"ClearedSuffixAccepted", func(p *portal.PersonalInfo) { p.NameSuffix = "" }, nil, nil},
		{"SuffixNotInLookupRejected", func(p *portal.PersonalInfo) { p.NameSuffix = "Esq" }, nil,
			fields{"nameSuffix": "Choose a suffix from the list."}},

		// Phones.
		{"DaytimePhoneRequired", func(p *portal.PersonalInfo) { p.DaytimePhoneNumber = "" }, nil,
			fields{"daytimePhoneNumber": "Daytime phone number is required."}},
		{"DaytimePhoneTooShortRejected", func(p *portal.PersonalInfo) { p.DaytimePhoneNumber = "202456111" }, nil,
			fields{"daytimePhoneNumber": "Enter a valid phone number for dial code +1."}},
		{"DaytimePhoneWithLettersRejected", func(p *portal.PersonalInfo) { p.DaytimePhoneNumber = "202-CALL-NOW" }, nil,
			fields{"daytimePhoneNumber": ""}},
		{"UKPhoneWithDialCode44Accepted", func(p *portal.PersonalInfo) { p.DaytimeDialCode, p.DaytimePhoneNumber = "+44", "020 7946 0000" }, nil, nil},
		{"USPhoneUnderDialCode44Rejected", func(p *portal.PersonalInfo) { p.DaytimeDialCode = "44" }, nil,
			fields{"daytimePhoneNumber": "Enter a valid phone number for dial code +44."}},
		{"EmptyDialCodeMeans1", func(p *portal.PersonalInfo) { p.DaytimeDialCode = "" }, nil, nil},
		{"DialCodeWithLettersRejected", func(p *portal.PersonalInfo) { p.DaytimeDialCode = "US" }, nil,
			fields{"daytimeDialCode": "Choose a dial code, like +1."}},
		{"UnknownDialCodeRejected", func(p *portal.PersonalInfo) { p.DaytimeDialCode = "999" }, nil,
			fields{"daytimePhoneNumber": ""}},
		{"EveningPhoneOptional", func(p *portal.PersonalInfo) { p.EveningDialCode, p.EveningPhoneNumber = "", "" }, nil, nil},
		{"EveningDialCodeWithoutNumberMustBeADialCode", func(p *portal.PersonalInfo) { p.EveningDialCode, p.EveningPhoneNumber = "call me", "" }, nil,
			fields{"eveningDialCode": "Choose a dial code, like +1."}},
		{"ValidEveningPhoneAccepted", func(p *portal.PersonalInfo) { p.EveningPhoneNumber = "212.555.1234" }, nil, nil},
		{"InvalidEveningPhoneRejected", func(p *portal.PersonalInfo) { p.EveningPhoneNumber = "12345" }, nil,
			fields{"eveningPhoneNumber": "Enter a valid phone number for dial code +1."}},

		// Driver's licence.
		{"DriversLicenseNumberRequiredWithoutNoDriversLicense", func(p *portal.PersonalInfo) { p.DriversLicenseNumber = "" }, nil,
			fields{"driversLicenseNumber": `Driver's license number is required. If you have none, tick "No driver's license".`}},
		{"NoDriversLicenseWaivesNumberAndState", func(p *portal.PersonalInfo) {
			p.DriversLicenseNumber, p.DriversLicenseState, p.NoDriversLicenseNumber = "", "", true
		}, nil, nil},
		{"DriversLicenseStateRequiredWithNumber", func(p *portal.PersonalInfo) { p.DriversLicenseState = "" }, nil,
			fields{"driversLicenseState": "Choose the state that issued your driver's license."}},
		{"DriversLicenseStateNotInLookupRejected", func(p *portal.PersonalInfo) { p.DriversLicenseState = "California" }, nil,
			fields{"driversLicenseState": ""}},
		{"CanadianDriversLicenseProvinceAccepted", func(p *portal.PersonalInfo) { p.DriversLicenseState = "CA-ON" }, nil, nil},
		{"DriversLicenseWithSymbolsRejected", func(p *portal.PersonalInfo) { p.DriversLicenseNumber = "D123#567" }, nil,
			fields{"driversLicenseNumber": ""}},
		{"DriversLicenseLongerThan30Rejected", func(p *portal.PersonalInfo) { p.DriversLicenseNumber = strings.Repeat("A", 31) }, nil,
			fields{"driversLicenseNumber": ""}},

		// Drug-test ZIP.
		{"DrugZipOptional", func(p *portal.PersonalInfo) { p.DrugZip = "" }, nil, nil},
		{"DrugZipPlus4Accepted", func(p *portal.PersonalInfo) { p.DrugZip = "94105-1234" }, nil, nil},
		{"DrugZipOfFourDigitsRejected", func(p *portal.PersonalInfo) { p.DrugZip = "9410" }, nil,
			fields{"drugZip": "Enter a 5-digit ZIP code, like 94105 or 94105-1234."}},
		{"DrugZipWithLettersRejected", func(p *portal.PersonalInfo) { p.DrugZip = "SW1A 1AA" }, nil, fields{"drugZip": ""}},

		// Professional licences.
		{"LicenseWithNumberAndRegionAccepted", func(p *portal.PersonalInfo) {
			p.Licenses = []portal.License{{Number: "RN 12345", RegionID: 6, RegionName: "California"}}
		}, nil, nil},
		{"LicenseNumberRequired", func(p *portal.PersonalInfo) {
			p.Licenses = []portal.License{{RegionID: 6}, {Number: " ", RegionID: 36}}
		}, nil, fields{"licenses.0.number": "License number is required.", "licenses.1.number": ""}},
		{"LicenseRegionRequired", func(p *portal.PersonalInfo) { p.Licenses = []portal.License{{Number: "RN 1"}} }, nil,
			fields{"licenses.0.regionId": "Choose the state or province that issued the license."}},
		{"LicenseRegionNotInLookupRejected", func(p *portal.PersonalInfo) { p.Licenses = []portal.License{{Number: "RN 1", RegionID: 3}} }, nil,
			fields{"licenses.0.regionId": ""}},

		// Primary notification method.
		{"EmptyNotificationTypeMeansEmail", func(p *portal.PersonalInfo) { p.PrimaryNotificationMethod.Type = "" }, nil, nil},
		{"UnknownNotificationTypeRejected", func(p *portal.PersonalInfo) { p.PrimaryNotificationMethod.Type = "pigeon" }, nil,
			fields{"primaryNotificationMethod.type": "Choose how you want to be notified: e-mail, text or both."}},
		{"EmailNotificationNeedsEmail", func(p *portal.PersonalInfo) { p.PrimaryNotificationMethod.Email = "" }, nil,
			fields{"primaryNotificationMethod.email": "E-mail address is required for e-mail notifications."}},
		{"EmailNotificationRejectsBadEmail", func(p *portal.PersonalInfo) { p.PrimaryNotificationMethod.Email = "jane@example" }, nil,
			fields{"primaryNotificationMethod.email": "Enter a valid e-mail address, like name@example.com."}},
		{"TextNotificationNeedsNumber", func(p *portal.PersonalInfo) {
			p.PrimaryNotificationMethod = portal.NotificationMethod{Type: portal.NotifyByText}
		}, nil, fields{"primaryNotificationMethod.text": "Mobile number is required for text notifications."}},
		{"TextNotificationAcceptsNumberUnderDaytimeDialCode", func(p *portal.PersonalInfo) {
			p.PrimaryNotificationMethod = portal.NotificationMethod{Type: "TEXT", Text: "202-456-1111"}
		}, nil, nil},
		{"TextNotificationRejectsInvalidNumber", func(p *portal.PersonalInfo) {
			p.PrimaryNotificationMethod = portal.NotificationMethod{Type: portal.NotifyByText, Text: "555"}
		}, nil, fields{"primaryNotificationMethod.text": "Enter a valid mobile number for dial code +1."}},
		{"BothNotificationsNeedEmailAndText", func(p *portal.PersonalInfo) {
			p.PrimaryNotificationMethod = portal.NotificationMethod{Type: portal.NotifyByBoth}
		}, nil, fields{"primaryNotificationMethod.email": "", "primaryNotificationMethod.text": ""}},

		{"EveryBrokenFieldReportedAtOnce", func(p *portal.PersonalInfo) {
			*p = portal.PersonalInfo{}
		}, func(r *portal.PersonalRules) { r.RequireSSN = true }, fields{
			"firstName": "", "middleName": "", "lastName": "", "ssn": "", "dob": "",
			"daytimePhoneNumber": "", "driversLicenseNumber": "", "driversLicenseState": "",
			"primaryNotificationMethod.email": "",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validPersonal()
			if tt.change != nil {
				tt.change(&p)
			}
			rules := personalRules()
			if tt.rules != nil {
				tt.rules(&rules)
			}
			err := p.Validate(personalNow, rules)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			got := personalFieldErrors(t, err)
			for field, msg := range tt.want {
				gotMsg, ok := got[field]
				if !ok {
					t.Errorf("no error on %s; got %v", field, got)
				} else if msg != "" && gotMsg != msg {
					t.Errorf("%s: message %q, want %q", field, gotMsg, msg)
				}
			}
			for field, msg := range got {
				if _, ok := tt.want[field]; !ok {
					t.Errorf("unexpected error on %s: %q", field, msg)
				}
			}
		})
	}
}

// personalFieldErrors checks that err is a validation error and returns its
// messages by field.
func personalFieldErrors(tb testing.TB, err error) map[string]string {
	tb.Helper()
	var pe *portal.Error
	if !errors.As(err, &pe) {
		tb.Fatalf("want *portal.Error, got %v", err)
	}
	if pe.Code != portal.EINVALID || pe.Message != portal.ValidationMessage {
		tb.Fatalf("code %q message %q, want %q %q", pe.Code, pe.Message, portal.EINVALID, portal.ValidationMessage)
	}
	got := map[string]string{}
	for _, f := range pe.Fields {
		if f.Message == "" {
			tb.Errorf("field %s has an empty message", f.Field)
		}
		if _, dup := got[f.Field]; dup {
			tb.Errorf("field %s reported twice", f.Field)
		}
		got[f.Field] = f.Message
	}
	return got
}

func TestPersonalInfoValidateWithoutLookups(t *testing.T) {
	t.Run("NilPredicatesAcceptAnyCode", func(t *testing.T) {
		p := validPersonal()
		p.Gender, p.NameSuffix, p.DriversLicenseState = "anything", "whatever", "ZZ-99"
		if err := p.Validate(personalNow, portal.PersonalRules{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("NilPhoneCheckStillRejectsLetters", func(t *testing.T) {
		p := validPersonal()
		p.DaytimePhoneNumber = "call me"
		got := personalFieldErrors(t, p.Validate(personalNow, portal.PersonalRules{}))
		if _, ok := got["daytimePhoneNumber"]; !ok || len(got) != 1 {
			t.Fatalf("got %v", got)
		}
	})
}

func TestPersonalInfoNormalize(t *testing.T) {
	p := portal.PersonalInfo{
		FirstName:                   "  Jane ",
		MiddleName:                  "Q",
		NoMiddleName:                true,
		SSN:                         " 123-45 6789 ",
		ConfirmSSN:                  "123-45-6789",
		Gender:                      " f ",
		NameSuffix:                  "  ",
		DaytimeDialCode:             "+44",
		DaytimePhoneNumber:          "(020) 7946-0000",
		EveningPhoneNumber:          "call me",
		IdentificationCountry:       "ca",
		CountryIdentificationNumber: "X1",
		DriversLicenseNumber:        "d123",
		DriversLicenseState:         "us-ca",
		NoDriversLicenseNumber:      true,
		Licenses:                    []portal.License{{Number: " RN 1 ", RegionID: 6}},
		PrimaryNotificationMethod:   portal.NotificationMethod{Email: " jane@example.com ", Text: "202 456 1111"},
	}
	p.Normalize()

	check := func(name, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	check("FirstNameTrimmed", p.FirstName, "Jane")
	check("MiddleNameClearedByNoMiddleName", p.MiddleName, "")
	check("SSNDigitsOnly", p.SSN, "123456789")
	check("ConfirmSSNDigitsOnly", p.ConfirmSSN, "123456789")
	check("GenderCodeUpperCased", p.Gender, "F")
	check("ClearedSuffixStaysEmpty", p.NameSuffix, "")
	check("DialCodeWithoutPlus", p.DaytimeDialCode, "44")
	check("PhoneDigitsOnly", p.DaytimePhoneNumber, "02079460000")
	check("EveningDialCodeDefaultsTo1", p.EveningDialCode, "1")
	check("PhoneWithLettersKeptForValidation", p.EveningPhoneNumber, "call me")
	check("IdentificationCountryClearedWithSSN", p.IdentificationCountry, "")
	check("IdentificationNumberClearedWithSSN", p.CountryIdentificationNumber, "")
	check("DriversLicenseClearedByNoDriversLicense", p.DriversLicenseNumber, "")
	check("DriversLicenseStateClearedByNoDriversLicense", p.DriversLicenseState, "")
	check("LicenseNumberTrimmed", p.Licenses[0].Number, "RN 1")
	check("NotificationTypeDefaultsToEmail", p.PrimaryNotificationMethod.Type, portal.NotifyByEmail)
	check("NotificationEmailTrimmed", p.PrimaryNotificationMethod.Email, "jane@example.com")
	check("NotificationTextDigitsOnly", p.PrimaryNotificationMethod.Text, "2024561111")

	t.Run("NoSSNClearsSSNAndKeepsIdentification", func(t *testing.T) {
		p := portal.PersonalInfo{SSN: "123456789", ConfirmSSN: "123456789", NoSSN: true, IdentificationCountry: "mx", CountryIdentificationNumber: " X1 "}
		p.Normalize()
		if p.SSN != "" || p.ConfirmSSN != "" || p.IdentificationCountry != "MX" || p.CountryIdentificationNumber != "X1" {
			t.Fatalf("got %+v", p)
		}
	})
	t.Run("ValidateDoesNotChangeItsReceiver", func(t *testing.T) {
		p := validPersonal()
		p.Licenses = []portal.License{{Number: " RN 1 ", RegionID: 6}}
		_ = p.Validate(personalNow, personalRules())
		if p.SSN != "123-45-6789" || p.Licenses[0].Number != " RN 1 " {
			t.Fatalf("Validate changed its input: %+v", p)
		}
	})
}

func TestPersonalInfoJSON(t *testing.T) {
	t.Run("NoMiddleFlagAliasAccepted", func(t *testing.T) {
		var p portal.PersonalInfo
		if err := json.Unmarshal([]byte(`{"firstName":"Jane","noMiddleFlag":true}`), &p); err != nil {
			t.Fatal(err)
		}
		if !p.NoMiddleName || p.FirstName != "Jane" {
			t.Fatalf("got %+v", p)
		}
	})
	t.Run("SuffixAliasAccepted", func(t *testing.T) {
		var p portal.PersonalInfo
		if err := json.Unmarshal([]byte(`{"suffix":"JR"}`), &p); err != nil {
			t.Fatal(err)
		}
		if p.NameSuffix != "JR" {
			t.Fatalf("nameSuffix = %q", p.NameSuffix)
		}
	})
	t.Run("SpecFieldNamesRead", func(t *testing.T) {
		body := `{"firstName":"Jane","noMiddleName":true,"lastName":"Doe","ssn":"123-45-6789","confirmSSN":"123-45-6789",
			"noSSN":false,"dob":"1990-04-25","confirmDOB":"1990-04-25","gender":"F","daytimeDialCode":"1",
			"daytimePhoneNumber":"2024561111","eveningDialCode":"1","eveningPhoneNumber":"","nameSuffix":"",
			"driversLicenseNumber":"D1","noDriversLicenseNumber":false,"driversLicenseState":"US-CA","drugZip":"94105",
			"cdlRequired":true,"licenses":[{"number":"RN 1","regionId":6,"regionName":"California"}],
			"primaryNotificationMethod":{"type":"both","email":"jane@example.com","text":"2024561111"}}`
		var p portal.PersonalInfo
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatal(err)
		}
		if !p.CDLRequired || len(p.Licenses) != 1 || p.Licenses[0].RegionID != 6 || p.PrimaryNotificationMethod.Type != "both" || p.DOB != "1990-04-25" {
			t.Fatalf("got %+v", p)
		}
		if err := p.Validate(personalNow, personalRules()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("MalformedJSONRejected", func(t *testing.T) {
		var p portal.PersonalInfo
		if err := json.Unmarshal([]byte(`{"noSSN":"yes"}`), &p); err == nil {
			t.Fatal("want an error")
		}
	})
}

func TestPersonalInfoSnapshot(t *testing.T) {
	t.Run("EveningPhoneFallsBackToDaytime", func(t *testing.T) {
		p := validPersonal()
		p.DaytimeDialCode, p.DaytimePhoneNumber = "44", "020 7946 0000"
		s := p.Snapshot()
		if s.EveningDialCode != "44" || s.EveningPhoneNumber != "02079460000" {
			t.Fatalf("evening = +%s %s, want the daytime phone", s.EveningDialCode, s.EveningPhoneNumber)
		}
	})
	t.Run("OwnEveningPhoneKept", func(t *testing.T) {
		p := validPersonal()
		p.EveningPhoneNumber = "2125551234"
		s := p.Snapshot()
		if s.EveningDialCode != "1" || s.EveningPhoneNumber != "2125551234" {
			t.Fatalf("evening = +%s %s", s.EveningDialCode, s.EveningPhoneNumber)
		}
	})
	t.Run("OnlyLastFourOfSSN", func(t *testing.T) {
		s := validPersonal().Snapshot()
		if s.SSNLastFour != "6789" {
			t.Fatalf("ssnLastFour = %q", s.SSNLastFour)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "123456789") || strings.Contains(string(b), "123-45") {
			t.Fatalf("snapshot JSON holds the full SSN: %s", b)
		}
		if !strings.Contains(string(b), `"ssnLastFour":"6789"`) {
			t.Fatalf("snapshot JSON lacks ssnLastFour: %s", b)
		}
	})
	t.Run("SpecFieldNames", func(t *testing.T) {
		p := validPersonal()
		p.NoMiddleName, p.NameSuffix = true, "JR"
		b, _ := json.Marshal(p.Snapshot())
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"firstName", "lastName", "middleName", "noMiddleFlag", "suffix", "dob", "ssnLastFour",
			"noSsnFlag", "gender", "mothersMaidenName", "daytimeDialCode", "daytimePhoneNumber", "eveningDialCode",
			"eveningPhoneNumber", "identificationCountry", "countryIdentificationNumber", "driversLicense",
			"driversLicenseState", "noDriversLicenseFlag", "drugZip", "cdlRequired", "licenses", "primaryNotificationMethod"} {
			if _, ok := m[k]; !ok {
				t.Errorf("snapshot JSON lacks %s", k)
			}
		}
		if _, ok := m["ssn"]; ok {
			t.Error("snapshot JSON has an ssn key")
		}
		if m["noMiddleFlag"] != true || m["suffix"] != "JR" || m["driversLicense"] != "D1234567" {
			t.Errorf("got %v", m)
		}
	})
	t.Run("NoSSNSnapshotHasNoLastFour", func(t *testing.T) {
		p := validPersonal()
		p.NoSSN, p.IdentificationCountry, p.CountryIdentificationNumber = true, "CA", "X1"
		s := p.Snapshot()
		if s.SSNLastFour != "" || !s.NoSSNFlag || s.IdentificationCountry != "CA" {
			t.Fatalf("got %+v", s)
		}
	})
	t.Run("LicensesNeverNull", func(t *testing.T) {
		if s := validPersonal().Snapshot(); s.Licenses == nil {
			t.Fatal("licenses is nil; the app expects a list")
		}
	})
}

func TestSSNLastFour(t *testing.T) {
	tests := []struct{ name, ssn, want string }{
		{"DigitsOnly", "123456789", "6789"},
		{"WithDashes", "123-45-6789", "6789"},
		{"Empty", "", ""},
		{"FewerThanFourDigits", "12-3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := portal.SSNLastFour(tt.ssn); got != tt.want {
				t.Fatalf("SSNLastFour(%q) = %q, want %q", tt.ssn, got, tt.want)
			}
		})
	}
}

// TestPersonalInfoSharedCases runs testdata/personal-cases.json, the table
// of personal information cases the app's Vitest runs too, so the two
// copies of the rules cannot drift apart unnoticed.
func TestPersonalInfoSharedCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/personal-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Today string         `json:"today"`
		Base  map[string]any `json:"base"`
		Cases []struct {
			Name   string            `json:"name"`
			Change map[string]any    `json:"change"`
			Rules  portalRulesJSON   `json:"rules"`
			Want   map[string]string `json:"want"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatalf("personal-cases.json: %v", err)
	}
	today, err := time.Parse(portal.DateLayout, table.Today)
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 40 {
		t.Fatalf("personal-cases.json holds %d cases, want at least 40", len(table.Cases))
	}
	seen := map[string]bool{}
	for _, c := range table.Cases {
		if seen[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			form := maps.Clone(table.Base)
			maps.Copy(form, c.Change)
			b, _ := json.Marshal(form)
			var p portal.PersonalInfo
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			rules := personalRules()
			rules.RequireSSN, rules.SSNOnFile = c.Rules.RequireSSN, c.Rules.SSNOnFile
			// Midday, as the app's clock would be: the day is what counts.
			got := map[string]string{}
			if err := p.Validate(today.Add(12*time.Hour), rules); err != nil {
				got = personalFieldErrors(t, err)
			}
			if !maps.Equal(got, c.Want) {
				t.Errorf("errors\n got %v\nwant %v", got, c.Want)
			}
		})
	}
}

type portalRulesJSON struct {
	RequireSSN bool `json:"requireSSN"`
	SSNOnFile  bool `json:"ssnOnFile"`
}
