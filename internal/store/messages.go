package store

import (
	"cmp"
	"fmt"
	"strings"
	"time"
	"unicode"

	"applicantportal/internal/portal"
)

// The words of every e-mail and text message the portal sends an
// applicant, in each language it speaks, side by side: the applicant's
// language (portal.Subject.Locale) chooses them. A field's comment names
// its arguments in order; a translation may reorder them with %[n]s, and
// TestMessagesInEveryLanguage checks that every language has every text
// with the same arguments.
//
// The texts name the applicant by first name only and hold no other
// personal information: mail crosses servers the portal does not control.
// Every link is the portal's own address, which the applicant can check.
//
// The adverse action and dispute notices are our own plain-language
// samples of what the FCRA asks a notice to say, in both languages, not
// legal advice: a company's counsel should review its own.
type messageTexts struct {
	// lang is the language the texts are in.
	lang portal.Locale

	// Durations.
	Days, OneHour, Hours, Minutes string // count (not OneHour)
	// A moment: day, time of day (UTC).
	DateTime string

	// An invitation: company; first name, company, valid for, link.
	InvitationSubject, InvitationBody string
	// A reminder to one who has not started: company; first name,
	// company, valid for, link, stop link.
	InvitationReminderSubject, InvitationReminderBody string
	// A reminder to one who started: company; first name, company, next
	// step, login link, stop link; as a text: company, next step, login
	// link, stop link.
	ProgressReminderSubject, ProgressReminderBody, ProgressReminderText string
	// The next step of a progress reminder: document title; page name.
	NextCreatePassword, NextSign, NextPersonal, NextPage, NextReviewAndVerify,
	NextVerify, NextSite, NextPayment, NextCheck string

	// A password reset link: first name, valid for, link.
	ResetSubject, ResetBody string
	// A sign-in code: first name, code, valid for; as a text: code, valid
	// for.
	LoginCodeSubject, LoginCodeBody, LoginCodeText string
	// A new address to confirm: first name, new address, valid for, link.
	EmailConfirmSubject, EmailConfirmBody string
	// The current address told of a change: first name, current address,
	// new address, valid for, login page.
	EmailChangingSubject, EmailChangingBody string
	// The old address told the change was made: first name, old address,
	// new address.
	EmailChangedSubject, EmailChangedBody string
	// The account's address told its password was changed while signed
	// in, or reset with a link: first name, company, when (DateTime).
	PasswordChangedSubject, PasswordChangedBody   string
	PasswordWasResetSubject, PasswordWasResetBody string
	// A link to continue on another device: first name, valid for, link;
	// as a text: valid for, link.
	HandoffSubject, HandoffBody, HandoffText string
	// The employer wrote in the chat: company; first name, company.
	ChatSubject, ChatBody string

	// A service needs the applicant: first name, service, what it needs;
	// as a text: service. NeedsSomething is what it needs when no reason
	// says.
	NeedsSubject, NeedsBody, NeedsText, NeedsSomething string
	// The screening is complete: first name.
	CompleteSubject, CompleteBody, CompleteText string
	// The free copy of the report: first name.
	FreeCopySubject, FreeCopyBody, FreeCopyText string
	// A report is ready or was updated: report title; first name, report
	// title; report title.
	ReportReadySubject, ReportReadyBody, ReportReadyText       string
	ReportUpdatedSubject, ReportUpdatedBody, ReportUpdatedText string
	// The report titles (portal.ReportKind).
	ReportBackground, ReportDrug, ReportECOC string

	// Pre-adverse action: company; company, company, last day, business
	// days; company, last day.
	PreAdverseSubject, PreAdverseBody, PreAdverseText string
	// Final adverse action: company.
	FinalAdverseSubject, FinalAdverseBody, FinalAdverseText string

	// A dispute notice: what happened, where to read it, company; as a
	// text: company, what happened, where to read it.
	DisputeBody, DisputeText, DisputeSee string
	// What a dispute is about: the whole report; a service's part
	// (service name).
	DisputeWholeReport, DisputePart string
	// The dispute notices: the part; the part, due date; the part,
	// outcome.
	DisputeReceivedSubject, DisputeReceived string
	DisputeAnswerSubject, DisputeAnswer     string
	DisputeResolvedSubject, DisputeResolved string
	// The outcomes (portal.DisputeCorrected ...).
	OutcomeCorrected, OutcomeVerified, OutcomeDeleted string

	// Paper forms asked for instead of signing: full name, company,
	// company.
	PaperFormsSubject, PaperFormsBody string
}

// messageCatalogue holds every language of portal.Locales.
var messageCatalogue = map[portal.Locale]*messageTexts{
	portal.LocaleEnUS: &englishMessages,
	portal.LocaleEsUS: &spanishMessages,
}

// messagesIn is the texts of l, the default language's when the portal
// does not speak l.
func messagesIn(l portal.Locale) *messageTexts {
	return messageCatalogue[l.OrDefault()]
}

