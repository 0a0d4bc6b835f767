// Package repo_test checks properties of the repository as a whole that
// no package's own tests see: the import floor of internal/, the README's
// length, and that every relative link in the README and docs/ resolves.
package repo_test

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

const (
	root   = "../.."
	module = "github.com/cobramcp/cobramcp"
)

// TestInternalIsTheFloor: internal/ is what product packages stand on, so
// no package under it imports a package of this module outside internal/
// (toolset, external, serve, mcpcmd, bridge...). Test-only helpers that
// need those live under test/.
func TestInternalIsTheFloor(t *testing.T) {
	n := 0
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		bp, err := build.Default.ImportDir(dir, 0)
		if _, ok := err.(*build.NoGoError); ok {
			return nil
		}
		if err != nil {
			return err
		}
		n++
		rel, _ := filepath.Rel(root, dir)
		for _, imp := range bp.Imports {
			if strings.HasPrefix(imp, module+"/") && !strings.HasPrefix(imp, module+"/internal/") {
				t.Errorf("%s imports %s: a package under internal/ imports only internal/ packages of this module (test helpers go under test/)", filepath.ToSlash(rel), imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no package found under internal/")
	}
}

// maxREADMEWords bounds the README, the newcomer's document, counted as
// wc -w counts.
const maxREADMEWords = 2000

func TestREADMELength(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n > maxREADMEWords {
		t.Errorf("README.md has %d words (wc -w), more than %d: move reference and measurements to docs/", n, maxREADMEWords)
	}
}

var (
	link    = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	refLink = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s*(\S+)`)
	href    = regexp.MustCompile(`(?:href|src)="([^"]+)"`)
)

// TestLinksResolve: every relative link in README.md and docs/*.md names a
// file or directory of the repository, and an anchor into a Markdown file
// names one of its headings.
func TestLinksResolve(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		for _, target := range links(string(b)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %q: %v", name, target, err)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			d, err := os.ReadFile(dest)
			if err != nil {
				t.Errorf("%s: link %q: %v", name, target, err)
				continue
			}
			if !slices.Contains(anchors(string(d)), anchor) {
				t.Errorf("%s: link %q: no heading of %s has the anchor #%s", name, target, filepath.Base(dest), anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the link pattern is wrong")
	}
}

// links returns the link targets of a Markdown text outside code.
func links(md string) []string {
	var out []string
	for _, block := range prose(md) {
		block = regexp.MustCompile("`[^`\n]*`").ReplaceAllString(block, "")
		for _, re := range []*regexp.Regexp{link, refLink, href} {
			for _, m := range re.FindAllStringSubmatch(block, -1) {
				out = append(out, strings.Trim(m[1], "<>"))
			}
		}
	}
	return out
}

// prose returns the parts of md outside fenced code blocks.
func prose(md string) []string {
	var out []string
	var cur strings.Builder
	fenced := false
	for _, line := range strings.SplitAfter(md, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			if !fenced {
				out = append(out, cur.String())
				cur.Reset()
			}
			fenced = !fenced
			continue
		}
		if !fenced {
			cur.WriteString(line)
		}
	}
	return append(out, cur.String())
}

// anchors returns the anchors GitHub gives the headings of md: lower case,
// punctuation but "-" and "_" dropped, spaces made "-", "-N" added to a
// repeated one.
func anchors(md string) []string {
	seen := map[string]int{}
	var out []string
	for _, block := range prose(md) {
		for _, line := range strings.Split(block, "\n") {
			if !strings.HasPrefix(line, "#") {
				continue
			}
			h := strings.TrimSpace(strings.TrimLeft(line, "#"))
			var b strings.Builder
			for _, r := range strings.ToLower(h) {
				switch {
				case r == ' ':
					b.WriteRune('-')
				case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
					b.WriteRune(r)
				}
			}
			a := b.String()
			if n := seen[a]; n > 0 {
				out = append(out, a+"-"+strconv.Itoa(n))
			} else {
				out = append(out, a)
			}
			seen[a]++
		}
	}
	return out
}

func TestAnchors(t *testing.T) {
	md := "# cobramcp\n## Adopt in one line\n```\n# not a heading\n```\n## HTTP, and policy (v2)\n## Adopt in one line\n"
	want := []string{"cobramcp", "adopt-in-one-line", "http-and-policy-v2", "adopt-in-one-line-1"}
	if got := anchors(md); !slices.Equal(got, want) {
		t.Errorf("anchors = %q, want %q", got, want)
	}
	if got := links("[a](docs/x.md#y) `[b](no.md)` [c](https://e.org)\n```\n[d](no.md)\n```\n"); !slices.Equal(got, []string{"docs/x.md#y", "https://e.org"}) {
		t.Errorf("links = %q", got)
	}
}
