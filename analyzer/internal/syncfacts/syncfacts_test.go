package syncfacts_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/spgo/spgo/analyzer/internal/syncfacts"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), syncfacts.Analyzer, "a", "b")
}
