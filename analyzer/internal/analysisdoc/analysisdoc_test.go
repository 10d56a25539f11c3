package analysisdoc

import (
	"strings"
	"testing"
)

const sample = `// Package p does things.
//
// # Analyzer p
//
// p: report things
//
// More about
// things.
//
// # Other
//
// Not this.
package p
`

func TestExtract(t *testing.T) {
	got, err := Extract(sample, "p")
	if err != nil {
		t.Fatal(err)
	}
	if want := "report things\n\nMore about\nthings."; got != want {
		t.Errorf("Extract = %q, want %q", got, want)
	}
}

func TestExtractErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src, analyzer, want string
	}{
		{"no comment", "package p\n", "p", "no package comment"},
		{"no section", "// Package p.\npackage p\n", "p", `no "# Analyzer p" section`},
		{"other analyzer", sample, "q", `no "# Analyzer q" section`},
		{"no summary", "// Package p.\n//\n// # Analyzer p\n//\n// Reports things.\npackage p\n", "p", `does not begin with "p: "`},
		{"not Go", "not go", "p", "parse doc.go"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Extract(tt.src, tt.analyzer)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Extract: error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
