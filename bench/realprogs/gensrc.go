package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Sizes of the generated Go module.
const (
	genPackages = 30
	genFiles    = 8 // per package
)

// genGoModule writes gen/, a module of 30 packages of 8 files and a main
// that calls into each. The code compiles but is loosely formatted
// (gofumpt rewrites it) and has what the analysers report: unreachable
// functions (deadcode, staticcheck U1000), structs with padding
// (fieldalignment), a comparison with true and a value never used
// (staticcheck S1002, SA4006).
func genGoModule(w, _ string) error {
	gen := filepath.Join(w, "gen")
	if err := writeFile(gen, "go.mod", "module example.com/gen\n\ngo 1.22\n"); err != nil {
		return err
	}
	var m strings.Builder
	m.WriteString("package main\n\nimport (\n\t\"fmt\"\n\n")
	for p := range genPackages {
		fmt.Fprintf(&m, "\t\"example.com/gen/p%02d\"\n", p)
	}
	m.WriteString(")\n\nfunc main() {\n\tn := 0\n")
	for p := range genPackages {
		for f := range genFiles {
			fmt.Fprintf(&m, "\tn += len(p%02d.Show%d(p%02d.Record%d{Name: %q, Count: %d}))\n", p, f, p, f, fmt.Sprint("r", p, f), p*f)
		}
	}
	m.WriteString("\tfmt.Println(n)\n}\n")
	if err := writeFile(gen, "main.go", m.String()); err != nil {
		return err
	}
	for p := range genPackages {
		for f := range genFiles {
			name := filepath.Join(fmt.Sprintf("p%02d", p), fmt.Sprintf("f%d.go", f))
			if err := writeFile(gen, name, goFile(p, f)); err != nil {
				return err
			}
		}
	}
	return nil
}

// goFile is file f of package p of the generated module.
func goFile(p, f int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p%02d\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n", p)
	fmt.Fprintf(&b, "// Record%d is a record with padding between its fields.\n", f)
	fmt.Fprintf(&b, "type Record%d struct {\n\tOK bool\n\tCount int64\n\tSeen bool\n\tName string\n\tSmall int8\n}\n\n", f)
	fmt.Fprintf(&b, "func  clean%d( s string ) string {\n\n\tvar b strings.Builder\n", f)
	b.WriteString("\tfor i := 0; i < len(s); i++ {\n\t\tif s[i] >= 'a' && s[i] <= 'z' { b.WriteByte(s[i]-32) } else { b.WriteByte(s[i]) }\n\t}\n")
	b.WriteString("\treturn b.String()\n}\n\n")
	fmt.Fprintf(&b, "// Show%d formats r.\nfunc Show%d(r Record%d) string {\n", f, f, f)
	b.WriteString("\tparts := []string{clean" + fmt.Sprint(f) + "(r.Name),fmt.Sprint(r.Count),fmt.Sprint(r.Small)}\n")
	b.WriteString("\tsep := \",\"\n\tsep = \";\"\n")
	b.WriteString("\tif r.OK == true { parts = append(parts, \"ok\") }\n")
	b.WriteString("\treturn strings.Join(parts, sep)\n}\n\n")
	fmt.Fprintf(&b, "func unused%d(n int) int {\n\tif n < 2 { return n }\n\treturn unused%d(n-1) + unused%d(n-2)\n}\n\n", f, f, f)
	fmt.Fprintf(&b, "// Dead%d is exported but never called.\nfunc Dead%d(xs []int) (total int) {\n", f, f)
	b.WriteString("\tfor _, x := range xs {\n\t\ttotal += x * x\n\t}\n\treturn\n}\n")
	return b.String()
}
