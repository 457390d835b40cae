package signedpdf

import (
	"fmt"
	"time"

	"applicantportal/internal/portal"
)

// words are what the PDF writes itself, in the language of the text
// signed (Document.Language), so a document signed in Spanish is Spanish
// throughout.
type words struct {
	footer       string // title, version, page; {nb} is the page count
	signature    string
	imageLabel   string
	imageTooBig  string // width, height
	signedBy     string
	signedAt     string
	ip           string
	version      string
	contentHash  string
	yes, no      string
	labels       map[string]string // the English field labels (portal.SignatureFields.Labeled) in this language
	formatSigned func(time.Time) string
}

var english = words{
	footer:      "%s, version %d. Page %d of {nb}",
	signature:   "Electronic signature",
	imageLabel:  "Signature image:",
	imageTooBig: "The signature image on file (%d x %d pixels) is too large to print; it is kept with the signature record.",
	signedBy:    "Signed by:",
	signedAt:    "Signed at:",
	ip:          "IP address:",
	version:     "Document version:",
	contentHash: "SHA-256 of the content signed:",
	yes:         "Yes",
	no:          "No",
	formatSigned: func(t time.Time) string {
		return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
	},
}

var spanish = words{
	footer:      "%s, versión %d. Página %d de {nb}",
	signature:   "Firma electrónica",
	imageLabel:  "Imagen de la firma:",
	imageTooBig: "La imagen de la firma guardada (%d x %d píxeles) es demasiado grande para imprimirla; se conserva con el registro de la firma.",
	signedBy:    "Firmado por:",
	signedAt:    "Fecha de la firma:",
	ip:          "Dirección IP:",
	version:     "Versión del documento:",
	contentHash: "SHA-256 del contenido firmado:",
	yes:         "Sí",
	no:          "No",
	labels: map[string]string{ // #nosec G101 -- Spanish labels, not credentials
		"First name": "Nombre",
		"Last name":  "Apellido",
		"Consents to electronic records and signatures":                             "Acepta los documentos y las firmas electrónicas",
		"Can read and keep the notices electronically":                              "Puede leer y guardar los avisos en forma electrónica",
		"Declined electronic signing; asked for paper forms":                        "No aceptó la firma electrónica; pidió formularios en papel",
		"Received and read this document":                                           "Recibió y leyó este documento",
		"Authorizes the background check":                                           "Autoriza la verificación de antecedentes",
		"Received the summary of rights":                                            "Recibió el resumen de derechos",
		"Acknowledges A Summary of Your Rights Under the Fair Credit Reporting Act": "Confirma que recibió el Resumen de sus derechos bajo la Ley de Informes Justos de Crédito",
		"Acknowledges the New Jersey notice of your rights":                         "Confirma que recibió el aviso de sus derechos de Nueva Jersey",
		"Acknowledges the Washington State notice of your rights":                   "Confirma que recibió el aviso de sus derechos del estado de Washington",
		"Acknowledges the San Francisco Fair Chance Ordinance notice":               "Confirma que recibió el aviso de la Ordenanza de Oportunidad Justa de San Francisco",
		"Acknowledges the New York Correction Law Article 23-A notice":              "Confirma que recibió el aviso del Artículo 23-A de la Ley Correccional de Nueva York",
		"Acknowledges the California notice about credit reports":                   "Confirma que recibió el aviso de California sobre informes de crédito",
		"Acknowledges the Vermont notice about credit reports":                      "Confirma que recibió el aviso de Vermont sobre informes de crédito",
		"Acknowledges the Maryland notice about credit reports":                     "Confirma que recibió el aviso de Maryland sobre informes de crédito",
		"Last four digits of SSN":                                                   "Últimos cuatro dígitos del número de Seguro Social",
		"Has no US Social Security number":                                          "No tiene número de Seguro Social de los EE. UU.",
		"Identification country":                                                    "País de la identificación",
		"Identification number":                                                     "Número de identificación",
		"Asks for a free copy of the report":                                        "Pide una copia gratis del informe",
		"Previous employer":                                                         "Empleador anterior",
		portal.DOTQuestion:                                                          "En los últimos dos años, ¿dio positivo o se negó a hacerse una prueba de drogas o alcohol previa al empleo para un empleador regulado por el DOT que no lo contrató?",
	},
	formatSigned: func(t time.Time) string {
		t = t.UTC()
		return fmt.Sprintf("%d de %s de %d, %s UTC", t.Day(), spanishMonths[t.Month()-1], t.Year(), t.Format("15:04:05"))
	},
}

var spanishMonths = [...]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio",
	"agosto", "septiembre", "octubre", "noviembre", "diciembre"}

// wordsFor returns the PDF's words in a language, English for any the
// PDF does not speak.
func wordsFor(l portal.Locale) words {
	if l == portal.LocaleEsUS {
		return spanish
	}
	return english
}

// field returns a labeled value in the PDF's language: a label it has no
// word for (a new field) stays as given, and so does a value other than
// Yes or No.
func (w words) field(f portal.LabeledValue) portal.LabeledValue {
	if l, ok := w.labels[f.Label]; ok {
		f.Label = l
	}
	switch f.Value {
	case english.yes:
		f.Value = w.yes
	case english.no:
		f.Value = w.no
	}
	return f
}
