package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestWithGoVersion checks where the go1.21 constraint goes.
func TestWithGoVersion(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no header", "package p\n", "//go:build go1.21\n\npackage p\n"},
		{"doc comment", "// Package p.\npackage p\n", "//go:build go1.21\n\n// Package p.\npackage p\n"},
		{"constraint", "// Copyright.\n\n//go:build linux || darwin\n\npackage p\n", "// Copyright.\n\n//go:build (linux || darwin) && go1.21\n\npackage p\n"},
		{"block comment first", "/* Copyright. */\n\n//go:build linux\n\npackage p\n", "//go:build go1.21\n\n/* Copyright. */\n\n//go:build linux\n\npackage p\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withGoVersion(tt.in, "go1.21"); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOldLanguage rewrites a file of modules with old go lines (issue 22):
// the output must type-check at the module's version, with the go1.21
// constraint before Go 1.21 (generic calls need it; without it the
// output does not type-check) and one variable per range loop over a
// channel before Go 1.22.
func TestOldLanguage(t *testing.T) {
	imp, err := loadImporter()
	if err != nil {
		t.Fatal(err)
	}
	const src = `// +build !plan9

package p

func f(ch chan int, done func(func())) {
	ch <- 1
	for v := range ch {
		done(func() { _ = v })
	}
}
`
	tests := []struct {
		goVersion           string
		constraint, perLoop bool
		generics            bool // the version has generics without the constraint
	}{
		{"go1.16", true, true, false},
		{"go1.20", true, true, true},
		{"go1.21", false, true, true},
		{"go1.22", false, false, true},
		{"", false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.goVersion, func(t *testing.T) {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "/old/a.go", src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			pkg, info, err := typeCheckAt(tt.goVersion, fset, file, imp)
			if err != nil {
				t.Fatalf("input: %v", err)
			}
			out, err := File(Input{Fset: fset, File: file, Pkg: pkg, Info: info})
			if err != nil {
				t.Fatal(err)
			}
			got := string(out.Src)
			if c := strings.Contains(got, "//go:build !plan9 && go1.21\n"); c != tt.constraint {
				t.Errorf("go1.21 constraint %v, want %v:\n%s", c, tt.constraint, got)
			}
			if p := strings.Contains(got, "for spgo_c, v := ch, spgo_rt.Elem((chan int)(nil)); ; {"); p != tt.perLoop {
				t.Errorf("one variable per loop %v, want %v:\n%s", p, tt.perLoop, got)
			}
			check := func(src string) error {
				ofset := token.NewFileSet()
				of, err := parser.ParseFile(ofset, "/old/a.go", src, parser.ParseComments)
				if err != nil {
					return err
				}
				_, _, err = typeCheckAt(tt.goVersion, ofset, of, imp)
				return err
			}
			if err := check(got); err != nil {
				t.Errorf("output does not type-check at %s: %v\n%s", tt.goVersion, err, got)
			}
			if !tt.generics {
				bare := strings.Replace(got, " && go1.21", "", 1)
				if err := check(bare); err == nil {
					t.Errorf("the output type-checks at %s without the constraint: the test tests nothing", tt.goVersion)
				}
			}
		})
	}
}
