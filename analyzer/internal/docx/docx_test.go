package docx

import (
	"strings"
	"testing"
)

const src = `// Package p does things.
//
// # Analyzer p
//
// p: report things
//
// More about p.
//
// # Other
//
// Not p.
package p
`

func TestExtract(t *testing.T) {
	got, err := Extract(src, "p")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "report things") || !strings.Contains(got, "More about p.") || strings.Contains(got, "Not p") {
		t.Errorf("Extract = %q", got)
	}
	if _, err := Extract(src, "q"); err == nil {
		t.Error("Extract of a missing analyzer: no error")
	}
	if _, err := Extract("package p\n", "p"); err == nil {
		t.Error("Extract without a package comment: no error")
	}
}
