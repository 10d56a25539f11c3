package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// tiles.json is a real profile of testdata/examples/tiles (spbuild run
// -json), with source_root pointing at a copy of its source:
// MHWM_p = 2 MiB + min(p, 16)·2 MiB (plus a few KiB of runtime).
const tiles = "testdata/tiles.json"

// rerun is the same program run again under a later runtime, with
// intervals: its lines differ from tiles.json's by up to 14.4 KiB of
// runtime jitter (MHWM_64 28.2 KiB lower).
const rerun = "testdata/tiles-rerun.json"

// types is a profile of testdata/examples/types, whose lines are split
// by type.
const types = "../../internal/report/testdata/html/types.json"

// spreport runs the command in-process.
func spreport(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

func TestCommands(t *testing.T) {
	tmp := t.TempDir()
	foreign := filepath.Join(tmp, "foreign.json")
	os.WriteFile(foreign, []byte(`{"nodes": [1, 2]}`), 0o644)
	newer := filepath.Join(tmp, "newer.json")
	os.WriteFile(newer, []byte(`{"schema": "spgo.profile/v2", "roots": []}`), 0o644)
	data, _ := os.ReadFile(tiles)
	truncated := filepath.Join(tmp, "truncated.json")
	os.WriteFile(truncated, data[:len(data)/2], 0o644)
	// A profile from before "attributed" and the split existed.
	var doc map[string]any
	json.Unmarshal(data, &doc)
	for _, r := range doc["roots"].([]any) {
		r := r.(map[string]any)
		delete(r, "attributed")
		for _, l := range r["lines"].([]any) {
			delete(l.(map[string]any), "mhwm_split")
		}
	}
	oldData, _ := json.Marshal(doc)
	old := filepath.Join(tmp, "old.json")
	os.WriteFile(old, oldData, 0o644)
	// The tiles profile with a second root, which a base lacks.
	var twoDoc map[string]any
	json.Unmarshal(data, &twoDoc)
	roots := twoDoc["roots"].([]any)
	var extraRoot map[string]any
	rootData, _ := json.Marshal(roots[0])
	json.Unmarshal(rootData, &extraRoot)
	extraRoot["name"] = "main.extra"
	twoDoc["roots"] = append(roots, extraRoot)
	twoData, _ := json.Marshal(twoDoc)
	twoRoots := filepath.Join(tmp, "tworoots.json")
	os.WriteFile(twoRoots, twoData, 0o644)
	binary := filepath.Join(tmp, "x.pb.gz")
	os.WriteFile(binary, []byte("\x1f\x8b\x08\x00binary"), 0o644)

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings
		stderr string   // substring; the whole of stderr is one line when set
	}{
		{"no args", nil, 2, nil, "usage:"},
		{"unknown", []string{"frob"}, 2, nil, `unknown command "frob"`},
		{"help", []string{"help"}, 0, []string{"spreport show"}, ""},
		{"show", []string{"show", tiles}, 0, []string{
			"spgo: main.main: exact",
			"MHWM  4 MiB  6 MiB  10 MiB  18 MiB  34 MiB  34 MiB  34 MiB",
			"lines in the worst case at p=64 (MHWM_64 = 34 MiB):",
			"main.go:31  main.render     32 MiB",
			"scratch := make([]byte, Scratch)",
		}, ""},
		{"show q", []string{"show", "-q", "2", "-lines", "1", tiles}, 0, []string{"at p=2 (MHWM_2 = 6 MiB)", "… 2 more lines"}, ""},
		{"show p", []string{"show", "-p", "3,5", tiles}, 0, []string{"MHWM  8 MiB  12 MiB"}, ""},
		{"show root", []string{"show", "-root", "main.main", tiles}, 0, []string{"main.main"}, ""},
		{"show bad root", []string{"show", "-root", "TestX", tiles}, 2, nil, `no root "TestX" in the profile; roots: main.main`},
		{"show bad q", []string{"show", "-q", "65", tiles}, 2, nil, "p = 65 is outside the profile (pmax 64)"},
		{"show bad p", []string{"show", "-p", "1,99", tiles}, 2, nil, "p = 99 is outside the profile (pmax 64)"},
		{"old profile", []string{"show", "-q", "16", old}, 0, []string{"main.go:31  main.render     32 MiB"}, ""},
		{"old profile diff", []string{"diff", old, tiles}, 0, []string{"spgo diff:"}, ""},
		{"curve", []string{"curve", tiles}, 0, []string{
			"MHWM_p grows by ≈ 2.0 MiB per processor from p = 1 to 16 (4 MiB → 34 MiB), then stays at 34 MiB up to p = 64",
			"lines that make up the growth from p = 1 to 16 (+30 MiB):",
			"+30 MiB  main.go:31  main.render  2 MiB → 32 MiB  scratch := make([]byte, Scratch)",
		}, ""},
		{"diff qs", []string{"diff", "-qs", "1,16", tiles}, 0, []string{"main.main: 4 MiB → 34 MiB at p=1 → p=16 (+30 MiB"}, ""},
		{"diff same", []string{"diff", "-max-increase", "0%", tiles, tiles}, 0, []string{"no root grew more than 0%"}, ""},
		{"diff gate new root", []string{"diff", "-max-increase", "5%", tiles, twoRoots}, 1, []string{
			"main.extra: new root, MHWM 34 MiB at p=64  FAIL: new root, not in the base: grew from 0, more than 5%",
			"spgo diff: 1 root(s) grew more than 5% (1 of them new: not in the base, so grown from 0)",
		}, ""},
		{"diff gate new root github", []string{"diff", "-max-increase", "5%", "-format", "github", tiles, twoRoots}, 1, []string{"::error title=spgo MHWM gate::main.extra: new root"}, ""},
		{"diff gate new root under size", []string{"diff", "-max-increase", "64MiB", tiles, twoRoots}, 0, []string{"no root grew more than 64 MiB"}, ""},
		{"diff gate removed root", []string{"diff", "-max-increase", "5%", twoRoots, tiles}, 1, []string{"main.extra: root gone (was 34 MiB at p=64)  FAIL: the root is gone from the change (spreport diff -allow-removed passes it)", "spgo diff: 1 root(s) of the base are gone from the change"}, ""},
		{"diff gate removed root allowed", []string{"diff", "-max-increase", "5%", "-allow-removed", twoRoots, tiles}, 0, []string{"main.extra: root gone", "no root grew more than 5%"}, ""},
		{"diff gate on qs", []string{"diff", "-qs", "1,2", "-max-increase", "10%", tiles}, 1, []string{"FAIL: grew more than 10%"}, ""},
		{"diff markdown", []string{"diff", "-format", "markdown", "-qs", "4,8", tiles}, 0, []string{"| `main.main` | 4 → 8 | 10 MiB | 18 MiB | +8 MiB |"}, ""},
		{"diff jitter passes", []string{"diff", "-max-increase", "0%", "-format", "github", rerun, tiles}, 0, []string{
			"(more than 0%, but within the noise floor max(32 KiB, 1%): passes)",
			"… 5 line(s) within the noise floor max(32 KiB, 1%), not listed: net +28.2 KiB",
		}, ""},
		{"diff jitter without a floor", []string{"diff", "-noise", "off", "-max-increase", "0%", "-format", "github", rerun, tiles}, 1, []string{
			"::error file=main.go,line=31,title=spgo MHWM +14.4 KiB::",
			"FAIL: grew more than 0%",
		}, ""},
		{"diff floor below the jitter", []string{"diff", "-noise", "8KiB", "-max-increase", "0%", rerun, tiles}, 1, []string{
			"+14.4 KiB  main.go:31", "+9.9 KiB   main.go:35", "… 3 line(s) within the noise floor 8 KiB",
		}, ""},
		{"diff help", []string{"diff", "-h"}, 0, []string{"-noise string", "Exit status: 0 when no root grew past -max-increase", "1 when one did"}, ""},
		{"diff bad noise", []string{"diff", "-noise", "1%,2%", tiles, tiles}, 2, nil, `-noise: bad noise floor "1%,2%": two percentages`},
		{"diff noise with qs", []string{"diff", "-noise", "1%", "-qs", "1,2", tiles}, 2, nil, "-noise applies to two profiles"},
		{"diff one file", []string{"diff", tiles}, 2, nil, "compare two profiles (base.json change.json), or two processor counts of one with -qs q,q2"},
		{"diff bad format", []string{"diff", "-format", "xml", tiles, tiles}, 2, nil, `-format "xml": want text, markdown or github`},
		{"diff bad limit", []string{"diff", "-max-increase", "lots", tiles, tiles}, 2, nil, `-max-increase: bad limit "lots"`},
		{"diff three files", []string{"diff", tiles, tiles, tiles}, 2, nil, "want 1 to 2 profile files, got 3"},
		{"foreign", []string{"show", foreign}, 2, nil, "not an spgo profile (no \"schema\" field)"},
		{"newer", []string{"show", newer}, 2, nil, `profile schema "spgo.profile/v2" is not supported (this spgo reads spgo.profile/v1; use a newer spgo)`},
		{"truncated", []string{"curve", truncated}, 2, nil, "truncated or corrupt profile"},
		{"binary", []string{"diff", tiles, binary}, 2, nil, "not an spgo profile (not a JSON object)"},
		{"missing", []string{"show", filepath.Join(tmp, "none.json")}, 2, nil, "no such file or directory"},
		{"bad flag", []string{"show", "-frob", tiles}, 2, nil, "flag provided but not defined: -frob"},
		{"html bad by", []string{"html", "-by", "file", tiles}, 2, nil, `-by "file": want line, func or type`},
		{"show by type", []string{"show", "-by", "type", "-p", "4", types}, 0, []string{
			"types in the worst case at p=64 (MHWM_64 = 7.5 MiB):", "*main.block       1 MiB", "[]byte            4 MiB      53.3%",
		}, ""},
		{"show by type, no types", []string{"show", "-by", "type", tiles}, 0, []string{"no figures by type"}, ""},
		{"show bad by", []string{"show", "-by", "func", tiles}, 2, nil, `-by "func": want line or type`},
		{"html by type", []string{"html", "-by", "type", "-o", "-", types}, 0, []string{`<tbody class="typerows">`, "Live bytes by type"}, ""},
		{"pprof bad by", []string{"pprof", "-by", "func", "-o", filepath.Join(tmp, "p.pb.gz"), tiles}, 2, nil, `-by "func": want line or type`},
		{"pprof bad q", []string{"pprof", "-o", filepath.Join(tmp, "p.pb.gz"), "-q", "0", tiles}, 2, nil, `-q "0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := spreport(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if tt.stderr != "" {
				if !strings.Contains(stderr, tt.stderr) {
					t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr)
				}
				if tt.code == 2 && tt.args != nil && strings.Count(strings.TrimSpace(stderr), "\n") > 0 && !strings.Contains(stderr, "usage") {
					t.Errorf("stderr is more than one line:\n%s", stderr)
				}
			} else if stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
		})
	}
}

func TestFiles(t *testing.T) {
	tmp := t.TempDir()
	page := filepath.Join(tmp, "r.html")
	if _, stderr, code := spreport("html", "-o", page, "-qs", "1,16", tiles); code != 0 {
		t.Fatalf("html: exit %d: %s", code, stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<svg", "main.render", "scratch := make([]byte, Scratch)"} {
		if !bytes.Contains(html, []byte(w)) {
			t.Errorf("the page lacks %q", w)
		}
	}

	pb := filepath.Join(tmp, "p.pb.gz")
	if _, stderr, code := spreport("pprof", "-o", pb, "-q", "1,16", tiles); code != 0 {
		t.Fatalf("pprof: exit %d: %s", code, stderr)
	}
	f, err := os.Open(pb)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pp, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, st := range pp.SampleType {
		types = append(types, st.Type)
	}
	if got := strings.Join(types, " "); got != "mhwm_1 mhwm_16 alloc_space alloc_objects" {
		t.Errorf("sample types %s", got)
	}
	sum := int64(0)
	for _, s := range pp.Sample {
		sum += s.Value[1]
	}
	var prof struct {
		Roots []struct {
			MHWM []struct{ Bytes int64 } `json:"mhwm"`
		} `json:"roots"`
	}
	data, _ := os.ReadFile(tiles)
	if err := json.Unmarshal(data, &prof); err != nil {
		t.Fatal(err)
	}
	if want := prof.Roots[0].MHWM[15].Bytes; sum != want {
		t.Errorf("mhwm_16 samples sum to %d, want MHWM_16 = %d", sum, want)
	}

	// Standard output with -o -.
	stdout, _, code := spreport("pprof", "-o", "-", tiles)
	if code != 0 || !strings.HasPrefix(stdout, "\x1f\x8b") {
		t.Errorf("pprof -o -: exit %d, %d bytes not gzip", code, len(stdout))
	}
}

// TestDiffJitter: two runs of one program that differ only by runtime
// jitter give no GitHub annotation at all under the default floor,
// whatever the gate's limit; the gate still fails on real growth.
func TestDiffJitter(t *testing.T) {
	for _, limit := range []string{"0%", "0B", "5%"} {
		stdout, stderr, code := spreport("diff", "-max-increase", limit, "-format", "github", rerun, tiles)
		if code != 0 || strings.Contains(stdout, "::warning") || strings.Contains(stdout, "::error") || strings.Contains(stdout, "::notice") {
			t.Errorf("-max-increase %s: exit %d, annotations:\n%s%s", limit, code, stdout, stderr)
		}
	}
	if _, _, code := spreport("diff", "-max-increase", "0%", "-qs", "1,2", tiles); code != 1 {
		t.Errorf("growth from p=1 to 2 passes the gate: exit %d", code)
	}
}

// TestHTMLOwnInput: html -o naming the profile it reads (or its -diff
// baseline) is refused, and the profile stays as it was.
func TestHTMLOwnInput(t *testing.T) {
	data, err := os.ReadFile(tiles)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "p.json")
	base := filepath.Join(dir, "base.json")
	os.WriteFile(p, data, 0o644)
	os.WriteFile(base, data, 0o644)
	for _, args := range [][]string{
		{"html", "-o", p, p},
		{"html", "-o", base, "-diff", base, p},
	} {
		if _, stderr, code := spreport(args...); code != 2 || !strings.Contains(stderr, "would overwrite") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	for _, f := range []string{p, base} {
		if got, _ := os.ReadFile(f); !bytes.Equal(got, data) {
			t.Errorf("%s changed", f)
		}
	}
}
