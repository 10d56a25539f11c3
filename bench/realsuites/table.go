package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
)

// summary is what the table shows of one module's runs.
type summary struct {
	passedPlain, passedSpgo map[string]bool // passed in every round
	lost, gained            []string        // passed only plain, only instrumented
	plainSecs, spgoSecs     float64         // medians
	warnings                int             // watchdog events, largest over the rounds
	timedOut                bool
}

func summarize(r *result) summary {
	s := summary{passedPlain: always(r.plain), passedSpgo: always(r.spgo)}
	for k := range s.passedPlain {
		if !s.passedSpgo[k] {
			s.lost = append(s.lost, k)
		}
	}
	for k := range s.passedSpgo {
		if !s.passedPlain[k] {
			s.gained = append(s.gained, k)
		}
	}
	slices.Sort(s.lost)
	slices.Sort(s.gained)
	var ps, ss []float64
	for i := range r.plain {
		ps, ss = append(ps, r.plain[i].Secs), append(ss, r.spgo[i].Secs)
		s.warnings = max(s.warnings, len(r.spgo[i].Warnings))
		for _, o := range []*outcome{r.plain[i], r.spgo[i]} {
			s.timedOut = s.timedOut || o.TimedOut || len(o.Hung) > 0
		}
	}
	s.plainSecs, s.spgoSecs = harness.Median(ps), harness.Median(ss)
	return s
}

// always returns the tests that passed in every one of outs.
func always(outs []*outcome) map[string]bool {
	p := outs[0].passed()
	for _, o := range outs[1:] {
		maps.DeleteFunc(p, func(k string, _ bool) bool { return o.Tests[k] != "pass" })
	}
	return p
}

// writeTable prints one row per module.
func writeTable(w io.Writer, results []*result, runs int, lim limits) {
	fmt.Fprintf(w, "%d timed round(s) per module after a warm-up build; medians; timeout %v per module and mode, %v per test binary; go test -p 1.\n\n", runs, lim.module, lim.pkg)
	fmt.Fprintln(w, "| module | go line | tests passed plain | passed spgo | lost | plain s | spgo s | ratio | watchdog events | spbuild error |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range results {
		name := fmt.Sprintf("%s@%s", r.mod.Path, r.mod.Version)
		if r.err != nil {
			fmt.Fprintf(w, "| %s | | | | | | | | | not run: %s |\n", name, cell(r.err.Error()))
			continue
		}
		s := summarize(r)
		goLine := r.ws.GoLine
		if goLine == "" {
			goLine = "none (1.16)"
		}
		ratio := fmt.Sprintf("%.1f×", s.spgoSecs/s.plainSecs)
		if s.timedOut {
			ratio = "≥ " + ratio + " (timeout)"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %.1f | %.1f | %s | %d | %s |\n", name, goLine,
			len(s.passedPlain), len(s.passedSpgo), len(s.lost), s.plainSecs, s.spgoSecs, ratio, s.warnings,
			cell(r.trim.Replace(strings.Join(spbuildErrors(r.spgo), "; "))))
	}
}

// spbuildErrors returns the distinct messages of spbuild itself.
func spbuildErrors(outs []*outcome) []string {
	var msgs []string
	for _, o := range outs {
		for _, e := range o.Errors {
			if isError(e) && !slices.Contains(msgs, e) {
				msgs = append(msgs, e)
			}
		}
	}
	return msgs
}

