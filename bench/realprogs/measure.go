package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
)

// result is what the harness found for one program.
type result struct {
	p           program
	status      string // ok, differs, exit, hang, build, setup, plain
	detail      string // the first line that says why, if not ok
	plainSecs   []float64
	spgoSecs    []float64
	plainCode   int
	spgoCode    int
	warnings    int    // spgo: warning: lines of the spbuild run check
	firstWarn   string // the first of them
	roots       int    // roots in the check's profile (0: none written)
	exactRoots  int
	mhwm        int64    // MHWM at pmax of the first root
	reasons     []string // why the first root is not exact
	plainVaries bool     // two plain runs printed different outputs
}

// measure runs everything for p; a failure of the harness itself (no
// fetch, no plain build) is a result too, so that the table goes on.
func (h *runner) measure(p program) *result {
	r := &result{p: p, plainCode: -1, spgoCode: -1}
	s, err := h.prepare(p)
	if err != nil {
		r.status, r.detail = "setup", firstLine(err.Error())
		return r
	}
	env := h.runEnv(p, s)
	plainCmd := command{argv: append([]string{s.plain}, expand(p.args, s.work)...), dir: s.cwd, env: env, stdin: stdinPath(p, s)}
	ref, o := h.runOnce(p, s, plainCmd)
	if o.timedOut {
		r.status, r.detail = "plain", "the plain run did not finish within the timeout"
		return r
	}
	r.plainCode = o.code
	if err := h.sh(s.cwd, env, h.spbuild, "build", "-o", s.spgo, s.pkg); err != nil {
		r.status, r.detail = "build", buildError(err.Error())
		return r
	}
	check := plainCmd
	check.argv = append([]string{h.spbuild, "run", "-q", "-pmax", strconv.Itoa(h.pmax), "-json", s.prof, s.pkg, "--"}, plainCmd.argv[1:]...)
	out, o := h.runOnce(p, s, check)
	r.spgoCode = o.code
	r.warnings, r.firstWarn = warnings(o.stderr)
	r.readProfile(s.prof)
	if !r.compare(out, o, ref, "spbuild run") {
		again, _ := h.runOnce(p, s, plainCmd)
		r.plainVaries = again != ref
		return r
	}
	spgoCmd := plainCmd
	spgoCmd.argv = append([]string{s.spgo}, plainCmd.argv[1:]...)
	spgoCmd.env = append(env, "SPGO_PMAX="+strconv.Itoa(h.pmax), "SPGO_PROFILE="+filepath.Join(s.work, "round.json"))
	for round := range h.runs {
		out, o := h.runOnce(p, s, plainCmd)
		r.plainSecs = append(r.plainSecs, o.secs)
		r.plainVaries = r.plainVaries || out != ref
		out, o = h.runOnce(p, s, spgoCmd)
		if !r.compare(out, o, ref, fmt.Sprintf("round %d", round+1)) {
			return r
		}
		r.spgoSecs = append(r.spgoSecs, o.secs)
		fmt.Fprintf(os.Stderr, "realprogs: %s: round %d: plain %.2fs, spgo %.2fs\n", p.name, round+1, r.plainSecs[round], o.secs)
	}
	r.status = "ok"
	return r
}

// compare checks one instrumented run against the plain reference and
// records why it fails; it reports whether the run matched.
func (r *result) compare(out string, o outcome, ref, what string) bool {
	switch {
	case o.timedOut:
		r.status, r.detail = "hang", what+": no end within the timeout"
	case o.code != r.plainCode && !r.p.anyExit:
		r.status, r.detail = "exit", fmt.Sprintf("%s: exit status %d, plain %d: %s", what, o.code, r.plainCode, firstLine(tail(o.stderr, 3)))
	case out != ref:
		r.status, r.detail = "differs", what+": "+firstDiff(out, ref)
	default:
		return true
	}
	return false
}

// runOnce runs c once, after removing p's output files, and returns what
// is compared: stdout, then each output file's hash.
func (h *runner) runOnce(p program, s site, c command) (string, outcome) {
	for _, f := range append(p.outputs, p.fresh...) {
		os.RemoveAll(filepath.Join(s.work, f))
	}
	o, err := run(c, h.timeout)
	if err != nil {
		o.stderr = append(o.stderr, err.Error()...)
	}
	var b bytes.Buffer
	b.Write(o.stdout)
	for _, f := range p.outputs {
		data, err := os.ReadFile(filepath.Join(s.work, f))
		fmt.Fprintf(&b, "\n[%s: sha256 %x, %v]\n", f, sha256.Sum256(data), err != nil)
	}
	return b.String(), o
}

// runEnv is the environment of the spbuild and program runs.
func (h *runner) runEnv(p program, s site) []string {
	env := append(os.Environ(), "GOTOOLCHAIN=local", "SPGO_CACHE="+filepath.Join(h.dir, "spgo-cache"))
	if !p.inGen { // in the generated module the go.work next to it applies
		env = append(env, "GOWORK=off")
	}
	return append(env, expand(p.env, s.work)...)
}

// readProfile reads the roots of the check's profile.
func (r *result) readProfile(path string) {
	prof, err := profile.ReadFile(path)
	if err != nil || len(prof.Roots) == 0 {
		return
	}
	r.roots = len(prof.Roots)
	for _, root := range prof.Roots {
		if root.Exact {
			r.exactRoots++
		}
	}
	r.reasons = prof.Roots[0].Reasons
	if m := prof.Roots[0].MHWM; len(m) > 0 {
		r.mhwm = m[len(m)-1].Bytes
	}
}

// warnings counts the spgo: warning: lines of stderr.
func warnings(stderr []byte) (int, string) {
	n, first := 0, ""
	for _, l := range strings.Split(string(stderr), "\n") {
		if strings.HasPrefix(l, "spgo: warning:") {
			if n == 0 {
				first = l
			}
			n++
		}
	}
	return n, first
}

// expand replaces {w} by the work directory and an argument with a *
// by the files it matches, sorted.
func expand(args []string, w string) []string {
	var out []string
	for _, a := range args {
		a = strings.ReplaceAll(a, "{w}", w)
		if m, err := filepath.Glob(a); err == nil && len(m) > 0 && strings.Contains(a, "*") {
			out = append(out, m...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// stdinPath is the file p reads on standard input, if any.
func stdinPath(p program, s site) string {
	if p.stdin == "" {
		return ""
	}
	return filepath.Join(s.work, p.stdin)
}

// firstDiff describes the first line where out and ref differ.
func firstDiff(out, ref string) string {
	a, b := strings.Split(out, "\n"), strings.Split(ref, "\n")
	i := 0
	for i < min(len(a), len(b)) && a[i] == b[i] {
		i++
	}
	at := func(l []string) string {
		if i < len(l) {
			return l[i]
		}
		return ""
	}
	return fmt.Sprintf("stdout line %d is %.80q, plain %.80q (%d and %d lines)", i+1, at(a), at(b), len(a), len(b))
}

// buildError picks the line of a failed spbuild build that says why.
func buildError(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		if strings.Contains(l, "spbuild:") || strings.Contains(l, ".go:") {
			return strings.TrimSpace(l)
		}
	}
	return firstLine(msg)
}

// firstLine is the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
