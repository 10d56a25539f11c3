package tailstrict_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/spgo/spgo/analyzer/tailstrict"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), tailstrict.Analyzer, "a")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), tailstrict.Analyzer, "fix")
}
