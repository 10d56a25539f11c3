package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// workflow is the GitHub Actions workflow docs/ci.md describes.
const workflow = "../../docs/ci/spgo-gate.yml"

// TestWorkflow runs the spreport command lines of the documented
// workflow, with its env block's values, on two real profiles: they
// must parse and give the gate's verdict: 0, as the two differ by jitter.
func TestWorkflow(t *testing.T) {
	data, err := os.ReadFile(workflow)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\\\n", " ")
	env := map[string]string{
		"RUNNER_TEMP/base.json":   rerun,
		"RUNNER_TEMP/change.json": tiles,
	}
	for _, m := range regexp.MustCompile(`(?m)^  ([A-Z_]+): *"?([^"#\s]*)"?`).FindAllStringSubmatch(text, -1) {
		env[m[1]] = m[2]
	}
	if env["MAX_INCREASE"] == "" || env["NOISE"] == "" {
		t.Fatalf("env block not found: %v", env)
	}
	var ran int
	for _, line := range strings.Split(text, "\n") {
		_, cmd, ok := strings.Cut(line, "spreport diff ")
		if !ok || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		cmd, _, _ = strings.Cut(cmd, ">>")
		cmd, _, _ = strings.Cut(cmd, "||")
		args := []string{"diff"}
		for _, f := range strings.Fields(cmd) {
			f = strings.Trim(f, `"`)
			if v, ok := env[strings.TrimPrefix(f, "$")]; ok && strings.HasPrefix(f, "$") {
				f = v
			}
			if strings.Contains(f, "$") {
				t.Fatalf("unknown variable in %q", f)
			}
			args = append(args, f)
		}
		stdout, stderr, code := spreport(args...)
		if code != 0 || !strings.Contains(stdout, "o root grew more than "+env["MAX_INCREASE"]) {
			t.Errorf("spreport %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		ran++
	}
	if ran != 2 {
		t.Errorf("%d spreport diff commands in %s, want 2 (summary and gate)", ran, workflow)
	}
}

// TestDocsLinks: the documentation links inside the repository only,
// but for GitHub's own actions.
func TestDocsLinks(t *testing.T) {
	for _, name := range []string{"../../docs/ci.md", "../../docs/budgets.md", workflow} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range regexp.MustCompile(`(?i)\b(https?://|www\.)\S+`).FindAllString(string(data), -1) {
			t.Errorf("%s links outside the repository: %s", name, u)
		}
		for _, m := range regexp.MustCompile(`uses: *(\S+)`).FindAllStringSubmatch(string(data), -1) {
			if !strings.HasPrefix(m[1], "actions/") {
				t.Errorf("%s uses %s, not one of GitHub's own actions", name, m[1])
			}
		}
	}
}
