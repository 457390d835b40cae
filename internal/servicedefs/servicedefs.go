// Package servicedefs holds the standard field definitions of the services
// that have applicant pages. A package service whose definitions the
// operator left empty gets these, so no page is ever required with nothing
// to fill in; the demo package stores them as its own.
//
// Every text (a label, a hint, an option's label) is written in English
// with its Spanish beside it (tr). Standard answers the English, as it is
// stored; Localize puts a package's definitions, stored or standard, in the
// request's language, each text the standard definitions hold in English
// becoming its translation. A text an operator wrote stays as written.
package servicedefs

import (
	"sync"

	"applicantportal/internal/portal"
)

// Standard returns the field definitions of the services with applicant
// pages (education, employment, DOT employment, credentials, professional
// references), in English; nil for any other code.
func Standard(code string) []portal.FieldDefinition {
	return standard(code, nil)
}

// Codes are the services Standard has definitions for.
var Codes = []string{"edus", "iedu", "emps", "iemp", "dots", "cred", "prof"}

// standard builds code's definitions in English, and records each text's
// translations in seen when it is not nil.
func standard(code string, seen map[string]text) []portal.FieldDefinition {
	b := &builder{seen: seen}
	switch code {
	case "edus":
		education(b, 100, false)
	case "iedu":
		education(b, 200, true)
	case "emps":
		employment(b, 300)
	case "iemp":
		employment(b, 400)
	case "dots":
		dotEmployment(b, 500)
	case "cred":
		credential(b, 600)
	case "prof":
		professional(b, 700)
	default:
		return nil
	}
	return b.fields
}

// text is one text in English and in Spanish.
type text struct{ en, es string }

func tr(en, es string) text { return text{en, es} }

// in is the text in l, English for any language but Spanish.
func (t text) in(l portal.Locale) string {
	if l == portal.LocaleEsUS {
		return t.es
	}
	return t.en
}

// Texts are every text of the standard definitions, by its English.
var Texts = sync.OnceValue(func() map[string]text {
	seen := map[string]text{}
	for _, code := range Codes {
		standard(code, seen)
	}
	return seen
})

// Translation is a standard text's translation into l, and false for a
// text the standard definitions do not hold.
func Translation(en string, l portal.Locale) (string, bool) {
	t, ok := Texts()[en]
	if !ok {
		return "", false
	}
	return t.in(l), true
}

// Localize returns fields with their labels, hints and options' labels in
// l where they are standard texts; fields itself is not changed.
func Localize(fields []portal.FieldDefinition, l portal.Locale) []portal.FieldDefinition {
	if l.OrDefault() == portal.DefaultLocale || len(fields) == 0 {
		return fields
	}
	say := func(s string) string {
		if t, ok := Translation(s, l); ok {
			return t
		}
		return s
	}
	out := make([]portal.FieldDefinition, len(fields))
	for i, f := range fields {
		f.Name, f.Hint = say(f.Name), say(f.Hint)
		opts := make([]portal.Option, len(f.Options))
		for j, o := range f.Options {
			o.Label = say(o.Label)
			opts[j] = o
		}
		f.Options = opts
		out[i] = f
	}
	return out
}

// builder numbers fields within one service so ids are unique per service,
// and notes every text it is given in seen (when not nil).
type builder struct {
	base   int64
	fields []portal.FieldDefinition
	seen   map[string]text
}

// say is t in English, noted in seen.
func (b *builder) say(t text) string {
	if b.seen != nil {
		b.seen[t.en] = t
	}
	return t.en
}

func (b *builder) add(rank int, api string, name text, typ string, opts ...func(*builder, *portal.FieldDefinition)) {
	f := portal.FieldDefinition{ID: b.base + int64(len(b.fields)) + 1, API: api, Name: b.say(name), Type: typ, Rank: rank,
		Options: []portal.Option{}}
	switch typ {
	case portal.FieldState:
		f.Reference = "states"
	case portal.FieldCountry:
		f.Reference = "countries"
	}
	for _, o := range opts {
		o(b, &f)
	}
	b.fields = append(b.fields, f)
}

