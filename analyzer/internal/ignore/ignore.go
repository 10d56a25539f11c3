// Package ignore implements spvet's suppression comments:
//
//	//spvet:ignore <analyzer> <reason>
//
// on the line of a finding or the line above it silences that analyzer
// there. The reason is required: a comment without one does not suppress.
package ignore

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Reporter reports diagnostics of one analyzer unless suppressed.
type Reporter struct {
	pass *analysis.Pass
	// lines holds, per file name, the lines with a suppression of this
	// analyzer.
	lines map[string]map[int]bool
}

// New returns a Reporter for pass, reading the suppression comments of its
// files.
func New(pass *analysis.Pass) *Reporter {
	r := &Reporter{pass: pass, lines: map[string]map[int]bool{}}
	name := pass.Analyzer.Name
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !suppresses(c.Text, name) {
					continue
				}
				pos := pass.Fset.Position(c.Slash)
				if r.lines[pos.Filename] == nil {
					r.lines[pos.Filename] = map[int]bool{}
				}
				r.lines[pos.Filename][pos.Line] = true
			}
		}
	}
	return r
}

// suppresses reports whether comment text is "//spvet:ignore name reason".
func suppresses(text, name string) bool {
	rest, ok := strings.CutPrefix(text, "//spvet:ignore ")
	if !ok {
		return false
	}
	f := strings.Fields(rest)
	return len(f) >= 2 && f[0] == name
}

// Suppressed reports whether a finding at pos is silenced.
func (r *Reporter) Suppressed(pos token.Pos) bool {
	p := r.pass.Fset.Position(pos)
	l := r.lines[p.Filename]
	return l[p.Line] || l[p.Line-1]
}

// Reportf reports a diagnostic at n unless it is suppressed. The message
// is prefixed with the analyzer's name.
func (r *Reporter) Reportf(n ast.Node, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Message: fmt.Sprintf(format, args...)})
}

// Report reports d unless it is suppressed, with its message prefixed by
// the analyzer's name; use it for diagnostics that carry fixes.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.Suppressed(d.Pos) {
		return
	}
	d.Message = r.pass.Analyzer.Name + ": " + d.Message
	r.pass.Report(d)
}
