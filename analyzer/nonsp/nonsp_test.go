package nonsp_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/spgo/spgo/analyzer/nonsp"
)

func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), nonsp.Analyzer, "a", "b", "joiners", "joinless")
}
