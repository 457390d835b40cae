package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// LighthouseReport is the web app's Lighthouse scores (mobile), or why
// there are none.
type LighthouseReport struct {
	Pages   []LighthousePage `json:"pages"`
	Skipped string           `json:"-"`
}

// LighthousePage is one page's figures as bench/lighthouse/run.mjs prints
// them.
type LighthousePage struct {
	Name        string  `json:"name"`
	Performance float64 `json:"performance"`
	LCPMs       float64 `json:"lcpMs"`
	TBTMs       float64 `json:"tbtMs"`
}

// minLighthouseScore is the target: each page at least 95.
const minLighthouseScore = 0.95

// runLighthouse runs the Lighthouse runner against the portal with a fresh
// invitation and a seeded applicant, when the runner is there.
func runLighthouse(ctx context.Context, cfg Config, p *portalProcess, op *operator, a applicant, logf func(string, ...any)) *LighthouseReport {
	if cfg.Lighthouse == "" {
		return &LighthouseReport{Skipped: "not run: no Lighthouse runner configured"}
	}
	if _, err := os.Stat(cfg.Lighthouse); err != nil {
		return &LighthouseReport{Skipped: fmt.Sprintf("not run: %s does not exist", cfg.Lighthouse)}
	}
	dir := filepath.Dir(cfg.Lighthouse)
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		logf("npm ci --prefix %s", dir)
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--prefix", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			return &LighthouseReport{Skipped: fmt.Sprintf("not run: npm ci --prefix %s: %v: %.500s", dir, err, out)}
		}
	}
	link, err := op.invite(ctx, fmt.Sprintf("bench.lighthouse.%d@example.com", time.Now().UnixNano()), "Lee", "Lighthouse")
	if err != nil {
		return &LighthouseReport{Skipped: "not run: " + err.Error()}
	}
	logf("lighthouse: %s", cfg.Lighthouse)
	ctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	// The logged-in page is the demo applicant's profile hub; a seeded applicant, still in
	// setup, would land on the setup wizard, which the invitation's run audits already.
	username, password, ok := p.demoLogin()
	if !ok {
		username, password = a.Email, benchPassword
	}
	cmd := exec.CommandContext(ctx, "node", cfg.Lighthouse, "--base", p.base, "--invitation", link,
		"--username", username, "--password", password)
	// Its progress shows as it goes (a run takes minutes); the end of it
	// is kept for the report should it fail.
	var stderr bytes.Buffer
	cmd.Stderr = io.MultiWriter(cfg.Log, &stderr)
	out, err := cmd.Output()
	if err != nil {
		tail := stderr.String()
		tail = tail[max(0, len(tail)-500):]
		return &LighthouseReport{Skipped: fmt.Sprintf("failed: %v: %s", err, strings.Join(strings.Fields(tail), " "))}
	}
	rep, err := parseLighthouse(out)
	if err != nil {
		return &LighthouseReport{Skipped: "failed: " + err.Error()}
	}
	return rep
}

// parseLighthouse reads the runner's last JSON line.
func parseLighthouse(out []byte) (*LighthouseReport, error) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var rep LighthouseReport
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			return nil, fmt.Errorf("lighthouse output: %w", err)
		}
		if len(rep.Pages) == 0 {
			return nil, fmt.Errorf("lighthouse output has no pages: %.200s", line)
		}
		return &rep, nil
	}
	return nil, fmt.Errorf("lighthouse printed no JSON line: %.300s", out)
}
