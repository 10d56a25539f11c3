package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Encode writes p as indented JSON. The encoding is deterministic: maps
// are written with sorted keys.
func Encode(w io.Writer, p *Profile) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("encode profile: %w", err)
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// WriteFile writes p to path atomically: into a temporary file in the
// same directory, synced, then renamed over path, so that a reader (or a
// run killed half way) never sees a half-written profile.
func WriteFile(path string, p *Profile) (err error) {
	var buf bytes.Buffer
	if err := Encode(&buf, p); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes it 0600
		return fmt.Errorf("write profile: %w", err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	return nil
}

// FormatError is a file that is not a valid spgo.profile/v1 profile.
type FormatError struct {
	Reason string
}

func (e *FormatError) Error() string { return e.Reason }

// ReadFile reads and validates the profile at path.
func ReadFile(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Read decodes and validates a profile. A file that is not JSON, not an
// spgo profile, of another schema version, truncated, or inconsistent
// gets a *FormatError saying which in one line.
func Read(r io.Reader) (*Profile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &FormatError{"empty file, not an spgo profile"}
	}
	if trimmed[0] != '{' {
		return nil, &FormatError{"not an spgo profile (not a JSON object)"}
	}
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(trimmed, &head); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || strings.Contains(err.Error(), "unexpected end") {
			return nil, &FormatError{fmt.Sprintf("truncated or corrupt profile: %v", err)}
		}
		return nil, &FormatError{fmt.Sprintf("not an spgo profile: %v", err)}
	}
	switch {
	case head.Schema == nil:
		return nil, &FormatError{"not an spgo profile (no \"schema\" field)"}
	case *head.Schema == Schema:
	case strings.HasPrefix(*head.Schema, "spgo.profile/"):
		return nil, &FormatError{fmt.Sprintf("profile schema %q is not supported (this spgo reads %s; use a newer spgo)", *head.Schema, Schema)}
	default:
		return nil, &FormatError{fmt.Sprintf("not an spgo profile (schema %q)", *head.Schema)}
	}
	var p Profile
	if err := json.Unmarshal(trimmed, &p); err != nil {
		return nil, &FormatError{fmt.Sprintf("corrupt profile: %v", err)}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// Validate checks p's invariants: MHWM_p listed for p = 1 … PMax in
// order, never decreasing in p and never below zero; per-line figures
// keyed by processor counts within range.
func (p *Profile) Validate() error {
	bad := func(format string, args ...any) error {
		return &FormatError{"invalid profile: " + fmt.Sprintf(format, args...)}
	}
	if p.PMax < 1 {
		return bad("pmax %d < 1", p.PMax)
	}
	for i := range p.Roots {
		r := &p.Roots[i]
		if r.Name == "" {
			return bad("root %d has no name", i)
		}
		if len(r.MHWM) != 0 && len(r.MHWM) != p.PMax {
			return bad("root %s: %d MHWM figures for pmax %d", r.Name, len(r.MHWM), p.PMax)
		}
		for j, pt := range r.MHWM {
			if pt.P != j+1 {
				return bad("root %s: MHWM figure %d is for p = %d", r.Name, j, pt.P)
			}
			if pt.Bytes < 0 || j > 0 && pt.Bytes < r.MHWM[j-1].Bytes {
				return bad("root %s: MHWM_%d = %d is below MHWM_%d", r.Name, pt.P, pt.Bytes, j)
			}
		}
		for _, l := range r.Lines {
			for k := range l.MHWMBytes {
				q, err := strconv.Atoi(k)
				if err != nil || q < 1 || q > p.PMax {
					return bad("root %s: %s:%d has figures for p = %q", r.Name, l.File, l.Line, k)
				}
			}
		}
	}
	return nil
}