func required(_ *builder, f *portal.FieldDefinition)  { f.RequiredFlag = true }
func notFuture(_ *builder, f *portal.FieldDefinition) { f.NotFuture = true }
func hint(h text) func(*builder, *portal.FieldDefinition) {
	return func(b *builder, f *portal.FieldDefinition) { f.Hint = b.say(h) }
}
func after(api string) func(*builder, *portal.FieldDefinition) {
	return func(_ *builder, f *portal.FieldDefinition) { f.After = api }
}
func format(re string) func(*builder, *portal.FieldDefinition) {
	return func(_ *builder, f *portal.FieldDefinition) { f.Format = re }
}
func maxLength(n int) func(*builder, *portal.FieldDefinition) {
	return func(_ *builder, f *portal.FieldDefinition) { f.MaxLength = n }
}
func flag(fl string) func(*builder, *portal.FieldDefinition) {
	return func(_ *builder, f *portal.FieldDefinition) { f.Flag = fl }
}
func requiredWhen(r *portal.Rule) func(*builder, *portal.FieldDefinition) {
	return func(_ *builder, f *portal.FieldDefinition) { f.RequiredWhen = r }
}
func visibleWhen(r *portal.Rule) func(*builder, *portal.FieldDefinition) {
	return func(_ *builder, f *portal.FieldDefinition) { f.VisibleWhen = r }
}

// option is one choice of a select or radio field.
type option struct {
	value string
	label text
}

func opt(value string, label text) option { return option{value, label} }

func options(choices ...option) func(*builder, *portal.FieldDefinition) {
	return func(b *builder, f *portal.FieldDefinition) {
		for _, c := range choices {
			f.Options = append(f.Options, portal.Option{Value: c.value, Label: b.say(c.label)})
		}
	}
}

var yesNo = options(opt("yes", tr("Yes", "Sí")), opt("no", tr("No", "No")))

const phoneFormat = `\+?[0-9 ().-]{7,20}`

func education(b *builder, base int64, international bool) {
	b.base = base
	graduated := portal.Equals("graduated", "yes")
	b.add(10, "school_name", tr("School name", "Nombre de la escuela"), portal.FieldText, required,
		hint(tr("The full name of the school, college or university, as on your diploma.", "El nombre completo de la escuela, el colegio universitario o la universidad, como aparece en su diploma.")))
	b.add(20, "school_type", tr("Type of school", "Tipo de escuela"), portal.FieldSelect, required, options(
		opt("high_school", tr("High school", "Escuela secundaria (high school)")), opt("vocational", tr("Vocational or trade school", "Escuela vocacional o técnica")),
		opt("community_college", tr("Community college", "Colegio comunitario (community college)")), opt("college", tr("College or university", "Colegio universitario o universidad")), opt("graduate", tr("Graduate school", "Escuela de posgrado"))))
	// Country first: the state is asked only for a school in the US.
	b.add(30, "school_country", tr("Country", "País"), portal.FieldCountry, required)
	b.add(40, "school_city", tr("City", "Ciudad"), portal.FieldText, required)
	b.add(50, "school_state", tr("State", "Estado"), portal.FieldState, required,
		visibleWhen(portal.Equals("school_country", "US")))
	b.add(60, "attended_from", tr("Attended from", "Asistió desde"), portal.FieldMonth, required, notFuture)
	b.add(70, "attended_to", tr("Attended to", "Asistió hasta"), portal.FieldMonth, required, notFuture, after("attended_from"),
		hint(tr("The last month you attended, or the current month if you still do.", "El último mes en que asistió, o el mes actual si todavía asiste.")))
	b.add(80, "graduated", tr("Did you graduate?", "¿Se graduó?"), portal.FieldRadio, required, yesNo)
	b.add(90, "degree", tr("Degree or diploma", "Título o diploma"), portal.FieldSelect, requiredWhen(graduated), options(
		opt("high_school_diploma", tr("High school diploma", "Diploma de escuela secundaria")), opt("ged", tr("GED or equivalent", "GED o equivalente")), opt("certificate", tr("Certificate", "Certificado")),
		opt("associate", tr("Associate degree", "Título asociado (associate degree)")), opt("bachelor", tr("Bachelor's degree", "Licenciatura (bachelor's degree)")), opt("master", tr("Master's degree", "Maestría")),
		opt("doctorate", tr("Doctorate", "Doctorado")), opt("professional", tr("Professional degree (JD, MD...)", "Título profesional (JD, MD...)")), opt("other", tr("Other", "Otro"))),
		hint(tr("The degree you earned, or the one you studied for.", "El título que obtuvo, o el que estudió.")))
	b.add(100, "degree_other", tr("Name of the degree", "Nombre del título"), portal.FieldText,
		requiredWhen(portal.Equals("degree", "other")), visibleWhen(portal.Equals("degree", "other")))
	b.add(110, "major", tr("Major or field of study", "Especialidad o área de estudio"), portal.FieldText)
	// Most graduate in the month they last attend: asked only when it differs, so not required.
	b.add(120, "graduation_date", tr("Graduation date", "Fecha de graduación"), portal.FieldMonth, notFuture, after("attended_from"),
		visibleWhen(graduated), hint(tr("Only if it differs from Attended to: leave it empty if you graduated in the month you last attended.", "Solo si es distinta de Asistió hasta: déjela vacía si se graduó en el último mes en que asistió.")))
	b.add(130, "name_while_attending", tr("Your name while attending", "Su nombre mientras asistía"), portal.FieldText,
		hint(tr("Only if it differs from your current name, so the school can find your record.", "Solo si es distinto de su nombre actual, para que la escuela pueda encontrar su expediente.")))
	if international {
		b.add(140, "student_id", tr("Student or registration number", "Número de estudiante o de matrícula"), portal.FieldText,
			hint(tr("Schools outside the US often confirm a degree by this number.", "Las escuelas fuera de los Estados Unidos suelen confirmar un título con este número.")))
	}
}

