package portal

import (
	"cmp"
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The API's messages in each language, keyed by a stable code
// (messages/en-US.json, messages/es-US.json). The English format stays the
// key at the call sites, as with gettext: Errorf, Addf and Add take the
// English text, and the answer finds its code and its translation here.
//
//go:embed messages/*.json
var messageFiles embed.FS

// messages is each locale's catalogue, code -> format.
var messages = loadMessages()

// messageCodes maps each English format to its code, built once from the
// en-US catalogue.
var messageCodes = indexMessages(messages[LocaleEnUS])

func loadMessages() map[Locale]map[string]string {
	out := make(map[Locale]map[string]string, len(Locales))
	for _, l := range Locales {
		b, err := messageFiles.ReadFile("messages/" + string(l) + ".json")
		if err != nil {
			panic(fmt.Sprintf("portal: message catalogue %s: %v", l, err))
		}
		var c map[string]string
		if err := json.Unmarshal(b, &c); err != nil {
			panic(fmt.Sprintf("portal: message catalogue %s: %v", l, err))
		}
		out[l] = c
	}
	return out
}

func indexMessages(en map[string]string) map[string]string {
	index := make(map[string]string, len(en))
	for code, format := range en {
		index[format] = code
	}
	return index
}

// messagePatterns match a text made with Sprintf outside Errorf and Addf (an
// address check's, say) back to its format, longest format first.
var messagePatterns = compilePatterns(messages[LocaleEnUS])

type pattern struct {
	code string
	re   *regexp.Regexp
}

var verbRE = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

func compilePatterns(en map[string]string) []pattern {
	var out []pattern
	for code, format := range en {
		// A format of verbs and little else ("%s %d") would match any
		// text: only a sentence is matched back.
		if !strings.Contains(format, "%") || len(verbRE.ReplaceAllString(format, "")) < 5 {
			continue
		}
		var b strings.Builder
		b.WriteString("^")
		last := 0
		for _, loc := range verbRE.FindAllStringIndex(format, -1) {
			b.WriteString(regexp.QuoteMeta(format[last:loc[0]]))
			if format[loc[0]:loc[1]] == "%%" {
				b.WriteString("%")
			} else {
				b.WriteString("(.+?)")
			}
			last = loc[1]
		}
		b.WriteString(regexp.QuoteMeta(format[last:]) + "$")
		out = append(out, pattern{code, regexp.MustCompile(b.String())})
	}
	slices.SortFunc(out, func(a, b pattern) int {
		return cmp.Or(len(en[b.code])-len(en[a.code]), strings.Compare(a.code, b.code))
	})
	return out
}

// matchFormat finds the format a rendered English text was made from, and
// its values as text: the catalogue's key when only the text is left.
func matchFormat(text string) (format string, args []any, ok bool) {
	for _, p := range messagePatterns {
		if m := p.re.FindStringSubmatch(text); m != nil {
			format = messages[LocaleEnUS][p.code]
			for _, v := range m[1:] {
				args = append(args, v)
			}
			return format, args, true
		}
	}
	return "", nil, false
}

// asText makes every verb of a format print a string, for values matched
// back from a rendered text.
func asText(format string) string {
	return verbRE.ReplaceAllStringFunc(format, func(v string) string {
		if v == "%%" {
			return v
		}
		if strings.HasPrefix(v, "%[") {
			return v[:strings.Index(v, "]")+1] + "s"
		}
		return "%s"
	})
}

// MessageCode returns the stable code of an English message or format of the
// catalogue, "" for a text it lacks.
func MessageCode(format string) string {
	return messageCodes[format]
}

// Translate renders an English format of the catalogue with args in l. A
// text the catalogue lacks stays English. An argument that is a Phrase, or
// a string of the catalogue (a field's label), is translated too.
func Translate(l Locale, format string, args ...any) string {
	f := format
	if t, ok := messages[l][messageCodes[format]]; ok && t != "" {
		f = t
	}
	if len(args) == 0 {
		return f
	}
	translated := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case Phrase:
			translated[i] = Translate(l, a.format, a.args...)
		case string:
			translated[i] = a
			if _, ok := messageCodes[a]; ok {
				translated[i] = Translate(l, a)
			}
		default:
			translated[i] = a
		}
	}
	return fmt.Sprintf(f, translated...)
}

// Phrase is a part of a message that is translated with it, such as "5
// minutes" in "Please wait 5 minutes": a format of the catalogue and its
// values. It prints in English.
type Phrase struct {
	format string
	args   []any
}

// Phrasef returns a Phrase of a format of the catalogue.
func Phrasef(format string, args ...any) Phrase {
	return Phrase{format: format, args: args}
}

func (p Phrase) String() string {
	if len(p.args) == 0 {
		return p.format
	}
	return fmt.Sprintf(p.format, p.args...)
}

// TranslateText renders in l a sentence the API sends the applicant (a
// checklist's missing item, a reason's text): a text of the catalogue, or
// one made from a format of it.
func TranslateText(l Locale, text string) string {
	_, message := localize(l, text, "", nil)
	return message
}

// Localize returns the error's code and message in l, and its fields'
// messages in l with their codes: the API's answer.
func (e *Error) Localize(l Locale) (code, message string, fields []FieldError) {
	if len(e.Fields) > 0 {
		fields = make([]FieldError, len(e.Fields))
		for i, f := range e.Fields {
			fields[i] = f.Localize(l)
		}
	}
	code, message = localize(l, e.Message, e.format, e.args)
	return code, message, fields
}

// Localize returns the field's message in l, with its code.
func (f FieldError) Localize(l Locale) FieldError {
	code, message := localize(l, f.Message, f.format, f.args)
	// A code the domain set is one the app reacts to (EventSSNMismatch),
	// whichever message carries it.
	return FieldError{Field: f.Field, Message: message, Code: cmp.Or(f.Code, code)}
}

// localize renders a message in l: from its format and values when they
// were kept, else from the English text, which is a format of the
// catalogue or was made from one.
func localize(l Locale, text, format string, args []any) (code, message string) {
	switch {
	case format != "":
		return MessageCode(format), Translate(l, format, args...)
	case MessageCode(text) != "":
		return MessageCode(text), Translate(l, text)
	}
	if format, args, ok := matchFormat(text); ok {
		code := MessageCode(format)
		if t, ok := messages[l][code]; ok && t != "" {
			return code, Translate(l, asText(t), args...)
		}
		return code, text
	}
	return "", text
}

// AddPhrase records a message made earlier as a Phrase.
func (fe *FieldErrors) AddPhrase(field string, p Phrase) {
	fe.Addf(field, p.format, p.args...)
}

// FieldErrorf returns a field's message made from a format of the
// catalogue, which the answer translates with the same values.
func FieldErrorf(field, format string, args ...any) FieldError {
	return FieldError{Field: field, Message: fmt.Sprintf(format, args...), format: format, args: args}
}
