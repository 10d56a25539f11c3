// Package importgraph draws the import graph of spgo's packages, from
// `go list`, as the Markdown block that docs/design.md shows between
// the markers Begin and End. Its test fails when the block checked in is
// stale; `go test ./internal/importgraph -update` writes it anew.
package importgraph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
)

// Begin and End delimit the generated block in a Markdown file.
const (
	Begin = "<!-- importgraph: begin (go test ./internal/importgraph -update) -->"
	End   = "<!-- importgraph: end -->"
)

// Graph maps each package of the module, named relative to the module
// ("rtlib/mhwm", "." for the root package), to the module's packages it
// imports, sorted.
type Graph map[string][]string

// Load lists the packages of the module in dir with `go list` and
// returns their imports within the module (test files left out). The
// packages whose relative name has one of the prefixes in skip are left
// out, as nodes and as imports.
func Load(dir string, skip ...string) (Graph, error) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Module", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	type pkg struct {
		ImportPath string
		Imports    []string
		Module     *struct{ Path string }
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("decode go list output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 || pkgs[0].Module == nil {
		return nil, fmt.Errorf("go list in %s: no packages of a module", dir)
	}
	mod := pkgs[0].Module.Path
	rel := func(path string) (string, bool) {
		var r string
		switch {
		case path == mod:
			r = "."
		case strings.HasPrefix(path, mod+"/"):
			r = strings.TrimPrefix(path, mod+"/")
		default:
			return "", false
		}
		for _, s := range skip {
			if strings.HasPrefix(r, s) {
				return "", false
			}
		}
		return r, true
	}
	g := Graph{}
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		g[from] = []string{}
		for _, imp := range p.Imports {
			if to, ok := rel(imp); ok {
				g[from] = append(g[from], to)
			}
		}
		sort.Strings(g[from])
	}
	return g, nil
}

// Markdown returns the block docs/design.md holds: a mermaid flowchart
// and the same edges as a table, both in sorted order, between Begin and
// End.
func (g Graph) Markdown() string {
	names := make([]string, 0, len(g))
	for n := range g {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(Begin + "\n\n```mermaid\nflowchart LR\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %s[%q]\n", nodeID(n), label(n))
	}
	for _, n := range names {
		for _, to := range g.imports(n) {
			fmt.Fprintf(&b, "  %s --> %s\n", nodeID(n), nodeID(to))
		}
	}
	b.WriteString("```\n\n| package | imports (in the module) |\n| --- | --- |\n")
	for _, n := range names {
		imps := make([]string, len(g[n]))
		for i, to := range g.imports(n) {
			imps[i] = "`" + label(to) + "`"
		}
		list := strings.Join(imps, ", ")
		if list == "" {
			list = "(none)"
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", label(n), list)
	}
	b.WriteString("\n" + End)
	return b.String()
}

// imports returns n's imports, sorted, without changing g.
func (g Graph) imports(n string) []string {
	imps := slices.Clone(g[n])
	sort.Strings(imps)
	return imps
}

// label is how a package is shown: the root package as "spgo".
func label(n string) string {
	if n == "." {
		return "spgo"
	}
	return n
}

// nodeID is a mermaid identifier for package n.
func nodeID(n string) string {
	if n == "." {
		return "root"
	}
	return strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(n)
}

// Splice returns doc with the text between Begin and End (markers
// included) replaced by block, which must itself start with Begin and end
// with End.
func Splice(doc []byte, block string) ([]byte, error) {
	i, j, err := bounds(doc)
	if err != nil {
		return nil, err
	}
	return []byte(string(doc[:i]) + block + string(doc[j:])), nil
}

// Block returns the text between Begin and End in doc, markers included.
func Block(doc []byte) (string, error) {
	i, j, err := bounds(doc)
	if err != nil {
		return "", err
	}
	return string(doc[i:j]), nil
}

// bounds returns where the block starts in doc and where it ends, after
// End.
func bounds(doc []byte) (int, int, error) {
	i := bytes.Index(doc, []byte(Begin))
	j := bytes.Index(doc, []byte(End))
	if i < 0 || j < i {
		return 0, 0, fmt.Errorf("no %q … %q block", Begin, End)
	}
	return i, j + len(End), nil
}
