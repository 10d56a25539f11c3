package unboundedspawn_test

import (
	"bytes"
	"go/format"
	"os"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/spgo/spgo/analyzer/unboundedspawn"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedspawn.Analyzer, "a")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), unboundedspawn.Analyzer, "fix")
}

// TestFixesFormatted checks that the fixes leave gofmt-clean source as they
// stand, not only after formatting (which is all the golden files check).
func TestFixesFormatted(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), unboundedspawn.Analyzer, "fix")
	for _, r := range results {
		edits := map[string][]analysis.TextEdit{}
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					name := r.Pass.Fset.File(e.Pos).Name()
					if !slices.ContainsFunc(edits[name], func(x analysis.TextEdit) bool {
						return x.Pos == e.Pos && x.End == e.End && bytes.Equal(x.NewText, e.NewText)
					}) {
						edits[name] = append(edits[name], e)
					}
				}
			}
		}
		for name, es := range edits {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			// Apply from the end so earlier offsets stay valid.
			slices.SortFunc(es, func(a, b analysis.TextEdit) int { return int(b.Pos - a.Pos) })
			tf := r.Pass.Fset.File(es[0].Pos)
			for _, e := range es {
				start, end := tf.Offset(e.Pos), tf.Offset(e.End)
				src = slices.Concat(src[:start], e.NewText, src[end:])
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Fatalf("%s: fixed source does not parse: %v\n%s", name, err, src)
			}
			if !bytes.Equal(formatted, src) {
				t.Errorf("%s: fixed source is not gofmt-clean:\n%s", name, src)
			}
		}
	}
}
