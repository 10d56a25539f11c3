package escape

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// The compiler's optimisation log (-json=0,dir) is what attributes a copy
// of a site inlined into another function to the site: -m reports the copy
// only at the outermost call. The format is described in
// cmd/compile/internal/logopt/log_opts.go (version 0, LSP 3.15
// diagnostics); gopls reads the same files. For each package compiled the
// compiler writes dir/<escaped import path>/<file base name>.json: a
// header record, then one record per diagnostic, whose range is the
// outermost position and whose relatedInformation begins with the
// inlining chain, from the second outermost position to the innermost,
// each with the message "inlineLoc".
//
// The log records only escapes (codes "escape" and "escapes"): for every
// escaping value one entry with an empty message, for every escaping
// value or variable one or more "X escapes to heap" explanations.

// logRecord is the union of the header and diagnostic records.
type logRecord struct {
	Version *int   `json:"version"`
	File    string `json:"file"`
	Range   *struct {
		Start logPosition `json:"start"`
	} `json:"range"`
	Code               string `json:"code"`
	Message            string `json:"message"`
	RelatedInformation []struct {
		Location struct {
			URI   string `json:"uri"`
			Range struct {
				Start logPosition `json:"start"`
			} `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

// logPosition is 1-based, like the compiler's -m output.
type logPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// logs is what readLogs finds.
type logs struct {
	// escapes holds the outermost positions of all escape records.
	escapes map[position]bool
	// inlined holds the escaping copies of sites inlined elsewhere, as
	// sites at their innermost position.
	inlined []Site
}

// copyKey identifies one inlined copy: its outermost position and chain.
type copyKey struct {
	outer position
	chain string
}

// copyInfo is what the records of one inlined copy say.
type copyInfo struct {
	origin position
	expr   string
	value  bool // an entry with an empty message: a value, not a variable
}

// readLogs reads the optimisation logs written under root.
func readLogs(root string) (*logs, error) {
	found := &logs{escapes: make(map[position]bool)}
	copies := make(map[copyKey]*copyInfo)
	var order []copyKey
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		return readLog(path, func(outer position, rec *logRecord) error {
			found.escapes[outer] = true
			var chain []string
			var origin position
			for _, rel := range rec.RelatedInformation {
				if rel.Message != "inlineLoc" {
					break // the explanation follows the site's own chain
				}
				file, err := uriPath(rel.Location.URI)
				if err != nil {
					return err
				}
				origin = position{file, rel.Location.Range.Start.Line, rel.Location.Range.Start.Character}
				chain = append(chain, fmt.Sprint(origin))
			}
			if len(chain) == 0 {
				return nil // not inlined: -m reports it at its own position
			}
			key := copyKey{outer, strings.Join(chain, " ")}
			c := copies[key]
			if c == nil {
				c = &copyInfo{origin: origin}
				copies[key] = c
				order = append(order, key)
			}
			if rec.Message == "" {
				c.value = true
			} else if x, ok := strings.CutSuffix(rec.Message, " escapes to heap"); ok && (c.expr == "" || x < c.expr) {
				c.expr = x
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the compiler's -json log: %w", err)
	}
	for _, key := range order {
		c := copies[key]
		site := Site{File: c.origin.file, Line: c.origin.line, Col: c.origin.col, Expr: c.expr, Kind: Moved, Inlined: true}
		if c.value {
			site.Kind = Heap
		}
		found.inlined = append(found.inlined, site)
	}
	return found, nil
}

// readLog calls escape for each escape record of one log file, with the
// record's outermost position.
func readLog(path string, escape func(position, *logRecord) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var file string
	for first := true; ; first = false {
		var rec logRecord
		if err := dec.Decode(&rec); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if first {
			if rec.Version == nil || *rec.Version != 0 {
				return fmt.Errorf("%s: not a version 0 log header", path)
			}
			file = rec.File
			if filepath.IsAbs(file) {
				file = filepath.Clean(file)
			}
			continue
		}
		if rec.Range == nil || (rec.Code != "escape" && rec.Code != "escapes") {
			continue
		}
		outer := position{file, rec.Range.Start.Line, rec.Range.Start.Character}
		if err := escape(outer, &rec); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

// uriPath converts a file:// URI of the log to a path.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("unexpected location %q", uri)
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // /C:/dir/file.go
		p = p[1:]
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// logFlag returns the compiler flag that writes the log to dir.
func logFlag(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/dir
	}
	return "-json=0," + (&url.URL{Scheme: "file", Path: p}).String()
}