var englishMessages = messageTexts{
	lang: portal.LocaleEnUS,

	Days: "%d days", OneHour: "1 hour", Hours: "%d hours", Minutes: "%d minutes",
	DateTime: "%s at %s UTC",

	InvitationSubject: "You're invited to complete your background check for %s",
	InvitationBody: "Hello %s,\n\n%s has asked you to complete a background check through the applicant portal.\n" +
		"To start, open this link within %s and choose a password:\n\n%s\n\n" +
		"If you were not expecting this, you can ignore this message; nothing happens until you open the link.\n",
	InvitationReminderSubject: "Reminder: complete your background check for %s",
	InvitationReminderBody: "Hello %s,\n\n%s invited you to complete a background check through the applicant portal, " +
		"and you have not started yet.\nTo start, open this link within %s and choose a password:\n\n%s\n\n" +
		"This link replaces the one in earlier e-mails.\n\n" +
		"To stop these reminders, open this link: %s\n",
	ProgressReminderSubject: "Reminder: finish your background check for %s",
	ProgressReminderBody: "Hello %s,\n\nYou started your background check for %s but have not finished it yet. " +
		"Everything you saved is kept.\nNext: %s.\n\nLog in to carry on where you stopped:\n\n%s\n\n" +
		"To stop these reminders, open this link: %s\n",
	ProgressReminderText: "%s: your background check is not finished. Next: %s. Log in: %s Stop reminders: %s",
	NextCreatePassword:   "create your password",
	NextSign:             "read and sign the %s",
	NextPersonal:         "fill in your personal information",
	NextPage:             "complete the %s page",
	NextReviewAndVerify:  "review your answers, submit them and verify your identity",
	NextVerify:           "verify your identity",
	NextSite:             "choose where to give your drug-test sample",
	NextPayment:          "authorize the payment for your background check",
	NextCheck:            "check that everything is done",

	ResetSubject: "Reset your applicant portal password",
	ResetBody: "Hello %s,\n\nSomeone asked to reset the password of your applicant portal account.\n" +
		"To choose a new password, open this link within %s:\n\n%s\n\n" +
		"If you did not ask for this, ignore this message: your password stays as it is.\n",
	LoginCodeSubject: "Your applicant portal sign-in code",
	LoginCodeBody: "Hello %s,\n\nYour sign-in code for the applicant portal is:\n\n%s\n\n" +
		"Type it on the sign-in page within %s. It works once.\n\n" +
		"If you did not ask for a code, ignore this message: nobody can sign in without it, and your password stays as it is.\n",
	LoginCodeText:       "%s is your applicant portal sign-in code. It works once, for %s. If you did not ask for it, ignore this text.",
	EmailConfirmSubject: "Confirm your new e-mail address",
	EmailConfirmBody: "Hello %s,\n\nYou asked to use this address (%s) for your applicant portal account.\n" +
		"To confirm, open this link within %s:\n\n%s\n\n" +
		"Until then your account keeps its current address. If you did not ask for this, ignore this message.\n",
	EmailChangingSubject: "Your e-mail address is about to change",
	EmailChangingBody: "Hello %s,\n\nSomeone signed in to your applicant portal account (%s) and asked to change its e-mail address to %s.\n" +
		"The change takes effect only if the link sent to that address is opened within %s.\n\n" +
		"If this was you, there is nothing to do.\n" +
		"If it was not you, reset your password now (Forgot Password on %s): that cancels the change and signs out every session.\n",
	EmailChangedSubject: "Your e-mail address was changed",
	EmailChangedBody: "Hello %s,\n\nThe e-mail address of your applicant portal account was changed from %s to %s,\n" +
		"which is now also your username. Every session was signed out.\n\n" +
		"If you did not ask for this, contact your employer's support at once.\n",
	PasswordChangedSubject: "Your password was changed",
	PasswordChangedBody: "Hello %s,\n\nThe password of your applicant portal account with %s was changed on %s " +
		"by someone signed in to the account. Every other session was signed out.\n\n" +
		"If this was you, there is nothing to do.\n" +
		"If it was not you, reset your password now (Forgot Password on the portal's login page): " +
		"that signs out every session. Then contact your employer's support.\n",
	PasswordWasResetSubject: "Your password was reset",
	PasswordWasResetBody: "Hello %s,\n\nThe password of your applicant portal account with %s was reset on %s " +
		"with a link sent to this address. Every session was signed out.\n\n" +
		"If this was you, there is nothing to do.\n" +
		"If it was not you, someone may be reading your e-mail: secure your e-mail account, " +
		"reset your password again (Forgot Password on the portal's login page), and contact your employer's support at once.\n",
	HandoffSubject: "Continue your application on another device",
	HandoffBody: "Hello %s,\n\nYou asked for a link to continue your application on another device.\n" +
		"Open it on that device within %s; it works only once and signs that device in:\n\n%s\n\n" +
		"If you did not ask for this link, do not open it, and change your password.\n",
	HandoffText: "Continue your application (works once, for %s): %s",
	ChatSubject: "New message from %s about your background check",
	ChatBody: "Hello %s,\n\n%s sent you a message about your background check.\n" +
		"To read it and reply, log in to the applicant portal and open Messages at the top of the page.\n\n" +
		"You will not get another e-mail about new messages until you have read this one.\n",

	NeedsSubject:    "Your background check needs something from you",
	NeedsBody:       "Hello %s,\n\n%s: %s\n\nLog in to the portal to see what to do.\n",
	NeedsText:       "Your background check needs something from you (%s). Log in to the portal to see what to do.",
	NeedsSomething:  "We need something from you to finish this check.",
	CompleteSubject: "Your background check is complete",
	CompleteBody: "Hello %s,\n\nYour background check is complete. Your employer will contact you about the result.\n\n" +
		"Log in to the portal to see it.\n",
	CompleteText:    "Your background check is complete. Log in to the portal to see it.",
	FreeCopySubject: "Your free copy of your background report",
	FreeCopyBody: "Hello %s,\n\nWhen you signed your authorization you asked for a free copy of your background report. It is ready.\n\n" +
		"Log in to the portal to read it and download it. You will be asked to confirm your date of birth before it opens.\n",
	FreeCopyText:         "Your free copy of your background report is ready. Log in to the portal to read it and download it.",
	ReportReadySubject:   "Your %s is ready",
	ReportReadyBody:      "Hello %s,\n\nYour %s is ready. Log in to the portal to read it.\n",
	ReportReadyText:      "Your %s is ready. Log in to the portal to read it.",
	ReportUpdatedSubject: "Your %s was updated",
	ReportUpdatedBody:    "Hello %s,\n\nYour %s was updated. Log in to the portal to read it.\n",
	ReportUpdatedText:    "Your %s was updated. Log in to the portal to read it.",
	ReportBackground:     "background report",
	ReportDrug:           "drug test report",
	ReportECOC:           "custody and control form",

	PreAdverseSubject: "Before %s decides: your background check",
	PreAdverseBody: "Before %s decides, you may dispute anything in your background check report that is wrong or incomplete, " +
		"or send information about it.\n\n%s may decide not to go ahead because of the report. It will wait until the end of %s " +
		"(%d business days) before it decides.\n\nLog in to the portal to read the notice, your report and a summary of your rights.",
	PreAdverseText:      "Before %s decides, you may dispute your background check report until %s. Log in to the portal to read the notice.",
	FinalAdverseSubject: "%s has made its decision",
	FinalAdverseBody: "%s has decided not to go ahead, based in whole or in part on your background check report. " +
		"The screening provider did not make this decision and cannot tell you why it was made.\n\n" +
		"You may ask for a free copy of your report within 60 days, and dispute anything in it that is wrong or incomplete.\n\n" +
		"Log in to the portal to read the notice and a summary of your rights.",
	FinalAdverseText: "%s has made its decision about your application. Log in to the portal to read the notice and your rights.",

	DisputeBody:            "Hello,\n\n%s\n\n%s\n\n%s\n",
	DisputeText:            "%s: %s %s",
	DisputeSee:             "Log in to the applicant portal to read your dispute.",
	DisputeWholeReport:     "your background report",
	DisputePart:            "the %s part of your background report",
	DisputeReceivedSubject: "We received your dispute",
	DisputeReceived:        "We received your dispute of %s. We will reinvestigate it and tell you the outcome by %s.",
	DisputeAnswerSubject:   "An answer on your dispute",
	DisputeAnswer:          "There is an answer on your dispute of %s. We are reinvestigating it and will tell you the outcome by %s.",
	DisputeResolvedSubject: "Your dispute is resolved",
	DisputeResolved:        "We finished reinvestigating your dispute of %s. The outcome: %s.",
	OutcomeCorrected:       "the information was corrected",
	OutcomeVerified:        "the information was verified as accurate",
	OutcomeDeleted:         "the information was deleted from your report",

	PaperFormsSubject: "Your background check: paper forms",
	PaperFormsBody: `Hello %s,

You chose not to sign the documents for your background check with %s electronically. That is your right, and your background check is not cancelled: it waits until we receive your signed paper forms.

How to get the paper forms:
- Reply to this e-mail, or contact %s's hiring contact, and ask for the background check paper forms. We send them by post, or as a PDF to print if you prefer.

How to return them:
- Read every form, fill in and sign the authorization and any form that asks for a signature.
- Send them back by post to the address on the forms, or scan or photograph every page and reply to this e-mail with the pages attached.

We continue your background check as soon as the signed forms arrive. If you change your mind, you can still sign electronically: log in to the applicant portal and undo the paper-forms choice on the consent step.
`,
}

