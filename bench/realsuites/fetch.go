package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
	"golang.org/x/mod/modfile"
)

// workspace is a module's writable copy outside the module cache, and
// what preparing it found.
type workspace struct {
	Dir    string   // the copy, where the suites run
	GoLine string   // the go line of its go.mod, "" if it has none
	Notes  []string // what was done to make it usable, or is unusual
}

// fetch downloads m through the module proxy into the module cache (the
// go command's, shared), copies it to a fresh directory under
// scratch/src, and makes sure its packages and tests resolve with
// go.mod as published: where go.sum lacks entries it runs go mod
// download, which adds them and leaves go.mod alone. It never adds a go
// line or a requirement: a change to go.mod could change the language
// the module is compiled as.
func fetch(m module, scratch string, env []string) (*workspace, error) {
	out, err := goCmd(scratch, env, "mod", "download", "-json", m.Path+"@"+m.Version)
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || err != nil {
		return nil, fmt.Errorf("go mod download %s@%s: %v %s\n%s", m.Path, m.Version, err, info.Error, out)
	}
	dst := filepath.Join(scratch, "src", strings.ReplaceAll(m.Path, "/", "_")+"@"+m.Version)
	if err := os.RemoveAll(dst); err != nil {
		return nil, fmt.Errorf("clearing %s: %w", dst, err)
	}
	if err := harness.CopyTree(info.Dir, dst); err != nil {
		return nil, fmt.Errorf("copying %s out of the module cache: %w", info.Dir, err)
	}
	w := &workspace{Dir: dst}
	data, err := os.ReadFile(filepath.Join(dst, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", m.Path, m.Version, err)
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: go.mod: %w", m.Path, m.Version, err)
	}
	if f.Go != nil {
		w.GoLine = f.Go.Version
	} else {
		w.Notes = append(w.Notes, "no go line in go.mod (the go command reads go 1.16); left as published")
	}
	sum, _ := os.ReadFile(filepath.Join(dst, "go.sum"))
	if _, err := goCmd(dst, env, "list", "-deps", "-test", "./..."); err != nil {
		if out, err := goCmd(dst, env, "mod", "download"); err != nil {
			return nil, fmt.Errorf("%s@%s: go mod download: %v\n%s", m.Path, m.Version, err, out)
		}
		if out, err := goCmd(dst, env, "list", "-deps", "-test", "./..."); err != nil {
			return nil, fmt.Errorf("%s@%s: its packages do not resolve with go.mod as published: %v\n%s", m.Path, m.Version, err, out)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dst, "go.sum")); !bytes.Equal(now, sum) {
		w.Notes = append(w.Notes, "go.sum completed by go mod download")
	}
	if now, _ := os.ReadFile(filepath.Join(dst, "go.mod")); !bytes.Equal(now, data) {
		return nil, fmt.Errorf("%s@%s: the go command changed go.mod", m.Path, m.Version)
	}
	return w, nil
}

// goCmd runs the go command in dir with env and returns its combined
// output.
func goCmd(dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
}
