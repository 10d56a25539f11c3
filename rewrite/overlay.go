package rewrite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteOverlay writes the instrumented sources into dir and, beside them,
// overlay.json, the go command's -overlay file that replaces each original
// file by its instrumented source; it returns the path of overlay.json.
// The original files are never written. A source goes to a file named by
// its content hash, so two overlays may share dir.
func (r *Result) WriteOverlay(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("write overlay: %w", err)
	}
	type overlay struct {
		Replace map[string]string
	}
	ov := overlay{Replace: map[string]string{}}
	for _, path := range r.Paths() {
		src := r.Files[path].Src
		sum := sha256.Sum256(append([]byte(path+"\x00"), src...))
		name := filepath.Join(dir, hex.EncodeToString(sum[:8])+"_"+filepath.Base(path))
		if err := os.WriteFile(name, src, 0o644); err != nil {
			return "", fmt.Errorf("write overlay: %w", err)
		}
		ov.Replace[path] = name
	}
	data, err := json.MarshalIndent(ov, "", "\t")
	if err != nil {
		return "", fmt.Errorf("write overlay: %w", err)
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", fmt.Errorf("write overlay: %w", err)
	}
	return file, nil
}