var spanishMessages = messageTexts{ // #nosec G101 -- Spanish message texts, not credentials
	lang: portal.LocaleEsUS,

	Days: "%d días", OneHour: "1 hora", Hours: "%d horas", Minutes: "%d minutos",
	DateTime: "%s a las %s UTC",

	InvitationSubject: "Lo invitamos a completar su verificación de antecedentes para %s",
	InvitationBody: "Hola, %s:\n\n%s le pidió que complete una verificación de antecedentes en el portal del solicitante.\n" +
		"Para comenzar, abra este enlace dentro de %s y elija una contraseña:\n\n%s\n\n" +
		"Si no esperaba este mensaje, puede ignorarlo; no pasará nada hasta que abra el enlace.\n",
	InvitationReminderSubject: "Recordatorio: complete su verificación de antecedentes para %s",
	InvitationReminderBody: "Hola, %s:\n\n%s lo invitó a completar una verificación de antecedentes en el portal del solicitante, " +
		"y usted todavía no ha comenzado.\nPara comenzar, abra este enlace dentro de %s y elija una contraseña:\n\n%s\n\n" +
		"Este enlace reemplaza al de los correos electrónicos anteriores.\n\n" +
		"Para dejar de recibir estos recordatorios, abra este enlace: %s\n",
	ProgressReminderSubject: "Recordatorio: termine su verificación de antecedentes para %s",
	ProgressReminderBody: "Hola, %s:\n\nUsted comenzó su verificación de antecedentes para %s, pero todavía no la ha terminado. " +
		"Todo lo que guardó se conserva.\nSiguiente paso: %s.\n\nInicie sesión para seguir donde se quedó:\n\n%s\n\n" +
		"Para dejar de recibir estos recordatorios, abra este enlace: %s\n",
	ProgressReminderText: "%s: su verificación de antecedentes no está terminada. Siguiente paso: %s. Inicie sesión: %s Dejar de recibir recordatorios: %s",
	NextCreatePassword:   "crear su contraseña",
	NextSign:             "leer y firmar este documento: %s",
	NextPersonal:         "completar su información personal",
	NextPage:             "completar esta página: %s",
	NextReviewAndVerify:  "revisar sus respuestas, enviarlas y verificar su identidad",
	NextVerify:           "verificar su identidad",
	NextSite:             "elegir dónde dará su muestra para la prueba de drogas",
	NextPayment:          "autorizar el pago de su verificación de antecedentes",
	NextCheck:            "comprobar que todo esté hecho",

	ResetSubject: "Restablezca la contraseña de su portal del solicitante",
	ResetBody: "Hola, %s:\n\nAlguien pidió restablecer la contraseña de su cuenta del portal del solicitante.\n" +
		"Para elegir una nueva contraseña, abra este enlace dentro de %s:\n\n%s\n\n" +
		"Si usted no lo pidió, ignore este mensaje: su contraseña no cambia.\n",
	LoginCodeSubject: "Su código para iniciar sesión en el portal del solicitante",
	LoginCodeBody: "Hola, %s:\n\nSu código para iniciar sesión en el portal del solicitante es:\n\n%s\n\n" +
		"Escríbalo en la página de inicio de sesión dentro de %s. Solo funciona una vez.\n\n" +
		"Si usted no pidió un código, ignore este mensaje: nadie puede iniciar sesión sin él, y su contraseña no cambia.\n",
	LoginCodeText:       "%s es su código para iniciar sesión en el portal del solicitante. Funciona una vez, durante %s. Si usted no lo pidió, ignore este mensaje.",
	EmailConfirmSubject: "Confirme su nuevo correo electrónico",
	EmailConfirmBody: "Hola, %s:\n\nUsted pidió usar esta dirección (%s) para su cuenta del portal del solicitante.\n" +
		"Para confirmarla, abra este enlace dentro de %s:\n\n%s\n\n" +
		"Hasta entonces, su cuenta conserva su dirección actual. Si usted no lo pidió, ignore este mensaje.\n",
	EmailChangingSubject: "Su correo electrónico está a punto de cambiar",
	EmailChangingBody: "Hola, %s:\n\nAlguien inició sesión en su cuenta del portal del solicitante (%s) y pidió cambiar su correo electrónico a %s.\n" +
		"El cambio solo se hará si el enlace enviado a esa dirección se abre dentro de %s.\n\n" +
		"Si fue usted, no tiene que hacer nada.\n" +
		"Si no fue usted, restablezca su contraseña ahora (¿Olvidó su contraseña? en %s): eso cancela el cambio y cierra la sesión en todos los dispositivos.\n",
	EmailChangedSubject: "Su correo electrónico cambió",
	EmailChangedBody: "Hola, %s:\n\nEl correo electrónico de su cuenta del portal del solicitante cambió de %s a %s,\n" +
		"que ahora también es su nombre de usuario. Se cerraron todas las sesiones.\n\n" +
		"Si usted no lo pidió, comuníquese de inmediato con el servicio de ayuda de su empleador.\n",
	PasswordChangedSubject: "Su contraseña cambió",
	PasswordChangedBody: "Hola, %s:\n\nLa contraseña de su cuenta del portal del solicitante con %s se cambió el %s " +
		"desde una sesión iniciada en la cuenta. Se cerraron todas las demás sesiones.\n\n" +
		"Si fue usted, no tiene que hacer nada.\n" +
		"Si no fue usted, restablezca su contraseña ahora (¿Olvidó su contraseña? en la página de inicio de sesión del portal): " +
		"eso cierra todas las sesiones. Después, comuníquese con el servicio de ayuda de su empleador.\n",
	PasswordWasResetSubject: "Su contraseña se restableció",
	PasswordWasResetBody: "Hola, %s:\n\nLa contraseña de su cuenta del portal del solicitante con %s se restableció el %s " +
		"con un enlace enviado a esta dirección. Se cerraron todas las sesiones.\n\n" +
		"Si fue usted, no tiene que hacer nada.\n" +
		"Si no fue usted, puede que alguien esté leyendo su correo electrónico: proteja su cuenta de correo electrónico, " +
		"vuelva a restablecer su contraseña (¿Olvidó su contraseña? en la página de inicio de sesión del portal) " +
		"y comuníquese de inmediato con el servicio de ayuda de su empleador.\n",
	HandoffSubject: "Continúe su solicitud en otro dispositivo",
	HandoffBody: "Hola, %s:\n\nUsted pidió un enlace para continuar su solicitud en otro dispositivo.\n" +
		"Ábralo en ese dispositivo dentro de %s; solo funciona una vez e inicia sesión en ese dispositivo:\n\n%s\n\n" +
		"Si usted no pidió este enlace, no lo abra y cambie su contraseña.\n",
	HandoffText: "Continúe su solicitud (funciona una vez, durante %s): %s",
	ChatSubject: "Nuevo mensaje de %s sobre su verificación de antecedentes",
	ChatBody: "Hola, %s:\n\n%s le envió un mensaje sobre su verificación de antecedentes.\n" +
		"Para leerlo y responder, inicie sesión en el portal del solicitante y abra Mensajes en la parte de arriba de la página.\n\n" +
		"No recibirá otro correo electrónico sobre mensajes nuevos hasta que lea este.\n",

	NeedsSubject:    "Su verificación de antecedentes necesita algo de usted",
	NeedsBody:       "Hola, %s:\n\n%s: %s\n\nInicie sesión en el portal para ver qué debe hacer.\n",
	NeedsText:       "Su verificación de antecedentes necesita algo de usted (%s). Inicie sesión en el portal para ver qué debe hacer.",
	NeedsSomething:  "Necesitamos algo de usted para terminar esta verificación.",
	CompleteSubject: "Su verificación de antecedentes está completa",
	CompleteBody: "Hola, %s:\n\nSu verificación de antecedentes está completa. Su empleador se comunicará con usted sobre el resultado.\n\n" +
		"Inicie sesión en el portal para verla.\n",
	CompleteText:    "Su verificación de antecedentes está completa. Inicie sesión en el portal para verla.",
	FreeCopySubject: "Su copia gratuita de su informe de antecedentes",
	FreeCopyBody: "Hola, %s:\n\nCuando firmó su autorización, pidió una copia gratuita de su informe de antecedentes. Ya está lista.\n\n" +
		"Inicie sesión en el portal para leerla y descargarla. Antes de abrirla, se le pedirá que confirme su fecha de nacimiento.\n",
	FreeCopyText:         "Su copia gratuita de su informe de antecedentes está lista. Inicie sesión en el portal para leerla y descargarla.",
	ReportReadySubject:   "Su %s está listo",
	ReportReadyBody:      "Hola, %s:\n\nSu %s está listo. Inicie sesión en el portal para leerlo.\n",
	ReportReadyText:      "Su %s está listo. Inicie sesión en el portal para leerlo.",
	ReportUpdatedSubject: "Su %s se actualizó",
	ReportUpdatedBody:    "Hola, %s:\n\nSu %s se actualizó. Inicie sesión en el portal para leerlo.\n",
	ReportUpdatedText:    "Su %s se actualizó. Inicie sesión en el portal para leerlo.",
	ReportBackground:     "informe de antecedentes",
	ReportDrug:           "informe de la prueba de drogas",
	ReportECOC:           "formulario de custodia y control",

	PreAdverseSubject: "Antes de que %s decida: su verificación de antecedentes",
	PreAdverseBody: "Antes de que %s decida, usted puede disputar cualquier dato de su informe de antecedentes que sea incorrecto o esté incompleto, " +
		"o enviar información sobre él.\n\n%s podría decidir no seguir adelante debido al informe. Esperará hasta el final del %s " +
		"(%d días hábiles) antes de decidir.\n\nInicie sesión en el portal para leer el aviso, su informe y un resumen de sus derechos.",
	PreAdverseText:      "Antes de que %s decida, usted puede disputar su informe de antecedentes hasta el %s. Inicie sesión en el portal para leer el aviso.",
	FinalAdverseSubject: "%s tomó su decisión",
	FinalAdverseBody: "%s decidió no seguir adelante, en todo o en parte debido a su informe de antecedentes. " +
		"La empresa que hizo la verificación no tomó esta decisión y no puede decirle por qué se tomó.\n\n" +
		"Usted puede pedir una copia gratuita de su informe dentro de 60 días, y disputar cualquier dato que sea incorrecto o esté incompleto.\n\n" +
		"Inicie sesión en el portal para leer el aviso y un resumen de sus derechos.",
	FinalAdverseText: "%s tomó una decisión sobre su solicitud. Inicie sesión en el portal para leer el aviso y sus derechos.",

	DisputeBody:            "Hola:\n\n%s\n\n%s\n\n%s\n",
	DisputeText:            "%s: %s %s",
	DisputeSee:             "Inicie sesión en el portal del solicitante para leer su disputa.",
	DisputeWholeReport:     "su informe de antecedentes",
	DisputePart:            "la parte \"%s\" de su informe de antecedentes",
	DisputeReceivedSubject: "Recibimos su disputa",
	DisputeReceived:        "Recibimos su disputa sobre %s. La volveremos a investigar y le diremos el resultado a más tardar el %s.",
	DisputeAnswerSubject:   "Hay una respuesta sobre su disputa",
	DisputeAnswer:          "Hay una respuesta a su disputa sobre %s. La estamos volviendo a investigar y le diremos el resultado a más tardar el %s.",
	DisputeResolvedSubject: "Su disputa está resuelta",
	DisputeResolved:        "Terminamos de volver a investigar su disputa sobre %s. El resultado: %s.",
	OutcomeCorrected:       "se corrigió la información",
	OutcomeVerified:        "se verificó que la información es correcta",
	OutcomeDeleted:         "se eliminó la información de su informe",

	PaperFormsSubject: "Su verificación de antecedentes: formularios en papel",
	PaperFormsBody: `Hola, %s:

Usted eligió no firmar electrónicamente los documentos de su verificación de antecedentes con %s. Es su derecho, y su verificación de antecedentes no se cancela: queda en espera hasta que recibamos sus formularios en papel firmados.

Cómo obtener los formularios en papel:
- Responda a este correo electrónico, o comuníquese con la persona de contratación de %s, y pida los formularios en papel de la verificación de antecedentes. Se los enviamos por correo postal, o en un PDF para imprimir si lo prefiere.

Cómo devolverlos:
- Lea cada formulario, complete y firme la autorización y cualquier formulario que pida una firma.
- Envíelos por correo postal a la dirección que aparece en los formularios, o escanee o fotografíe cada página y responda a este correo electrónico con las páginas adjuntas.

Seguimos con su verificación de antecedentes en cuanto lleguen los formularios firmados. Si cambia de opinión, todavía puede firmar electrónicamente: inicie sesión en el portal del solicitante y deshaga la elección de formularios en papel en el paso de consentimiento.
`,
}

