package profile

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestEncodeParts: a profile written from roots encoded one by one is
// the profile Encode writes, byte for byte, for every profile of
// testdata, with none, one or all of its roots.
func TestEncodeParts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata profiles: %v", err)
	}
	for _, f := range files {
		p, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all := p.Roots
		for _, n := range []int{0, 1, len(all)} {
			p.Roots = all[:min(n, len(all))]
			var want, got bytes.Buffer
			if err := Encode(&want, p); err != nil {
				t.Fatal(err)
			}
			var parts [][]byte
			for i := range p.Roots {
				b, err := EncodeRoot(&p.Roots[i])
				if err != nil {
					t.Fatal(err)
				}
				parts = append(parts, b)
			}
			if err := EncodeParts(&got, p, parts); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s, %d roots: EncodeParts differs from Encode:\n%s\nwant\n%s", f, len(p.Roots), got.Bytes(), want.Bytes())
			}
		}
		p.Roots = all
	}
}
