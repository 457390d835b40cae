package main_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestInviteInSpanish: --lang es-US queues the invitation in Spanish; a
// language the portal does not speak invites nobody.
func TestInviteInSpanish(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	companyInDataDir(t, data)
	runPortal(t, "invite", "--data", data, "--email", "ana@example.com", "--first-name", "Ana", "--last-name", "Ruiz", "--lang", "es-US")
	if out := runPortal(t, "outbox", "--data", data); !strings.Contains(out, "Subject: Lo invitamos a completar su verificación de antecedentes") {
		t.Errorf("portal outbox = %q; want the Spanish invitation", out)
	}

	cmd := exec.Command(portalBin, "invite", "--data", data, "--email", "bo@example.com", "--first-name", "Bo", "--last-name", "Ruiz", "--lang", "fr-FR")
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "locale") {
		t.Errorf("--lang fr-FR accepted: %v %s", err, b)
	}
}