// subjectText makes a name one line of a subject: runs of spaces and
// control characters become one space. internal/mail refuses a subject
// with a line break, so a company name holding one would fail the e-mail
// at every attempt.
func subjectText(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

// subject fills a subject line; it is one line whatever the arguments.
func (m *messageTexts) subject(format string, args ...any) string {
	return subjectText(fmt.Sprintf(format, args...))
}

// duration says d: in days when whole days over one, else in hours when
// whole hours ("24 hours" reads better than "1 day"), else in minutes.
func (m *messageTexts) duration(d time.Duration) string {
	if d > 24*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf(m.Days, int(d/(24*time.Hour)))
	}
	if d%time.Hour == 0 {
		if h := int(d / time.Hour); h == 1 {
			return m.OneHour
		} else {
			return fmt.Sprintf(m.Hours, h)
		}
	}
	return fmt.Sprintf(m.Minutes, int(d/time.Minute))
}

// noticeDate is t's day in UTC ("January 2, 2006").
func (m *messageTexts) noticeDate(t time.Time) string { return m.lang.Date(t.UTC()) }

func (m *messageTexts) invitationMail(companyName, firstName, link string, validFor time.Duration) (subject, body string) {
	return m.subject(m.InvitationSubject, companyName),
		fmt.Sprintf(m.InvitationBody, firstName, companyName, m.duration(validFor), link)
}

