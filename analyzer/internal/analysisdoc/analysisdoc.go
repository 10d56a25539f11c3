// Package analysisdoc builds an analyzer's Doc string from the package
// documentation in its doc.go, the convention of golang.org/x/tools'
// analyzers: the package comment has a section "# Analyzer NAME" whose
// text, which starts with the line "NAME: summary", is the analyzer's
// documentation (without "NAME: "), so that `go doc`, pkg.go.dev and `spvet help NAME` show
// one text.
package analysisdoc

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the text of the "# Analyzer name" section of the
// package comment of content, the source of a Go file: from the line
// after the heading to the next heading or the end, trimmed. The section
// must begin with "name: summary"; the result begins with the summary,
// as analysis.Analyzer.Doc wants it (drivers print the name before it).
func Extract(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("analyzer %s: parse doc.go: %w", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("analyzer %s: doc.go has no package comment", name)
	}
	heading := "# Analyzer " + name
	lines := strings.Split(f.Doc.Text(), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == heading {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("analyzer %s: no %q section in the package comment", name, heading)
	}
	end := len(lines)
	for i := start; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "# ") {
			end = i
			break
		}
	}
	doc := strings.TrimSpace(strings.Join(lines[start:end], "\n"))
	if !strings.HasPrefix(doc, name+": ") {
		return "", fmt.Errorf("analyzer %s: the %q section does not begin with %q", name, heading, name+": ")
	}
	return strings.TrimPrefix(doc, name+": "), nil
}

// MustExtract is Extract for package variables: it panics on an error,
// which a test of the analyzer then reports.
func MustExtract(content, name string) string {
	doc, err := Extract(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}
