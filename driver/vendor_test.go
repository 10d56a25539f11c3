//go:build unix

package driver

import "testing"

// TestModFlag: the -mod the go command uses is the last of the command
// line's, else the last of GOFLAGS.
func TestModFlag(t *testing.T) {
	tests := []struct {
		goflags string
		flags   []string
		want    string
	}{
		{"", nil, ""},
		{"-mod=vendor", nil, "vendor"},
		{"-mod=vendor -trimpath", []string{"-tags=x", "-mod=mod"}, "mod"},
		{"--mod=readonly", []string{"-tags=x"}, "readonly"},
		{"", []string{"-mod=mod", "-mod=vendor"}, "vendor"},
		{"-modfile=x", []string{"mod=vendor"}, ""},
	}
	for _, tt := range tests {
		if got := modFlag(tt.goflags, tt.flags); got != tt.want {
			t.Errorf("modFlag(%q, %q) = %q, want %q", tt.goflags, tt.flags, got, tt.want)
		}
	}
}

// TestRebaseReplacement: relative replacement directories of
// modules.txt move from the module's directory to the generated
// workspace's; the rest of the file stays as it is.
func TestRebaseReplacement(t *testing.T) {
	const from, to = "/src/m", "/cache/entries/k"
	tests := []struct{ in, want string }{
		{"# example.com/dep v0.0.0 => ./dep\n", "# example.com/dep v0.0.0 => ../../../src/m/dep\n"},
		{"# example.com/dep => ../dep\n", "# example.com/dep => ../../../src/dep\n"},
		{"# example.com/dep v1.0.0 => /abs/dep\n", "# example.com/dep v1.0.0 => /abs/dep\n"},
		{"# example.com/a v1.0.0 => example.com/b v1.2.0\n", "# example.com/a v1.0.0 => example.com/b v1.2.0\n"},
		{"## explicit; go 1.16\n", "## explicit; go 1.16\n"},
		{"example.com/dep\n", "example.com/dep\n"},
		{"# example.com/dep v0.0.0 => ./dep", "# example.com/dep v0.0.0 => ../../../src/m/dep"},
	}
	for _, tt := range tests {
		if got := rebaseReplacement(tt.in, from, to); got != tt.want {
			t.Errorf("rebaseReplacement(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := relDir("/a/b", "/a/b/c"); got != "./c" {
		t.Errorf("relDir = %q, want ./c", got)
	}
}