// invitationReminderMail reminds an applicant who has not started, with a
// new link (which replaces the earlier ones) and the stop link.
func (m *messageTexts) invitationReminderMail(companyName, firstName, link string, validFor time.Duration, stop string) (subject, body string) {
	return m.subject(m.InvitationReminderSubject, companyName),
		fmt.Sprintf(m.InvitationReminderBody, firstName, companyName, m.duration(validFor), link, stop)
}

// progressReminderMail reminds an applicant who started and has not
// finished: where to log in and what is next. It holds no credential.
func (m *messageTexts) progressReminderMail(companyName, firstName, next, login, stop string) (subject, body string) {
	return m.subject(m.ProgressReminderSubject, companyName),
		fmt.Sprintf(m.ProgressReminderBody, firstName, companyName, next, login, stop)
}

// reminderText is progressReminderMail as a text message.
func (m *messageTexts) reminderText(companyName, next, login, stop string) string {
	return fmt.Sprintf(m.ProgressReminderText, subjectText(companyName), next, login, stop)
}

// nextStep is the first thing left to the applicant, in their words, in
// the order they meet it (missingSteps says it to operators).
func (m *messageTexts) nextStep(status portal.StatusID, f portal.StatusFacts) string {
	switch {
	case !f.HasPassword:
		return m.NextCreatePassword
	case !f.FullProfile && len(f.UnsignedDocuments) > 0:
		return fmt.Sprintf(m.NextSign, f.UnsignedDocuments[0])
	case !f.FullProfile && !f.PersonalInfoSaved:
		return m.NextPersonal
	case len(f.IncompletePages) > 0:
		return fmt.Sprintf(m.NextPage, f.IncompletePages[0])
	case !f.IDVFinished:
		if status == portal.StatusSetupComplete {
			return m.NextReviewAndVerify
		}
		return m.NextVerify
	case f.SiteSelectionAllowed && !f.SiteChosen:
		return m.NextSite
	case f.PaymentRequired && !f.PaymentAuthorized:
		return m.NextPayment
	}
	return m.NextCheck
}

