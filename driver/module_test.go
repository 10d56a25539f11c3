package driver

import (
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

func TestWithLangConstraint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"package rtlib\n", "//go:build go1.25\n\npackage rtlib\n"},
		{"//go:build unix\n\npackage rtlib\n", "//go:build go1.25 && (unix)\n\npackage rtlib\n"},
		{"//go:build !unix || plan9\n\npackage x\n", "//go:build go1.25 && (!unix || plan9)\n\npackage x\n"},
	}
	for _, tt := range tests {
		if got := string(withLangConstraint([]byte(tt.in))); got != tt.want {
			t.Errorf("withLangConstraint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAddRuntime(t *testing.T) {
	const in = `module example.com/m

go 1.22

require (
	github.com/spgo/spgo v1.2.3
	golang.org/x/sync v0.22.0
)

replace github.com/spgo/spgo => ../spgo

replace example.com/lib => ./lib
`
	f, err := modfile.Parse("go.mod", []byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := addRuntime(f, "/src/m", "/cache/rtlib-x"); err != nil {
		t.Fatal(err)
	}
	out, err := f.Format()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		"go 1.22\n",
		"golang.org/x/sync v0.22.0",
		"github.com/spgo/spgo " + runtimeVersion,
		"github.com/spgo/spgo => /cache/rtlib-x",
		"example.com/lib => /src/m/lib",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("generated go.mod lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"v1.2.3", "../spgo", "=> ./lib"} {
		if strings.Contains(got, bad) {
			t.Errorf("generated go.mod keeps %q:\n%s", bad, got)
		}
	}
}
