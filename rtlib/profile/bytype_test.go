package profile

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// typedSample is richSample with its lines and heap samples split by
// type.
func typedSample() *Profile {
	p := richSample()
	r := &p.Roots[0]
	r.Lines[0].Types = []LineType{
		{Type: "[]byte", AllocBytes: 200, Allocs: 2, MHWMBytes: map[string]int64{"1": 100, "2": 60, "4": 100}},
		{Type: "string", AllocBytes: 100, Allocs: 1, MHWMBytes: map[string]int64{"2": 40, "4": 50}},
	}
	r.Lines[1].Types = []LineType{
		{Type: "*main.T", AllocBytes: 100, Allocs: 1, MHWMBytes: map[string]int64{"2": 50, "4": 50}},
	}
	r.Heap.Samples[0].Types = []TypeBytes{{"[]byte", 100}}
	r.Heap.Samples[1].Types = []TypeBytes{{"*main.T", 50}, {"[]byte", 60}, {"string", 40}}
	return p
}

// TestValidateTypes breaks typedSample's types one rule at a time
// (validateTypes), and checks that a profile without types, as spgo
// wrote them before, stays valid.
func TestValidateTypes(t *testing.T) {
	line := func(p *Profile, i int) *Line { return &p.Roots[0].Lines[i] }
	heap := func(p *Profile, i int) *HeapSample { return &p.Roots[0].Heap.Samples[i] }
	const l0 = "invalid profile: root main.main: main.go:10: types: "
	const h1 = "invalid profile: root main.main: heap sample 1: types: "
	tests := []struct {
		name   string
		change func(p *Profile)
		want   string // "" for a change that keeps the profile valid
	}{
		{"as is", func(p *Profile) {}, ""},
		{"no types (an older profile)", func(p *Profile) {
			for i := range p.Roots[0].Lines {
				line(p, i).Types = nil
			}
			for i := range p.Roots[0].Heap.Samples {
				heap(p, i).Types = nil
			}
		}, ""},
		{"one line without types", func(p *Profile) { line(p, 1).Types = nil }, ""},
		{"unnamed", func(p *Profile) { line(p, 0).Types[0].Type = "" }, l0 + "type 0 has no name"},
		{"out of order", func(p *Profile) {
			ts := line(p, 0).Types
			ts[0], ts[1] = ts[1], ts[0]
		}, l0 + `"[]byte" after "string": not strictly increasing`},
		{"repeated", func(p *Profile) { line(p, 0).Types[1].Type = "[]byte" }, l0 + `"[]byte" after "[]byte": not strictly increasing`},
		{"negative allocs", func(p *Profile) { line(p, 0).Types[1].Allocs = -1 }, l0 + "string: alloc_bytes 100 or allocs -1 < 0"},
		{"alloc_bytes sum", func(p *Profile) { line(p, 0).Types[1].AllocBytes = 99 }, l0 + "alloc_bytes and allocs sum to 299 and 3, the line's are 300 and 3"},
		{"allocs sum", func(p *Profile) { line(p, 0).Types[0].Allocs = 1 }, l0 + "alloc_bytes and allocs sum to 300 and 2, the line's are 300 and 3"},
		{"mhwm sum", func(p *Profile) { line(p, 0).Types[1].MHWMBytes["4"] = 49 }, l0 + "mhwm_bytes for p = 4 sum to 149, the line's is 150"},
		{"mhwm missing", func(p *Profile) { delete(line(p, 0).Types[0].MHWMBytes, "1") }, l0 + "mhwm_bytes for p = 1 sum to 0, the line's is 100"},
		{"mhwm key the line lacks", func(p *Profile) { line(p, 0).Types[1].MHWMBytes["3"] = 0 }, l0 + "string: mhwm_bytes for p = 3, which the line has none for"},
		{"heap sum", func(p *Profile) { heap(p, 1).Types[2].Bytes = 41 }, "invalid profile: root main.main: heap sample 1: types' bytes sum to 151, bytes is 150"},
		{"heap order", func(p *Profile) {
			ts := heap(p, 1).Types
			ts[1], ts[2] = ts[2], ts[1]
		}, h1 + `"[]byte" after "string": not strictly increasing`},
		{"heap unnamed", func(p *Profile) { heap(p, 0).Types[0].Type = "" }, "invalid profile: root main.main: heap sample 0: types: type 0 has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := typedSample()
			tt.change(p)
			err := p.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v, want nil", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("Validate: %v\nwant %s", err, tt.want)
			}
			var buf bytes.Buffer
			if err := Encode(&buf, p); err != nil {
				t.Fatal(err)
			}
			got, err := Read(&buf)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Read: %v, want %s", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("round trip changed the profile")
			}
		})
	}
}
