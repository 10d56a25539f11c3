package doccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the module's root, two levels up.
const root = "../.."

// sources returns the Go and Markdown files of the module, by path
// relative to root, with their text; nested modules' vendor directories
// and .git are skipped.
func sources(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "vendor" {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatalf("walk the module: %v", err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d Go and Markdown files under %s", len(files), root)
	}
	return files
}

// headings returns the titles of page's Markdown headings.
func headings(page string) map[string]bool {
	hs := map[string]bool{}
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "#") {
			hs[strings.TrimSpace(strings.TrimLeft(line, "#"))] = true
		}
	}
	return hs
}

var (
	// commentStart is what continues a comment on the next line.
	commentStart = regexp.MustCompile(`\n[ \t]*(//)?[ \t]*`)
	// citation is a docs/ page, optionally followed by a quoted section.
	citation = regexp.MustCompile("docs/([a-z0-9-]+\\.md)`?(?:'s)?(?:, (?:section )?\"([^\"]+)\")?")
	// outside are citations of documents that are not in the repository.
	outside = regexp.MustCompile(`\.\./shared|mhwm-spec|DESIGN\.md|§`)
)

// TestCitations checks every docs/ citation and that none leads outside.
func TestCitations(t *testing.T) {
	files := sources(t)
	pages := map[string]map[string]bool{}
	for path, text := range files {
		if strings.HasPrefix(path, "docs/") && !strings.Contains(path[len("docs/"):], "/") {
			pages[strings.TrimPrefix(path, "docs/")] = headings(text)
		}
	}
	if len(pages) == 0 {
		t.Fatal("no pages in docs/")
	}
	checked := 0
	for path, text := range files {
		if path == "internal/doccheck/doccheck_test.go" {
			continue // its patterns name what they look for
		}
		if m := outside.FindString(text); m != "" {
			t.Errorf("%s cites %q, outside the repository: cite a docs/ page", path, m)
		}
		flat := commentStart.ReplaceAllString(text, " ")
		for _, m := range citation.FindAllStringSubmatch(flat, -1) {
			page, section := m[1], m[2]
			hs, ok := pages[page]
			switch {
			case !ok:
				t.Errorf("%s cites docs/%s, which does not exist", path, page)
			case section != "" && !hs[section]:
				t.Errorf("%s cites docs/%s, %q: the page has no such heading", path, page, section)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("found only %d docs/ citations: is the pattern still right?", checked)
	}
}
