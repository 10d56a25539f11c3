// Package docx extracts an analyzer's Doc from its package's doc.go, the
// way golang.org/x/tools passes do: the section headed "# Analyzer name".
package docx

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the documentation of analyzer name from the source of
// a doc.go file: the text after the heading "# Analyzer name" up to the
// next heading, whose first line is "name: summary"; the "name: " prefix
// is dropped, as the driver prints the name beside it.
func Extract(src, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("docx: parsing doc.go of %s: %w", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("docx: doc.go of %s has no package comment", name)
	}
	text := f.Doc.Text()
	_, after, ok := strings.Cut(text, "# Analyzer "+name+"\n")
	if !ok {
		return "", fmt.Errorf("docx: doc.go has no heading %q", "# Analyzer "+name)
	}
	if i := strings.Index(after, "\n# "); i >= 0 {
		after = after[:i]
	}
	after = strings.TrimSpace(after)
	if !strings.HasPrefix(after, name+": ") {
		return "", fmt.Errorf("docx: the %s section does not start with %q", name, name+": ")
	}
	return strings.TrimPrefix(after, name+": "), nil
}

// MustExtract is Extract for a package-level Analyzer: an error is a
// fault of the package's own doc.go, found by its first test.
func MustExtract(src, name string) string {
	d, err := Extract(src, name)
	if err != nil {
		panic(err)
	}
	return d
}
