package store

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
)

// verb is one fmt verb of a text: which argument (1-based) and how.
type verb struct {
	arg  int
	kind byte
}

var verbPattern = regexp.MustCompile(`%(?:\[(\d+)\])?([a-z%])`)

// verbsOf lists the arguments a format string reads, in argument order, as
// fmt counts them: one after another, or by an explicit [n].
func verbsOf(format string) []verb {
	var out []verb
	next := 1
	for _, m := range verbPattern.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		out = append(out, verb{next, m[2][0]})
		next++
	}
	slices.SortFunc(out, func(a, b verb) int { return a.arg - b.arg })
	return slices.Compact(out)
}

// TestMessagesInEveryLanguage: every language the portal speaks has every
// text of every e-mail and text message, filled with the same arguments
// as the English one, so a message never goes out half translated or with
// a "%!s(MISSING)" in it.
func TestMessagesInEveryLanguage(t *testing.T) {
	for _, l := range portal.Locales {
		texts, ok := messageCatalogue[l]
		if !ok {
			t.Errorf("%s: no messages", l)
			continue
		}
		if texts.lang != l {
			t.Errorf("%s: the texts say they are %s", l, texts.lang)
		}
		en, got := reflect.ValueOf(englishMessages), reflect.ValueOf(*texts)
		for i := range got.NumField() {
			name := got.Type().Field(i).Name
			if !got.Type().Field(i).IsExported() {
				continue // not a text
			}
			switch f := got.Field(i); f.Kind() {
			case reflect.String:
				if strings.TrimSpace(f.String()) == "" {
					t.Errorf("%s: %s is missing", l, name)
				} else if want, have := verbsOf(en.Field(i).String()), verbsOf(f.String()); !slices.Equal(have, want) {
					t.Errorf("%s: %s reads the arguments %v, the English %v", l, name, have, want)
				}
			default:
				t.Errorf("%s: %s is a %s; the test checks strings", l, name, f.Kind())
			}
		}
	}
}

