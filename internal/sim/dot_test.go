package sim

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// dotGraph is a small recorded root with every drawing rule in play: the
// root spawns A and B and receives B's item, then waits for both. A
// allocates 64 bytes (site 1), sleeps twice and frees them: three strands
// in a Seq chain, drawn as one node. B allocates 32 bytes (site 2) and
// sends them on an unbuffered channel; the root frees them after its
// Wait.
func dotGraph(t *testing.T) *trace.Graph {
	bd := newBuilder("main")
	bd.g.Sites = map[int32]string{1: "main.go:10", 2: "main.go:20"}
	root := bd.task(-1, 0)
	r0 := bd.strand(root, 1)
	a := bd.task(root, 3)
	a0 := bd.strandAt(a, 1, 5, 64)
	a1 := bd.strand(a, 5)
	a2 := bd.strandAt(a, 1, 0, -64)
	r1 := bd.strand(root, 1)
	b := bd.task(root, 4)
	b0 := bd.strandAt(b, 2, 3, 32)
	b1 := bd.strand(b, 1)
	r2 := bd.strand(root, 1) // ends at the receive
	r3 := bd.strand(root, 1) // after it; ends at the Wait
	r4 := bd.strandAt(root, 2, 0, -32)
	for _, d := range []trace.Dep{
		{From: r0, To: a0, Kind: trace.Spawn}, {From: r0, To: r1, Kind: trace.Cont},
		{From: a0, To: a1, Kind: trace.Seq}, {From: a1, To: a2, Kind: trace.Seq},
		{From: r1, To: b0, Kind: trace.Spawn}, {From: r1, To: r2, Kind: trace.Cont},
		{From: b0, To: b1, Kind: trace.Seq}, {From: b0, To: r3, Kind: trace.Chan}, {From: r2, To: b1, Kind: trace.Chan},
		{From: r2, To: r3, Kind: trace.Seq}, {From: r3, To: r4, Kind: trace.Seq},
		{From: a2, To: r4, Kind: trace.Join}, {From: b1, To: r4, Kind: trace.Join},
	} {
		bd.dep(d.From, d.To, d.Kind)
	}
	return renumber(t, bd.graph(t))
}

// TestWriteDOT compares WriteDOT's output with testdata/dot.golden
// (go test ./sim -run TestWriteDOT -update rewrites it).
func TestWriteDOT(t *testing.T) {
	g := dotGraph(t)
	r, err := Simulate(g, DF, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.PeakBytes != 96 || r.PeakAt != 2 {
		t.Fatalf("peak %d at %d, want 96 at 2", r.PeakBytes, r.PeakAt)
	}
	var buf bytes.Buffer
	if err := WriteDOT(&buf, g, r, DOTOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{"ordering=out", "rankdir=TB", "(3 strands)", "main.go:10: net 0 B, at peak 64 B", "style=dashed", "color=gray60"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	path := filepath.Join("testdata", "dot.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("WriteDOT output differs from %s (run with -update and review the diff):\n%s", path, got)
	}
}

// TestWriteDOTErrors checks the refusals.
func TestWriteDOTErrors(t *testing.T) {
	g := dotGraph(t)
	if err := WriteDOT(new(bytes.Buffer), g, Result{Status: make([]Status, 3)}, DOTOptions{}); err == nil {
		t.Error("a result of another graph was accepted")
	}
	bad := *g
	bad.Deps = append(bad.Deps[:len(bad.Deps):len(bad.Deps)], trace.Dep{From: 5, To: 0, Kind: trace.Chan})
	if err := WriteDOT(new(bytes.Buffer), &bad, Result{}, DOTOptions{}); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("cyclic graph: %v", err)
	}
}