func employment(b *builder, base int64) {
	b.base = base
	current := portal.Equals("currently_employed", true)
	past := portal.Not(current)
	contact := portal.Equals("may_contact", "yes")
	b.add(10, "employer_name", tr("Employer name", "Nombre del empleador"), portal.FieldText, required,
		hint(tr("The company's legal or trading name; for a staffing agency, the agency.", "El nombre legal o comercial de la empresa; para una agencia de empleo, la agencia.")))
	// Country first: the state is asked only for an employer in the US.
	b.add(20, "employer_country", tr("Country", "País"), portal.FieldCountry, required)
	b.add(30, "employer_city", tr("City", "Ciudad"), portal.FieldText, required)
	b.add(40, "employer_state", tr("State", "Estado"), portal.FieldState, required,
		visibleWhen(portal.Equals("employer_country", "US")))
	b.add(50, "employer_phone_no", tr("Employer phone number", "Número de teléfono del empleador"), portal.FieldPhone, required, format(phoneFormat),
		hint(tr("The main number or the HR department, for example (555) 123-4567.", "El número principal o el del departamento de recursos humanos, por ejemplo (555) 123-4567.")))
	b.add(60, "job_title", tr("Job title", "Puesto"), portal.FieldText, required)
	b.add(70, "start_date", tr("Start date", "Fecha de inicio"), portal.FieldDate, required, notFuture)
	b.add(80, "currently_employed", tr("I currently work here", "Trabajo aquí actualmente"), portal.FieldCheckbox)
	b.add(90, "end_date", tr("End date", "Fecha de finalización"), portal.FieldDate, notFuture, after("start_date"),
		requiredWhen(portal.Equals("currently_employed", false)), visibleWhen(past))
	b.add(100, "may_contact", tr("May we contact this employer?", "¿Podemos comunicarnos con este empleador?"), portal.FieldRadio, required, yesNo,
		hint(tr("For your current employer you may say no; we then contact them only after an offer.", "Para su empleador actual puede decir que no; en ese caso, nos comunicaremos con él solo después de una oferta.")))
	b.add(110, "supervisor_name", tr("Supervisor's name", "Nombre del supervisor"), portal.FieldText, requiredWhen(contact), visibleWhen(contact))
	b.add(120, "supervisor_phone", tr("Supervisor's phone number", "Número de teléfono del supervisor"), portal.FieldPhone, format(phoneFormat),
		visibleWhen(contact))
	b.add(130, "reason_for_leaving", tr("Reason for leaving", "Motivo de la salida"), portal.FieldTextarea, maxLength(1000),
		requiredWhen(portal.Equals("currently_employed", false)), visibleWhen(past))
}

