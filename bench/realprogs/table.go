package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
	"github.com/spgo/spgo/internal/report"
)

// writeTable prints the Markdown table of results and, under it, a note
// for every program that is not clean: not ok, watchdog events, a
// nondeterministic plain run, or over 5×.
func writeTable(w io.Writer, results []*result, h *runner) {
	fmt.Fprintf(w, "Medians of %d interleaved rounds; × is the instrumented binary's median wall time over the plain one's; "+
		"watchdog counts the `spgo: warning:` lines of the `spbuild run` check; MHWM at p = %d of the first root.\n\n", h.runs, h.pmax)
	fmt.Fprintln(w, "| program | kind | module@version · package | plain s | spgo × | stdout | exit | watchdog | roots exact | MHWM |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---|---|---:|---|---:|")
	var logs float64
	var n int
	for _, r := range results {
		plain, ratio := "–", "–"
		if len(r.plainSecs) > 0 {
			plain = fmt.Sprintf("%.3f", harness.Median(r.plainSecs))
		}
		if len(r.spgoSecs) > 0 {
			x := harness.Median(r.spgoSecs) / harness.Median(r.plainSecs)
			ratio = fmt.Sprintf("%.2f", x)
			logs += math.Log(x)
			n++
		}
		fmt.Fprintf(w, "| %s | %s | %s · `%s` | %s | %s | %s | %s | %s | %s | %s |\n", r.p.name, r.p.kind, r.p.module, r.p.pkg,
			plain, ratio, r.outputCell(), r.exitCell(), r.warnCell(), r.exactCell(), r.mhwmCell())
	}
	if n > 0 {
		fmt.Fprintf(w, "| **geometric mean** (%d programs) | | | | **%.2f** | | | | | |\n", n, math.Exp(logs/float64(n)))
	}
	fmt.Fprintln(w)
	for _, r := range results {
		for _, note := range r.notes() {
			fmt.Fprintf(w, "- **%s**: %s\n", r.p.name, note)
		}
	}
}

// outputCell says whether stdout (and written files) matched.
func (r *result) outputCell() string {
	switch r.status {
	case "ok", "exit":
		return "same"
	case "differs":
		return "**differs**"
	case "hang":
		return "**hang**"
	case "build":
		return "**no build**"
	}
	return "–"
}

// exitCell compares the exit statuses.
func (r *result) exitCell() string {
	switch {
	case r.spgoCode < 0 || r.plainCode < 0:
		return "–"
	case r.spgoCode == r.plainCode:
		return fmt.Sprintf("%d = %d", r.spgoCode, r.plainCode)
	case r.p.anyExit:
		return fmt.Sprintf("%d, %d (racy)", r.spgoCode, r.plainCode)
	}
	return fmt.Sprintf("**%d ≠ %d**", r.spgoCode, r.plainCode)
}

// warnCell is the count of watchdog lines.
func (r *result) warnCell() string {
	if r.status == "build" || r.status == "setup" || r.status == "plain" {
		return "–"
	}
	if r.warnings > 0 {
		return fmt.Sprintf("**%d**", r.warnings)
	}
	return "0"
}

// exactCell is exact roots over roots.
func (r *result) exactCell() string {
	if r.roots == 0 {
		return "–"
	}
	return fmt.Sprintf("%d / %d", r.exactRoots, r.roots)
}

// mhwmCell is the first root's MHWM.
func (r *result) mhwmCell() string {
	if r.roots == 0 {
		return "–"
	}
	return report.Bytes(r.mhwm)
}

// notes are the lines under the table for r.
func (r *result) notes() []string {
	var out []string
	if r.status != "ok" {
		out = append(out, r.status+": "+mdEscape(r.detail))
	}
	if r.warnings > 0 {
		out = append(out, fmt.Sprintf("%d watchdog lines; the first: %s", r.warnings, mdEscape(shorten(r.firstWarn, 240))))
	}
	if len(r.reasons) > 0 {
		out = append(out, fmt.Sprintf("not exact, %d reasons; the first: %s", len(r.reasons), mdEscape(shorten(r.reasons[0], 200))))
	}
	if r.plainVaries {
		out = append(out, "two plain runs printed different outputs")
	}
	if len(r.spgoSecs) > 0 && harness.Median(r.spgoSecs) > 5*harness.Median(r.plainSecs) {
		out = append(out, fmt.Sprintf("over 5×: %.2f s against %.2f s plain", harness.Median(r.spgoSecs), harness.Median(r.plainSecs)))
	}
	return out
}

// shorten cuts s to at most n bytes.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// mdEscape keeps a message from breaking the Markdown around it.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "'", "\n", " ").Replace(s)
}
