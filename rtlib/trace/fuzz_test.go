package trace

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzRead checks that Read never panics, that what it refuses gets a
// one-line *FormatError, and that what it accepts survives Writer and Read
// unchanged. Seeds: a graph written by a Writer, truncations of it, and
// foreign or damaged files.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteGraph(sampleGraph())
	g2 := sampleGraph()
	g2.Name = "TestX\t\"q\""
	g2.Sites[3] = "x.go:7"
	w.WriteGraph(g2)
	w.Close()
	data := buf.Bytes()
	f.Add(data)
	for _, n := range []int{1, 14, len(data) / 3, len(data) / 2, len(data) - 5} {
		f.Add(data[:n])
	}
	f.Add([]byte(docExample))
	f.Add([]byte(pipelineTrace))
	f.Add([]byte("spgo.trace/v1\nroot \"r\"\ntask 0 -1 0\nstrand 0 0 0 3 3 1:3:3\nmore 2:0:0\nend\n"))
	f.Add([]byte("spgo.trace/v1\nroot \"r\"\ntask 0 -1 0\nstrand 0 0 0 0 0\nstrand 1 0 0 0 0\ndep 1 0 seq\ndep 0 1 chan\nend\n"))
	f.Add([]byte("spgo.trace/v2\n"))
	f.Add([]byte("{\"schema\":\"spgo.profile/v1\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		gs, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("not a FormatError: %T %v", err, err)
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		var out bytes.Buffer
		w := NewWriter(&out)
		for _, g := range gs {
			if err := g.Validate(); err != nil {
				t.Fatalf("Read accepted an invalid graph: %v", err)
			}
			if err := w.WriteGraph(g); err != nil {
				t.Fatalf("Writer refused what Read accepted: %v", err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&out)
		if err != nil {
			t.Fatalf("Read refused what Writer wrote: %v\n%s", err, out.String())
		}
		for _, g := range gs { // written as placed and merged
			g.Censuses, g.Frees = nil, nil
		}
		if !reflect.DeepEqual(back, gs) {
			t.Fatalf("round trip changed the graphs:\n%+v\n%+v", gs, back)
		}
	})
}
