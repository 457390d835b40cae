package portal

import (
	"strings"
	"time"
)

// WithNotificationMethod returns the personal information with another
// primary notification method, checked by the personal information's own
// rules for that part only (the rest was checked when it was saved, and a
// rule that changed since must not block this change). Field errors are
// named type, email and text.
func (p PersonalInfo) WithNotificationMethod(m NotificationMethod, now time.Time, rules PersonalRules) (PersonalInfo, error) {
	p.PrimaryNotificationMethod = m
	const prefix = "primaryNotificationMethod."
	var fe FieldErrors
	if err := p.Validate(now, rules); err != nil {
		e, ok := err.(*Error)
		if !ok {
			return p, err
		}
		for _, f := range e.Fields {
			if name, ok := strings.CutPrefix(f.Field, prefix); ok {
				f.Field = name
				fe = append(fe, f)
			}
		}
	}
	if err := fe.Err(); err != nil {
		return p, err
	}
	n := p.normalized()
	p.PrimaryNotificationMethod = n.PrimaryNotificationMethod
	return p, nil
}
