package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample() *Profile {
	return &Profile{
		Schema: Schema, Program: "tiles", PMax: 3,
		Census: Census{Policy: "hooks+gc-census", ErrorBound: 0.05},
		Roots: []Root{{
			Name: "main", Exact: true,
			MHWM:       []Point{{P: 1, Bytes: 100}, {P: 2, Bytes: 150}, {P: 3, Bytes: 150}},
			SerialPeak: 60, Work: 10, Span: 4, Strands: 7, Spawns: 3,
			Lines: []Line{{File: "/m/main.go", Line: 12, Func: "main.tile", AllocBytes: 300, Allocs: 3,
				MHWMBytes: map[string]int64{"1": 100, "2": 150, "3": 150}}},
			Attributed: []int{1, 2, 3},
			Antichain:  &Antichain{P: 3, Bytes: 150, Running: 100, Completed: 50},
		}},
	}
}

// TestUpgrade: a profile written before "attributed" existed gets it from
// its lines' keys when they sum to MHWM exactly, and per-line figures
// then read as before; inconsistent ones are left without.
func TestUpgrade(t *testing.T) {
	old := sample()
	old.Roots[0].Attributed = nil
	var buf bytes.Buffer
	if err := Encode(&buf, old); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	r := &got.Roots[0]
	if fmt.Sprint(r.Attributed) != "[1 2 3]" {
		t.Errorf("attributed %v, want [1 2 3]", r.Attributed)
	}
	if b, _, ok := r.LineMHWM(&r.Lines[0], 2); !ok || b != 150 {
		t.Errorf("line share at p=2: %d %v", b, ok)
	}
	bad := sample()
	bad.Roots[0].Attributed = nil
	bad.Roots[0].Lines[0].MHWMBytes["2"] = 149
	buf.Reset()
	Encode(&buf, bad)
	if got, err := Read(&buf); err != nil || got.Roots[0].Attributed != nil {
		t.Errorf("inconsistent old profile: %v, attributed %v", err, got.Roots[0].Attributed)
	}
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sample()) {
		t.Errorf("round trip changed the profile:\n%+v\n%+v", got, sample())
	}
	var again bytes.Buffer
	Encode(&again, got)
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("encoding is not deterministic")
	}
	for _, field := range []string{`"schema"`, `"roots"`, `"name"`, `"exact"`, `"mhwm"`, `"p"`, `"bytes"`, `"lines"`, `"file"`, `"line"`, `"func"`, `"alloc_bytes"`, `"allocs"`, `"mhwm_bytes"`} {
		if !strings.Contains(buf.String(), field) {
			t.Errorf("encoding lacks the fixed field %s", field)
		}
	}
}

func TestReadRejects(t *testing.T) {
	var valid bytes.Buffer
	Encode(&valid, sample())
	decreasing := sample()
	decreasing.Roots[0].MHWM[2].Bytes = 90
	var dec bytes.Buffer
	Encode(&dec, decreasing)
	badKey := sample()
	badKey.Roots[0].Lines[0].MHWMBytes["9"] = 1
	var bk bytes.Buffer
	Encode(&bk, badKey)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty file"},
		{"text", "hello", "not a JSON object"},
		{"array", "[1,2]", "not a JSON object"},
		{"foreign", `{"traceEvents": []}`, `no "schema" field`},
		{"other schema", `{"schema": "pprof"}`, `not an spgo profile (schema "pprof")`},
		{"newer", `{"schema": "spgo.profile/v2", "roots": []}`, "not supported"},
		{"decreasing", dec.String(), "below MHWM_2"},
		{"bad p key", bk.String(), `figures for p = "9"`},
		{"wrong type", `{"schema": "spgo.profile/v1", "pmax": "many"}`, "corrupt profile"},
	}
	for _, n := range []int{1, 10, valid.Len() / 2, valid.Len() - 3} {
		tests = append(tests, struct{ name, in, want string }{"truncated", valid.String()[:n], "truncated or corrupt"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FormatError", err)
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "spgo-profile.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, sample()); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm()&0o044 != 0o044 {
		t.Errorf("profile not readable by others: %v %v", st.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// A directory that does not exist: an error, nothing written.
	if err := WriteFile(filepath.Join(dir, "no", "such.json"), sample()); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// TestWriteFileKilled kills a process that keeps rewriting a large profile
// (SIGKILL, at varying moments) and checks that the file it leaves is
// either absent or a whole, valid profile: never half written. Hidden
// temporary files may stay behind; they are never the profile's name.
func TestWriteFileKilled(t *testing.T) {
	if path := os.Getenv("SPGO_TEST_KILLED_WRITER"); path != "" {
		p := sample()
		line := p.Roots[0].Lines[0]
		line.MHWMBytes = nil // the lines must still sum to MHWM
		for i := range 20000 {
			line.Line = i + 1
			p.Roots[0].Lines = append(p.Roots[0].Lines, line)
		}
		for {
			if err := WriteFile(path, p); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	if testing.Short() {
		t.Skip("kills subprocesses")
	}
	for i := range 8 {
		path := filepath.Join(t.TempDir(), "spgo-profile.json")
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFileKilled$")
		cmd.Env = append(os.Environ(), "SPGO_TEST_KILLED_WRITER="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(50+i*37) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		if strings.Contains(stderr.String(), "write profile") {
			t.Fatalf("writer failed: %s", stderr.String())
		}
		if _, err := ReadFile(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("kill %d: the profile left behind does not read: %v", i, err)
		}
	}
}
