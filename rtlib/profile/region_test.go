package profile

import "testing"

// TestValidateRegions breaks a root's regions one rule at a time
// (validateRegions).
func TestValidateRegions(t *testing.T) {
	ok := func() []Region {
		return []Region{
			{Site: "", Instances: 1, Outermost: 1, WorkStrands: 26, SpanStrands: 10, WorkWallNS: 2060, SpanWallNS: 550},
			{Site: "main.go:7", Instances: 4, Outermost: 4, WorkStrands: 20, SpanStrands: 20, WorkWallNS: 2000, SpanWallNS: 2000},
			{Site: "rec.go:9", Instances: 3, Outermost: 1, WorkStrands: 3, SpanStrands: 3},
		}
	}
	const r0 = "invalid profile: root main.main: "
	tests := []struct {
		name   string
		change func(rs []Region) []Region
		want   string
	}{
		{"as is", func(rs []Region) []Region { return rs }, ""},
		{"none", func(rs []Region) []Region { return nil }, ""},
		{"no root entry", func(rs []Region) []Region { return rs[1:] }, ""},
		{"root not first", func(rs []Region) []Region { rs[0], rs[1] = rs[1], rs[0]; return rs }, r0 + "the root's region is not listed first"},
		{"site twice", func(rs []Region) []Region { rs[2].Site = "main.go:7"; return rs }, r0 + "region main.go:7 listed twice"},
		{"no outermost", func(rs []Region) []Region { rs[1].Outermost = 0; return rs }, r0 + "region main.go:7: outermost 0 outside 1..instances 4"},
		{"outermost above instances", func(rs []Region) []Region { rs[2].Outermost = 4; return rs }, r0 + "region rec.go:9: outermost 4 outside 1..instances 3"},
		{"span above work", func(rs []Region) []Region { rs[0].SpanStrands = 27; return rs }, r0 + "the root's region: span_strands 27 outside outermost 1..work_strands 26"},
		{"span below outermost", func(rs []Region) []Region { rs[1].SpanStrands = 3; return rs }, r0 + "region main.go:7: span_strands 3 outside outermost 4..work_strands 20"},
		{"wall span above work", func(rs []Region) []Region { rs[1].SpanWallNS = 2001; return rs }, r0 + "region main.go:7: span_wall_ns 2001 outside 0..work_wall_ns 2000"},
		{"wall span negative", func(rs []Region) []Region { rs[0].SpanWallNS = -1; return rs }, r0 + "the root's region: span_wall_ns -1 outside 0..work_wall_ns 2060"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := richSample()
			p.Roots[0].Regions = tt.change(ok())
			err := p.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Fatalf("Validate: %v\nwant %q", err, tt.want)
			}
		})
	}
}