func (m *messageTexts) resetMail(firstName, link string, validFor time.Duration) (subject, body string) {
	return m.ResetSubject, fmt.Sprintf(m.ResetBody, firstName, m.duration(validFor), link)
}

// loginCodeMail carries a one-time sign-in code. The code is the secret:
// the mail says it works once, and what to do if it was not asked for.
// The code stays out of the subject, which the outbox keeps unsealed.
func (m *messageTexts) loginCodeMail(firstName, code string, validFor time.Duration) (subject, body string) {
	return m.LoginCodeSubject, fmt.Sprintf(m.LoginCodeBody, firstName, code, m.duration(validFor))
}

// loginCodeText is the text message carrying a sign-in code. The code
// comes first, where a phone's notification shows it.
func (m *messageTexts) loginCodeText(code string) string {
	return fmt.Sprintf(m.LoginCodeText, code, m.duration(portal.LoginCodeTTL))
}

func (m *messageTexts) emailConfirmMail(firstName, newEmail, link string, validFor time.Duration) (subject, body string) {
	return m.EmailConfirmSubject, fmt.Sprintf(m.EmailConfirmBody, firstName, newEmail, m.duration(validFor), link)
}

func (m *messageTexts) emailChangingMail(firstName, email, newEmail string, validFor time.Duration, login string) (subject, body string) {
	return m.EmailChangingSubject, fmt.Sprintf(m.EmailChangingBody, firstName, email, newEmail, m.duration(validFor), login)
}