func dotEmployment(b *builder, base int64) {
	b.base = base
	dot := portal.Equals("employer_dot", true)
	b.add(140, "employer_dot", tr("This employer was regulated by the U.S. Department of Transportation (DOT)", "Este empleador estaba regulado por el Departamento de Transporte de los EE. UU. (DOT)"),
		portal.FieldCheckbox, flag(portal.FlagDOT),
		hint(tr("Tick it for jobs where you drove a commercial vehicle, flew, worked on a railroad, pipeline or "+
			"transit system under DOT drug and alcohol rules. Under 49 CFR 40.25 we ask each DOT-regulated "+
			"employer of the past two years about your tests; you sign a separate release for each one.",
			"Márquela para los trabajos en los que manejó un vehículo comercial, voló, o trabajó en un ferrocarril, "+
				"un oleoducto o gasoducto o un sistema de transporte público bajo las reglas del DOT sobre drogas y alcohol. "+
				"Según 49 CFR 40.25, preguntamos a cada empleador regulado por el DOT de los últimos dos años sobre sus pruebas; "+
				"usted firma una autorización aparte para cada uno.")))
	b.add(150, "dot_agency", tr("DOT agency", "Agencia del DOT"), portal.FieldSelect, requiredWhen(dot), visibleWhen(dot), options(
		opt("fmcsa", tr("FMCSA (motor carriers)", "FMCSA (transportistas por carretera)")), opt("faa", tr("FAA (aviation)", "FAA (aviación)")), opt("fra", tr("FRA (railroads)", "FRA (ferrocarriles)")),
		opt("fta", tr("FTA (public transit)", "FTA (transporte público)")), opt("phmsa", tr("PHMSA (pipelines)", "PHMSA (oleoductos y gasoductos)")), opt("uscg", tr("USCG (maritime)", "USCG (marítimo)"))))
}

func credential(b *builder, base int64) {
	b.base = base
	expires := portal.Not(portal.Equals("no_expiration", true))
	b.add(10, "credential_type", tr("Type", "Tipo"), portal.FieldSelect, required,
		options(opt("license", tr("License", "Licencia")), opt("certification", tr("Certification", "Certificación")), opt("registration", tr("Registration", "Registro"))))
	b.add(20, "credential_name", tr("Name of the license or credential", "Nombre de la licencia o credencial"), portal.FieldText, required,
		hint(tr("For example: Registered Nurse, Commercial Driver's License class A.", "Por ejemplo: enfermera registrada, licencia de conducir comercial clase A.")))
	b.add(30, "issuing_authority", tr("Issuing authority", "Autoridad que la emitió"), portal.FieldText, required,
		hint(tr("The board, agency or body that issued it.", "La junta, agencia u organismo que la emitió.")))
	b.add(40, "credential_state", tr("State", "Estado"), portal.FieldState, hint(tr("The state that issued it, if any.", "El estado que la emitió, si corresponde.")))
	b.add(50, "credential_number", tr("License or certificate number", "Número de licencia o certificado"), portal.FieldText, required, maxLength(50))
	b.add(60, "issued_date", tr("Issued on", "Fecha de emisión"), portal.FieldDate, required, notFuture)
	b.add(70, "expiration_date", tr("Expires on", "Fecha de vencimiento"), portal.FieldDate, after("issued_date"),
		requiredWhen(expires), visibleWhen(expires))
	b.add(80, "no_expiration", tr("It does not expire", "No vence"), portal.FieldCheckbox)
}

func professional(b *builder, base int64) {
	b.base = base
	b.add(10, "reference_name", tr("Full name", "Nombre completo"), portal.FieldText, required)
	b.add(20, "relationship", tr("Relationship to you", "Relación con usted"), portal.FieldSelect, required, options(
		opt("supervisor", tr("Supervisor or manager", "Supervisor o gerente")), opt("coworker", tr("Coworker", "Compañero de trabajo")), opt("client", tr("Client or customer", "Cliente")),
		opt("mentor", tr("Teacher or mentor", "Maestro o mentor")), opt("other", tr("Other", "Otro"))))
	b.add(30, "reference_company", tr("Company", "Empresa"), portal.FieldText)
	b.add(40, "reference_phone", tr("Phone number", "Número de teléfono"), portal.FieldPhone, required, format(phoneFormat))
	b.add(50, "reference_email", tr("E-mail address", "Correo electrónico"), portal.FieldEmail)
	b.add(60, "years_known", tr("Years you have known them", "Años que lo conoce"), portal.FieldText, required, format(`[0-9]{1,2}`),
		maxLength(2), hint(tr("Whole years, for example 3.", "Años completos, por ejemplo 3.")))
}
