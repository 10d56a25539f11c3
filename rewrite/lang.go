package rewrite

import (
	"go/version"
	"strings"
)

// Language versions. The code the rewriter generates calls rtlib's
// generic functions, which a file needs Go 1.18 for, and spgo is tested
// at Go 1.21 and later. A rewritten file whose language version is older
// (a module whose go line is older, or absent: Go 1.16) gets a
// //go:build go1.21 constraint, alone or and-ed with the file's own.
// go/types and the compiler then give the file version max(go1.21,
// constraint) (go/types/check.go, "use max(fileVersion, go1.21)"), and
// the language changes from the file's version to Go 1.21 only add what
// was not valid before (generics, min and max, slice to array
// conversions): a program that compiled means the same. Go 1.22's loop
// variables, the one change that would alter meaning, stay out: 1.21
// keeps one variable per loop, and the rewriter's own loops keep it too
// (rangeChan).

// genLang is the language version the generated code is compiled with at
// least.
const genLang = "go1.21"

// perIteration is the version from which each iteration of a loop has
// its own variables.
const perIteration = "go1.22"

// langBefore reports whether the file's language version is known and
// older than v.
func (r *fileRewriter) langBefore(v string) bool {
	fv := r.in.Info.FileVersions[r.in.File]
	return fv != "" && version.IsValid(fv) && version.Compare(fv, v) < 0
}

// withGoVersion gives the Go source text the build constraint go1.21 (v),
// and-ed with the //go:build line it has, if any (gofmt writes one for
// a file with only // +build lines), or on a line of its own before
// everything else, followed by the blank line a constraint needs.
func withGoVersion(text, v string) string {
	rest := text
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		trimmed := strings.TrimSpace(line)
		if expr, ok := strings.CutPrefix(trimmed, "//go:build "); ok {
			at := len(text) - len(rest)
			return text[:at] + "//go:build (" + strings.TrimSpace(expr) + ") && " + v + text[at+len(line):]
		}
		if trimmed != "" && !strings.HasPrefix(trimmed, "//") {
			break // the package clause, or a /* comment: no constraint
		}
		rest = after
	}
	return "//go:build " + v + "\n\n" + text
}
