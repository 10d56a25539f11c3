package joinbeforeconsume_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/spgo/spgo/analyzer/joinbeforeconsume"
)

// enable turns the analyzer on for the rest of the test.
func enable(t *testing.T) {
	t.Helper()
	if err := joinbeforeconsume.Analyzer.Flags.Set("enable", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { joinbeforeconsume.Analyzer.Flags.Set("enable", "false") })
}

func TestAnalyzer(t *testing.T) {
	enable(t)
	analysistest.Run(t, analysistest.TestData(), joinbeforeconsume.Analyzer, "a")
}

// TestDisabled runs the analyzer without its flag on a package it would
// report: off by default, it must say nothing.
func TestDisabled(t *testing.T) {
	if f := joinbeforeconsume.Analyzer.Flags.Lookup("enable"); f == nil || f.DefValue != "false" {
		t.Fatalf("enable flag = %v, want a flag defaulting to false", f)
	}
	analysistest.Run(t, analysistest.TestData(), joinbeforeconsume.Analyzer, "disabled")
}

// TestDisabledWouldReport checks that the disabled test is not vacuous.
func TestDisabledWouldReport(t *testing.T) {
	enable(t)
	results := analysistest.Run(recorder{}, analysistest.TestData(), joinbeforeconsume.Analyzer, "disabled")
	if len(results) != 1 || len(results[0].Diagnostics) != 1 {
		t.Fatalf("enabled on package disabled: got %v, want one diagnostic", results)
	}
}

// recorder is an analysistest.Testing that ignores the unexpected
// diagnostics analysistest complains about.
type recorder struct{}

func (recorder) Errorf(format string, args ...any) {}
