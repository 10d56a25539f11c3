package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"},
		{34 << 20, "34 MiB"}, {3 << 30, "3 GiB"}, {-2048, "-2 KiB"},
	}
	for _, tt := range tests {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestDefaultPs(t *testing.T) {
	for pmax, want := range map[int]string{1: "[1]", 64: "[1 2 4 8 16 32 64]", 10: "[1 2 4 8 10]"} {
		if got := fmt.Sprint(DefaultPs(pmax)); got != want {
			t.Errorf("DefaultPs(%d) = %s, want %s", pmax, got, want)
		}
	}
}

func TestText(t *testing.T) {
	p := &profile.Profile{Schema: profile.Schema, PMax: 4, Partial: true, Roots: []profile.Root{{
		Name: "main.main", Exact: false, Reasons: []string{"main.go:9: channel communication"},
		MHWM:       []profile.Point{{P: 1, Bytes: 1 << 20}, {P: 2, Bytes: 2 << 20}, {P: 3, Bytes: 3 << 20}, {P: 4, Bytes: 3 << 20}},
		SerialPeak: 1 << 20,
		Lines: []profile.Line{
			{File: "main.go", Line: 12, Func: "main.work", AllocBytes: 8 << 20, Allocs: 8, MHWMBytes: map[string]int64{"4": 3 << 20}},
			{File: "main.go", Line: 20, Func: "main.main", AllocBytes: 4096, MHWMBytes: map[string]int64{"4": 1}},
		},
	}}}
	var b strings.Builder
	if err := Text(&b, p, Options{Lines: 1}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"partial profile",
		"main.main: not exact",
		"because: main.go:9: channel communication",
		"1 MiB  2 MiB  3 MiB",
		"main.go:12  main.work  3 MiB",
		"100.0%",
		"allocated 8 MiB in 8",
		"… 1 more lines",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
