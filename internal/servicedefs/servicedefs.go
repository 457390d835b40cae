// Package servicedefs holds the standard field definitions of the services
// that have applicant pages. A package service whose definitions the
// operator left empty gets these, so no page is ever required with nothing
// to fill in; the demo package stores them as its own.
package servicedefs

import "applicantportal/internal/portal"

// Standard returns the field definitions of the services with applicant
// pages (education, employment, DOT employment, credentials, professional
// references); nil for any other code.
func Standard(code string) []portal.FieldDefinition {
	switch code {
	case "edus":
		return education(100, false)
	case "iedu":
		return education(200, true)
	case "emps":
		return employment(300)
	case "iemp":
		return employment(400)
	case "dots":
		return dotEmployment(500)
	case "cred":
		return credential(600)
	case "prof":
		return professional(700)
	}
	return nil
}

// builder numbers fields within one service so ids are unique per service.
type builder struct {
	base   int64
	fields []portal.FieldDefinition
}

func (b *builder) add(rank int, api, name, typ string, opts ...func(*portal.FieldDefinition)) {
	f := portal.FieldDefinition{ID: b.base + int64(len(b.fields)) + 1, API: api, Name: name, Type: typ, Rank: rank,
		Options: []portal.Option{}}
	switch typ {
	case portal.FieldState:
		f.Reference = "states"
	case portal.FieldCountry:
		f.Reference = "countries"
	}
	for _, o := range opts {
		o(&f)
	}
	b.fields = append(b.fields, f)
}

func required(f *portal.FieldDefinition)  { f.RequiredFlag = true }
func notFuture(f *portal.FieldDefinition) { f.NotFuture = true }
func hint(h string) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.Hint = h }
}
func after(api string) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.After = api }
}
func format(re string) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.Format = re }
}
func maxLength(n int) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.MaxLength = n }
}
func flag(fl string) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.Flag = fl }
}
func requiredWhen(r *portal.Rule) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.RequiredWhen = r }
}
func visibleWhen(r *portal.Rule) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) { f.VisibleWhen = r }
}
func options(pairs ...string) func(*portal.FieldDefinition) {
	return func(f *portal.FieldDefinition) {
		for i := 0; i+1 < len(pairs); i += 2 {
			f.Options = append(f.Options, portal.Option{Value: pairs[i], Label: pairs[i+1]})
		}
	}
}

var yesNo = options("yes", "Yes", "no", "No")

const phoneFormat = `\+?[0-9 ().-]{7,20}`

func education(base int64, international bool) []portal.FieldDefinition {
	b := &builder{base: base}
	graduated := portal.Equals("graduated", "yes")
	b.add(10, "school_name", "School name", portal.FieldText, required,
		hint("The full name of the school, college or university, as on your diploma."))
	b.add(20, "school_type", "Type of school", portal.FieldSelect, required, options(
		"high_school", "High school", "vocational", "Vocational or trade school",
		"community_college", "Community college", "college", "College or university", "graduate", "Graduate school"))
	// Country first: the state is asked only for a school in the US.
	b.add(30, "school_country", "Country", portal.FieldCountry, required)
	b.add(40, "school_city", "City", portal.FieldText, required)
	b.add(50, "school_state", "State", portal.FieldState, required,
		visibleWhen(portal.Equals("school_country", "US")))
	b.add(60, "attended_from", "Attended from", portal.FieldMonth, required, notFuture)
	b.add(70, "attended_to", "Attended to", portal.FieldMonth, required, notFuture, after("attended_from"),
		hint("The last month you attended, or the current month if you still do."))
	b.add(80, "graduated", "Did you graduate?", portal.FieldRadio, required, yesNo)
	b.add(90, "degree", "Degree or diploma", portal.FieldSelect, requiredWhen(graduated), options(
		"high_school_diploma", "High school diploma", "ged", "GED or equivalent", "certificate", "Certificate",
		"associate", "Associate degree", "bachelor", "Bachelor's degree", "master", "Master's degree",
		"doctorate", "Doctorate", "professional", "Professional degree (JD, MD...)", "other", "Other"),
		hint("The degree you earned, or the one you studied for."))
	b.add(100, "degree_other", "Name of the degree", portal.FieldText,
		requiredWhen(portal.Equals("degree", "other")), visibleWhen(portal.Equals("degree", "other")))
	b.add(110, "major", "Major or field of study", portal.FieldText)
	// Most graduate in the month they last attend: asked only when it differs, so not required.
	b.add(120, "graduation_date", "Graduation date", portal.FieldMonth, notFuture, after("attended_from"),
		visibleWhen(graduated), hint("Only if it differs from Attended to: leave it empty if you graduated in the month you last attended."))
	b.add(130, "name_while_attending", "Your name while attending", portal.FieldText,
		hint("Only if it differs from your current name, so the school can find your record."))
	if international {
		b.add(140, "student_id", "Student or registration number", portal.FieldText,
			hint("Schools outside the US often confirm a degree by this number."))
	}
	return b.fields
}

