package report

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// Budget is a memory budget: the most MHWM_P a root may have. The
// format of budget files and markers is in docs/budgets.md.
type Budget struct {
	// Package, when set, is the import path the root's package must
	// have.
	Package string
	// Root is matched against the root's test name (TestX, without its
	// package); it may be a pattern of path.Match ("Test*", and "*" for
	// every root).
	Root string
	// P is the processor count; 0 is the largest the run computed.
	P     int
	Bytes int64
	// Source says where the budget was written: file:line.
	Source string
}

// String returns the budget as a budget file's line has it.
func (b Budget) String() string {
	return fmt.Sprintf("%s %s %s", b.name(), b.pString(), Bytes(b.Bytes))
}

// name is the ROOT field: Package.Root, or Root.
func (b Budget) name() string {
	if b.Package != "" {
		return b.Package + "." + b.Root
	}
	return b.Root
}

func (b Budget) pString() string {
	if b.P == 0 {
		return "max"
	}
	return strconv.Itoa(b.P)
}

// ParseBudgets reads a budget file: a budget a line, "ROOT P SIZE";
// blank lines and text after # are ignored. name labels the budgets'
// Source and the errors.
func ParseBudgets(r io.Reader, name string) ([]Budget, error) {
	var out []Budget
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pos := name + ":" + strconv.Itoa(n)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s: want ROOT P SIZE (as TestRender 8 64MiB), got %d fields", pos, len(f))
		}
		b, err := newBudget(f[0], f[1], f[2], pos)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return out, nil
}

// newBudget checks and builds one budget from its three fields.
func newBudget(root, p, size, pos string) (Budget, error) {
	b := Budget{Root: root, Source: pos}
	if i := strings.LastIndex(root, "."); i >= 0 { // test names have no dot
		b.Package, b.Root = root[:i], root[i+1:]
	}
	if _, err := path.Match(b.Root, ""); err != nil || b.Root == "" {
		return Budget{}, fmt.Errorf("%s: bad root %q: want a test's name, a pattern such as Test*, or *", pos, root)
	}
	if p != "max" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return Budget{}, fmt.Errorf("%s: bad processor count %q: want a number ≥ 1 or max", pos, p)
		}
		b.P = n
	}
	n, err := ParseSize(size)
	if err != nil || n <= 0 || size[len(size)-1] >= '0' && size[len(size)-1] <= '9' {
		return Budget{}, fmt.Errorf("%s: bad size %q: want a size with its unit, such as 64MiB", pos, size)
	}
	b.Bytes = n
	return b, nil
}

// ParseMarker reads the arguments of a //spgo:budget marker: a size
// and optionally p=N ("64MiB p=8"; without p, the largest computed).
// The budget is for the function fn of package pkg.
func ParseMarker(args, pkg, fn, pos string) (Budget, error) {
	f := strings.Fields(args)
	p := "max"
	switch {
	case len(f) == 2 && strings.HasPrefix(f[1], "p="):
		p = strings.TrimPrefix(f[1], "p=")
	case len(f) != 1:
		return Budget{}, fmt.Errorf("%s: want //spgo:budget SIZE [p=N], as //spgo:budget 64MiB p=8", pos)
	}
	b, err := newBudget(fn, p, f[0], pos)
	if err != nil {
		return Budget{}, err
	}
	b.Package = pkg
	return b, nil
}

// matches reports whether b names the root called name: its function
// ("example.com/p.TestX", "main.TestX" in package main) in one
// package's profile, preceded by the import path and a space in spbuild
// test's merged one ("example.com/p example.com/p.TestX").
func (b Budget) matches(name string) bool {
	pkg, fn, merged := strings.Cut(name, " ")
	if !merged {
		fn = name
	}
	dot := strings.LastIndex(fn, ".")
	if !merged {
		pkg = fn[:max(dot, 0)]
	}
	if b.Package != "" && b.Package != pkg {
		return false
	}
	fn = fn[dot+1:]
	if i := strings.LastIndexByte(fn, '#'); i > 0 {
		fn = fn[:i] // the root begun again: name#2 (go test -count=2)
	}
	ok, _ := path.Match(b.Root, fn)
	return ok
}

// budgetsFor returns the budgets of root name: from the first set with
// one that names it, those of the first ROOT field there that does.
func budgetsFor(name string, sets [][]Budget) []Budget {
	for _, set := range sets {
		for _, b := range set {
			if !b.matches(name) {
				continue
			}
			var out []Budget
			for _, c := range set {
				if c.name() == b.name() {
					out = append(out, c)
				}
			}
			return out
		}
	}
	return nil
}