func (m *messageTexts) emailChangedMail(firstName, oldEmail, newEmail string) (subject, body string) {
	return m.EmailChangedSubject, fmt.Sprintf(m.EmailChangedBody, firstName, oldEmail, newEmail)
}

// dateTime is t in UTC, day and time of day ("November 22, 2026 at 10:00
// UTC").
func (m *messageTexts) dateTime(t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf(m.DateTime, m.lang.Date(t), t.Format("15:04"))
}

// passwordChangedMail tells the account's address its password changed at
// when: while signed in, or with a reset link when reset. It holds no link
// and no token (what to do if it was not them is a reset from the login
// page), and no personal data beyond the first name.
func (m *messageTexts) passwordChangedMail(firstName, companyName string, when time.Time, reset bool) (subject, body string) {
	subject, body = m.PasswordChangedSubject, m.PasswordChangedBody
	if reset {
		subject, body = m.PasswordWasResetSubject, m.PasswordWasResetBody
	}
	return subject, fmt.Sprintf(body, firstName, companyName, m.dateTime(when))
}

func (m *messageTexts) handoffMail(firstName, link string) (subject, body string) {
	return m.HandoffSubject, fmt.Sprintf(m.HandoffBody, firstName, m.duration(portal.HandoffTTL), link)
}

func (m *messageTexts) handoffText(link string) string {
	return fmt.Sprintf(m.HandoffText, m.duration(portal.HandoffTTL), link)
}

// chatWaitingMail tells an applicant who is away that their employer wrote
// in the chat. It never holds the message: chat may carry personal
// information, and e-mail is not sealed.
func (m *messageTexts) chatWaitingMail(companyName, firstName string) (subject, body string) {
	return m.subject(m.ChatSubject, companyName), fmt.Sprintf(m.ChatBody, firstName, companyName)
}

// needsNotice tells the applicant a service needs something from them:
// what (a reason's text), or NeedsSomething when what is "".
func (m *messageTexts) needsNotice(firstName, service, what string) portal.Notice {
	if what == "" {
		what = m.NeedsSomething
	}
	return portal.Notice{Subject: m.NeedsSubject, Body: fmt.Sprintf(m.NeedsBody, firstName, service, what),
		Text: fmt.Sprintf(m.NeedsText, service)}
}