// cell makes s fit in one table cell.
func cell(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", `\|`)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// maxListed caps the tests and watchdog places listed per module.
const maxListed = 30

// writeDetails prints, per module, what the table summarizes: notes on
// go.mod, the tests lost and gained, the watchdog events by place and
// test, the other messages, and where the logs are.
func writeDetails(w io.Writer, results []*result) {
	for _, r := range results {
		if r.err != nil {
			continue
		}
		s := summarize(r)
		fmt.Fprintf(w, "\n### %s@%s\n\n", r.mod.Path, r.mod.Version)
		for _, n := range r.ws.Notes {
			fmt.Fprintf(w, "- note: %s\n", n)
		}
		last := r.spgo[len(r.spgo)-1]
		fmt.Fprintf(w, "- plain: %d passed, %d failed, %d skipped; spgo: %d passed, %d failed, %d skipped, %d without a result (last round)\n",
			r.plain[0].count("pass"), r.plain[0].count("fail"), r.plain[0].count("skip"),
			last.count("pass"), last.count("fail"), last.count("skip"), last.count("run"))
		for i, o := range r.spgo {
			if len(o.Hung) > 0 {
				fmt.Fprintf(w, "- round %d: go test -timeout stopped %s instrumented\n", i+1, strings.Join(o.Hung, ", "))
			}
		}
		for i, o := range r.plain {
			if len(o.Hung) > 0 {
				fmt.Fprintf(w, "- round %d: go test -timeout stopped %s plain\n", i+1, strings.Join(o.Hung, ", "))
			}
		}
		list(w, "passed plain, not instrumented", s.lost, func(k string) string { return last.Tests[k] })
		list(w, "passed instrumented, not plain", s.gained, nil)
		slowest(w, r.plain[0], last)
		places, tests := map[string]int{}, map[string]int{}
		for _, wn := range last.Warnings {
			places[r.trim.Replace(place(wn.Line))]++
			tests[wn.Test]++
		}
		counted(w, "watchdog events by place", places)
		counted(w, "watchdog events by test", tests)
		for i, o := range append(slices.Clone(r.plain), r.spgo...) {
			mode := "plain"
			if i >= len(r.plain) {
				mode = "spgo"
			}
			for _, e := range o.Errors {
				kind := mode + " message"
				if instrWarning.MatchString(e) {
					kind = "spbuild warning (the run goes on)"
				}
				fmt.Fprintf(w, "- %s: %s\n", kind, cell(r.trim.Replace(e)))
			}
		}
	}
}

// list prints up to maxListed tests, each with its state if state is set.
func list(w io.Writer, what string, tests []string, state func(string) string) {
	if len(tests) == 0 {
		return
	}
	fmt.Fprintf(w, "- %s (%d):\n", what, len(tests))
	for i, t := range tests {
		if i == maxListed {
			fmt.Fprintf(w, "  - … %d more\n", len(tests)-maxListed)
			break
		}
		st := ""
		if state != nil {
			switch a := state(t); a {
			case "":
				st = " (missing)"
			case "run":
				st = " (no result: killed or crashed)"
			default:
				st = " (" + a + ")"
			}
		}
		fmt.Fprintf(w, "  - %s%s\n", t, st)
	}
}

// counted prints keys by falling count.
func counted(w io.Writer, what string, n map[string]int) {
	if len(n) == 0 {
		return
	}
	keys := slices.SortedFunc(maps.Keys(n), func(a, b string) int {
		if n[a] != n[b] {
			return n[b] - n[a]
		}
		return strings.Compare(a, b)
	})
	fmt.Fprintf(w, "- %s:\n", what)
	for i, k := range keys {
		if i == maxListed {
			fmt.Fprintf(w, "  - … %d more\n", len(keys)-maxListed)
			break
		}
		fmt.Fprintf(w, "  - %d× %s\n", n[k], k)
	}
}

// place returns the part of a watchdog line that says where the
// goroutine was: the text in parentheses after the duration.
func place(line string) string {
	if i := strings.Index(line, " ("); i >= 0 {
		if j := strings.Index(line[i:], "): "); j >= 0 {
			return line[i+2 : i+j]
		}
	}
	return line
}

// maxSlow is how many tests slowest lists.
const maxSlow = 5

// slowest prints the top-level tests to which instrumentation added the
// most time, with their times plain and instrumented.
func slowest(w io.Writer, plain, spgo *outcome) {
	added := func(k string) float64 { return spgo.Elapsed[k] - plain.Elapsed[k] }
	var keys []string
	for k := range spgo.Elapsed {
		if _, test, _ := strings.Cut(k, " "); !strings.Contains(test, "/") && added(k) >= 0.5 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(added(b), added(a)) })
	fmt.Fprintln(w, "- most time added (test: plain s → instrumented s):")
	for _, k := range keys[:min(len(keys), maxSlow)] {
		fmt.Fprintf(w, "  - %s: %.2f → %.2f\n", k, plain.Elapsed[k], spgo.Elapsed[k])
	}
}
