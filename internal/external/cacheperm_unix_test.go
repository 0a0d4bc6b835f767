//go:build unix

package external_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/external"
)

// TestCachePermissions: a cache directory or entry that another user
// could have written is refused with the fix, as ssh refuses such a
// ~/.ssh; one of the user's own, mode 0700, is used.
func TestCachePermissions(t *testing.T) {
	bin := fixture(t, "testdata/traverse")
	load := func(dir string) (*external.Result, error) {
		return external.Load(context.Background(), bin, &external.Options{CacheDir: dir})
	}
	refused := func(t *testing.T, err error, path string, words ...string) {
		t.Helper()
		var ce *external.CacheError
		if !errors.As(err, &ce) || ce.Path != path {
			t.Fatalf("err = %v; want a *CacheError for %s", err, path)
		}
		for _, w := range append(words, "--cache-dir") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("err = %v; want %q in it", err, w)
			}
		}
	}
	t.Run("writable by others", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		_, err := load(dir)
		refused(t, err, dir, "writable by its group or by others (mode 0777)", `chmod go-w "`+dir+`"`)
	})
	t.Run("owned by another user", func(t *testing.T) {
		dir := t.TempDir()
		if os.Getuid() == 0 {
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		} else {
			dir = "/" // root's, not the user's
		}
		_, err := load(dir)
		refused(t, err, dir, "is owned by ", "chown -R")
	})
	t.Run("the user's own, then an entry writable by the group", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := load(dir); err != nil {
			t.Fatal(err)
		}
		r, err := load(dir)
		if err != nil || !r.Cached {
			t.Fatalf("warm load: %v", err)
		}
		entries, err := filepath.Glob(filepath.Join(dir, "traverse-*.json"))
		if err != nil || len(entries) != 1 {
			t.Fatalf("entries: %q, %v", entries, err)
		}
		if err := os.Chmod(entries[0], 0o664); err != nil {
			t.Fatal(err)
		}
		_, err = load(dir)
		refused(t, err, entries[0], "cache file is writable by its group or by others (mode 0664)", "chmod go-w")
	})
}