// completeNotice tells the applicant their screening is complete.
func (m *messageTexts) completeNotice(firstName string) portal.Notice {
	return portal.Notice{Subject: m.CompleteSubject, Body: fmt.Sprintf(m.CompleteBody, firstName), Text: m.CompleteText}
}

// freeCopyNotice tells the applicant the free copy they asked for is
// ready.
func (m *messageTexts) freeCopyNotice(firstName string) portal.Notice {
	return portal.Notice{Subject: m.FreeCopySubject, Body: fmt.Sprintf(m.FreeCopyBody, firstName), Text: m.FreeCopyText}
}

// reportTitle is a report kind in the applicant's words.
func (m *messageTexts) reportTitle(k portal.ReportKind) string {
	switch k {
	case portal.ReportDrug:
		return m.ReportDrug
	case portal.ReportECOC:
		return m.ReportECOC
	}
	return m.ReportBackground
}

// reportNotice tells the applicant a report of kind is ready, or was
// updated when replaced.
func (m *messageTexts) reportNotice(firstName string, kind portal.ReportKind, replaced bool) portal.Notice {
	title := m.reportTitle(kind)
	subject, body, text := m.ReportReadySubject, m.ReportReadyBody, m.ReportReadyText
	if replaced {
		subject, body, text = m.ReportUpdatedSubject, m.ReportUpdatedBody, m.ReportUpdatedText
	}
	return portal.Notice{Subject: m.subject(subject, title), Body: fmt.Sprintf(body, firstName, title), Text: fmt.Sprintf(text, title)}
}

func (m *messageTexts) preAdverseNotice(a *portal.AdverseAction) portal.Notice {
	ends := m.lang.LongDate(a.EndsOn)
	return portal.Notice{
		Subject: m.subject(m.PreAdverseSubject, a.CompanyName),
		Body:    fmt.Sprintf(m.PreAdverseBody, a.CompanyName, a.CompanyName, ends, a.WaitingDays),
		Text:    fmt.Sprintf(m.PreAdverseText, a.CompanyName, ends),
	}
}

func (m *messageTexts) finalAdverseNotice(a *portal.AdverseAction) portal.Notice {
	return portal.Notice{
		Subject: m.subject(m.FinalAdverseSubject, a.CompanyName),
		Body:    fmt.Sprintf(m.FinalAdverseBody, a.CompanyName),
		Text:    fmt.Sprintf(m.FinalAdverseText, a.CompanyName),
	}
}

// disputedPart names what a dispute is about, in the applicant's words.
func (m *messageTexts) disputedPart(d *portal.Dispute) string {
	if d.ServiceCode == "" {
		return m.DisputeWholeReport
	}
	return fmt.Sprintf(m.DisputePart, cmp.Or(d.ServiceName, d.ServiceCode))
}

// disputeNotice is a notice about a dispute: what happened and where to
// read it; no link that signs in, no personal data.
func (m *messageTexts) disputeNotice(company, subject, what string) portal.Notice {
	return portal.Notice{
		Subject: subjectText(subject),
		Body:    fmt.Sprintf(m.DisputeBody, what, m.DisputeSee, company),
		Text:    fmt.Sprintf(m.DisputeText, company, what, m.DisputeSee),
	}
}

func (m *messageTexts) disputeReceivedNotice(company string, d *portal.Dispute) portal.Notice {
	return m.disputeNotice(company, m.DisputeReceivedSubject, fmt.Sprintf(m.DisputeReceived, m.disputedPart(d), m.noticeDate(d.DueAt)))
}

func (m *messageTexts) disputeAnswerNotice(company string, d *portal.Dispute) portal.Notice {
	return m.disputeNotice(company, m.DisputeAnswerSubject, fmt.Sprintf(m.DisputeAnswer, m.disputedPart(d), m.noticeDate(d.DueAt)))
}

func (m *messageTexts) disputeResolvedNotice(company string, d *portal.Dispute, outcome string) portal.Notice {
	words := map[string]string{
		portal.DisputeCorrected: m.OutcomeCorrected,
		portal.DisputeVerified:  m.OutcomeVerified,
		portal.DisputeDeleted:   m.OutcomeDeleted,
	}[outcome]
	return m.disputeNotice(company, m.DisputeResolvedSubject, fmt.Sprintf(m.DisputeResolved, m.disputedPart(d), words))
}

// paperFormsMail is the e-mail to an applicant who declined electronic
// signing: the screening is not cancelled, and this is how to get and
// return the paper forms.
func (m *messageTexts) paperFormsMail(s *portal.Subject, c *portal.Company) (subject, body string) {
	return m.PaperFormsSubject, fmt.Sprintf(m.PaperFormsBody, strings.TrimSpace(s.FirstName+" "+s.LastName), c.Name, c.Name)
}