// TestMessagesInSpanish renders each kind of message in Spanish: it is in
// Spanish and carries what it must (names, links, codes, dates).
func TestMessagesInSpanish(t *testing.T) {
	es := messagesIn(portal.LocaleEsUS)
	both := func(subject, body string) string { return subject + "\n" + body }
	notice := func(n portal.Notice) string { return n.Subject + "\n" + n.Body + "\n" + n.Text }
	due := time.Date(2026, time.March, 4, 0, 0, 0, 0, time.UTC)
	dispute := &portal.Dispute{ServiceCode: "crim", ServiceName: "Antecedentes penales", DueAt: due}
	adverse := &portal.AdverseAction{CompanyName: "Acme", WaitingDays: 5, EndsOn: due}
	tests := []struct {
		name string
		got  string
		want []string
	}{
		{"Invitation", both(es.invitationMail("Acme", "Dana", "https://p/setup?token=x", 14*24*time.Hour)),
			[]string{"Lo invitamos a completar su verificación de antecedentes para Acme", "Hola, Dana:", "14 días", "https://p/setup?token=x"}},
		{"InvitationReminder", both(es.invitationReminderMail("Acme", "Dana", "https://p/setup", 24*time.Hour, "https://p/stop")),
			[]string{"Recordatorio: complete", "24 horas", "https://p/stop"}},
		{"ProgressReminder", both(es.progressReminderMail("Acme", "Dana", es.NextVerify, "https://p/login", "https://p/stop")),
			[]string{"Recordatorio: termine", "Siguiente paso: verificar su identidad.", "https://p/login"}},
		{"ReminderText", es.reminderText("Acme", es.NextPayment, "https://p/login", "https://p/stop"),
			[]string{"Acme: su verificación de antecedentes no está terminada", "autorizar el pago"}},
		{"NextStep", es.nextStep(portal.StatusNew, portal.StatusFacts{HasPassword: true, UnsignedDocuments: []string{"Divulgación"}}),
			[]string{"leer y firmar este documento: Divulgación"}},
		{"Reset", both(es.resetMail("Dana", "https://p/reset?token=x", time.Hour)),
			[]string{"Restablezca la contraseña", "1 hora", "https://p/reset?token=x"}},
		{"LoginCode", both(es.loginCodeMail("Dana", "012345", portal.LoginCodeTTL)),
			[]string{"Su código para iniciar sesión", "012345", "10 minutos"}},
		{"LoginCodeText", es.loginCodeText("012345"), []string{"012345 es su código", "10 minutos"}},
		{"EmailConfirm", both(es.emailConfirmMail("Dana", "new@example.com", "https://p/confirm-email?token=x", 24*time.Hour)),
			[]string{"Confirme su nuevo correo electrónico", "new@example.com", "https://p/confirm-email?token=x"}},
		{"EmailChanging", both(es.emailChangingMail("Dana", "old@example.com", "new@example.com", 24*time.Hour, "https://p/login")),
			[]string{"está a punto de cambiar", "old@example.com", "new@example.com", "https://p/login"}},
		{"EmailChanged", both(es.emailChangedMail("Dana", "old@example.com", "new@example.com")),
			[]string{"Su correo electrónico cambió", "de old@example.com a new@example.com"}},
		{"PasswordChanged", both(es.passwordChangedMail("Dana", "Acme", due.Add(15*time.Hour+4*time.Minute), false)),
			[]string{"Su contraseña cambió", "Hola, Dana:", "con Acme se cambió el 4 de marzo de 2026 a las 15:04 UTC"}},
		{"PasswordWasReset", both(es.passwordChangedMail("Dana", "Acme", due, true)),
			[]string{"Su contraseña se restableció", "se restableció el 4 de marzo de 2026 a las 00:00 UTC"}},
		{"Handoff", both(es.handoffMail("Dana", "https://p/continue?token=x")),
			[]string{"Continúe su solicitud en otro dispositivo", "https://p/continue?token=x"}},
		{"HandoffText", es.handoffText("https://p/continue?token=x"), []string{"Continúe su solicitud", "https://p/continue?token=x"}},
		{"ChatWaiting", both(es.chatWaitingMail("Acme", "Dana")), []string{"Nuevo mensaje de Acme", "Mensajes"}},
		{"Needs", notice(es.needsNotice("Dana", "Antecedentes penales", "")),
			[]string{"necesita algo de usted", "Antecedentes penales: Necesitamos algo de usted"}},
		{"Complete", notice(es.completeNotice("Dana")), []string{"Su verificación de antecedentes está completa", "Hola, Dana:"}},
		{"FreeCopy", notice(es.freeCopyNotice("Dana")), []string{"Su copia gratuita", "fecha de nacimiento"}},
		{"ReportReady", notice(es.reportNotice("Dana", portal.ReportDrug, false)), []string{"Su informe de la prueba de drogas está listo"}},
		{"ReportUpdated", notice(es.reportNotice("Dana", portal.ReportBackground, true)), []string{"Su informe de antecedentes se actualizó"}},
		{"PreAdverse", notice(es.preAdverseNotice(adverse)),
			[]string{"Antes de que Acme decida", "miércoles, 4 de marzo de 2026", "(5 días hábiles)"}},
		{"FinalAdverse", notice(es.finalAdverseNotice(adverse)), []string{"Acme tomó su decisión", "copia gratuita de su informe dentro de 60 días"}},
		{"DisputeReceived", notice(es.disputeReceivedNotice("Acme", dispute)),
			[]string{"Recibimos su disputa", `la parte "Antecedentes penales" de su informe`, "4 de marzo de 2026"}},
		{"DisputeAnswer", notice(es.disputeAnswerNotice("Acme", &portal.Dispute{DueAt: due})),
			[]string{"Hay una respuesta a su disputa sobre su informe de antecedentes"}},
		{"DisputeResolved", notice(es.disputeResolvedNotice("Acme", dispute, portal.DisputeCorrected)),
			[]string{"Su disputa está resuelta", "se corrigió la información"}},
		{"PaperForms", both(es.paperFormsMail(&portal.Subject{FirstName: "Dana", LastName: "Ruiz"}, &portal.Company{Name: "Acme"})),
			[]string{"formularios en papel", "Hola, Dana Ruiz:", "con Acme"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.got, "%!") {
				t.Errorf("a bad argument:\n%s", tt.got)
			}
			for _, w := range tt.want {
				if !strings.Contains(tt.got, w) {
					t.Errorf("missing %q in:\n%s", w, tt.got)
				}
			}
		})
	}
}

// TestMessagesOfAnUnknownLanguageAreEnglish: a stored language the portal
// no longer speaks reads as the default one.
func TestMessagesOfAnUnknownLanguageAreEnglish(t *testing.T) {
	if got := messagesIn("fr-FR"); got != &englishMessages {
		t.Errorf("fr-FR messages are not the English ones")
	}
}
