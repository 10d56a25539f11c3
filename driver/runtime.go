package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	spgo "github.com/spgo/spgo"
)

// RuntimeModule is the module path of the injected runtime.
const RuntimeModule = "github.com/spgo/spgo"

// runtimeVersion is the version the generated go.mod requires; a replace
// directive points it at the extracted source.
const runtimeVersion = "v0.0.0-00010101000000-000000000000"

// runtimeLang is the language version rtlib's own files are compiled
// with, whatever the go line of the user's module: each extracted file
// gets a //go:build go1.25 constraint, which sets its version.
const runtimeLang = "go1.25"

// extractRuntime writes the embedded runtime source (test files left out)
// as a module under cacheDir whose go line is goLine (the user's, so that
// requiring it does not force an update of the user's go line and with it
// the language semantics of the user's code). It returns the module's
// directory; an existing, complete extraction is reused.
func extractRuntime(cacheDir, goLine string) (string, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(spgo.Runtime, "rtlib", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
			return err
		}
		src, err := spgo.Runtime.ReadFile(p)
		if err != nil {
			return err
		}
		files[p] = withLangConstraint(src)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("runtime source: %w", err)
	}
	files["go.mod"] = []byte("module " + RuntimeModule + "\n\ngo " + goLine + "\n")
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	dir := filepath.Join(cacheDir, "rtlib-"+hex.EncodeToString(h.Sum(nil)[:10]))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(cacheDir, ".rtlib-*")
	if err != nil {
		return "", fmt.Errorf("extract runtime: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("extract runtime: %w", err)
		}
		if err := os.WriteFile(p, files[name], 0o444); err != nil {
			return "", fmt.Errorf("extract runtime: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			return dir, nil // another spbuild extracted it meanwhile
		}
		return "", fmt.Errorf("extract runtime: %w", err)
	}
	return dir, nil
}

// withLangConstraint adds go1.25 to the file's build constraint, or gives
// it one.
func withLangConstraint(src []byte) []byte {
	const tag = "//go:build "
	if bytes.HasPrefix(src, []byte(tag)) {
		end := bytes.IndexByte(src, '\n')
		expr := strings.TrimSpace(string(src[len(tag):end]))
		return append([]byte(tag+runtimeLang+" && ("+expr+")"), src[end:]...)
	}
	return append([]byte(tag+runtimeLang+"\n\n"), src...)
}

// runtimeImport is the import path prefix of the runtime's packages.
var runtimeImport = path.Join(RuntimeModule, "rtlib")
