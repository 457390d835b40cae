package servicedefs_test

import (
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
)

func TestStandardFieldsAreValidDefinitions(t *testing.T) {
	for _, code := range []string{"edus", "iedu", "emps", "iemp", "dots", "cred", "prof"} {
		fields := servicedefs.Standard(code)
		if len(fields) == 0 {
			t.Errorf("%s: no fields", code)
		}
		if err := portal.ValidateDefinitions(fields); err != nil {
			t.Errorf("%s: %v", code, err)
		}
	}
	// dots only adds to employment: it is valid merged with emps.
	if err := portal.ValidateDefinitions(portal.MergeFields(servicedefs.Standard("emps"), servicedefs.Standard("dots"))); err != nil {
		t.Error(err)
	}
	if servicedefs.Standard("crim") != nil {
		t.Error("crim has no applicant fields")
	}
}