func employment(base int64) []portal.FieldDefinition {
	b := &builder{base: base}
	current := portal.Equals("currently_employed", true)
	past := portal.Not(current)
	contact := portal.Equals("may_contact", "yes")
	b.add(10, "employer_name", "Employer name", portal.FieldText, required,
		hint("The company's legal or trading name; for a staffing agency, the agency."))
	// Country first: the state is asked only for an employer in the US.
	b.add(20, "employer_country", "Country", portal.FieldCountry, required)
	b.add(30, "employer_city", "City", portal.FieldText, required)
	b.add(40, "employer_state", "State", portal.FieldState, required,
		visibleWhen(portal.Equals("employer_country", "US")))
	b.add(50, "employer_phone_no", "Employer phone number", portal.FieldPhone, required, format(phoneFormat),
		hint("The main number or the HR department, for example (555) 123-4567."))
	b.add(60, "job_title", "Job title", portal.FieldText, required)
	b.add(70, "start_date", "Start date", portal.FieldDate, required, notFuture)
	b.add(80, "currently_employed", "I currently work here", portal.FieldCheckbox)
	b.add(90, "end_date", "End date", portal.FieldDate, notFuture, after("start_date"),
		requiredWhen(portal.Equals("currently_employed", false)), visibleWhen(past))
	b.add(100, "may_contact", "May we contact this employer?", portal.FieldRadio, required, yesNo,
		hint("For your current employer you may say no; we then contact them only after an offer."))
	b.add(110, "supervisor_name", "Supervisor's name", portal.FieldText, requiredWhen(contact), visibleWhen(contact))
	b.add(120, "supervisor_phone", "Supervisor's phone number", portal.FieldPhone, format(phoneFormat),
		visibleWhen(contact))
	b.add(130, "reason_for_leaving", "Reason for leaving", portal.FieldTextarea, maxLength(1000),
		requiredWhen(portal.Equals("currently_employed", false)), visibleWhen(past))
	return b.fields
}

func dotEmployment(base int64) []portal.FieldDefinition {
	b := &builder{base: base}
	dot := portal.Equals("employer_dot", true)
	b.add(140, "employer_dot", "This employer was regulated by the U.S. Department of Transportation (DOT)",
		portal.FieldCheckbox, flag(portal.FlagDOT),
		hint("Tick it for jobs where you drove a commercial vehicle, flew, worked on a railroad, pipeline or "+
			"transit system under DOT drug and alcohol rules. Under 49 CFR 40.25 we ask each DOT-regulated "+
			"employer of the past two years about your tests; you sign a separate release for each one."))
	b.add(150, "dot_agency", "DOT agency", portal.FieldSelect, requiredWhen(dot), visibleWhen(dot), options(
		"fmcsa", "FMCSA (motor carriers)", "faa", "FAA (aviation)", "fra", "FRA (railroads)",
		"fta", "FTA (public transit)", "phmsa", "PHMSA (pipelines)", "uscg", "USCG (maritime)"))
	return b.fields
}

func credential(base int64) []portal.FieldDefinition {
	b := &builder{base: base}
	expires := portal.Not(portal.Equals("no_expiration", true))
	b.add(10, "credential_type", "Type", portal.FieldSelect, required,
		options("license", "License", "certification", "Certification", "registration", "Registration"))
	b.add(20, "credential_name", "Name of the license or credential", portal.FieldText, required,
		hint("For example: Registered Nurse, Commercial Driver's License class A."))
	b.add(30, "issuing_authority", "Issuing authority", portal.FieldText, required,
		hint("The board, agency or body that issued it."))
	b.add(40, "credential_state", "State", portal.FieldState, hint("The state that issued it, if any."))
	b.add(50, "credential_number", "License or certificate number", portal.FieldText, required, maxLength(50))
	b.add(60, "issued_date", "Issued on", portal.FieldDate, required, notFuture)
	b.add(70, "expiration_date", "Expires on", portal.FieldDate, after("issued_date"),
		requiredWhen(expires), visibleWhen(expires))
	b.add(80, "no_expiration", "It does not expire", portal.FieldCheckbox)
	return b.fields
}

func professional(base int64) []portal.FieldDefinition {
	b := &builder{base: base}
	b.add(10, "reference_name", "Full name", portal.FieldText, required)
	b.add(20, "relationship", "Relationship to you", portal.FieldSelect, required, options(
		"supervisor", "Supervisor or manager", "coworker", "Coworker", "client", "Client or customer",
		"mentor", "Teacher or mentor", "other", "Other"))
	b.add(30, "reference_company", "Company", portal.FieldText)
	b.add(40, "reference_phone", "Phone number", portal.FieldPhone, required, format(phoneFormat))
	b.add(50, "reference_email", "E-mail address", portal.FieldEmail)
	b.add(60, "years_known", "Years you have known them", portal.FieldText, required, format(`[0-9]{1,2}`),
		maxLength(2), hint("Whole years, for example 3."))
	return b.fields
}
