package external

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// A CacheError refuses a cache directory or entry that another user could
// have written: owned by another user, or writable by its group or by
// others (as ssh refuses such a ~/.ssh). Fix says how to mend it.
type CacheError struct {
	Path    string
	Problem string
	Fix     string
}

func (e *CacheError) Error() string {
	return fmt.Sprintf("reflection cache %s: %s: not used; fix it with %s", e.Path, e.Problem, e.Fix)
}

// cachePath returns the cache file of the binary at path, after checking
// that the directories that hold it (those of cobramcp's own below the
// user's cache directory, or dir) and the file, where they exist, can be
// written by the user alone (a *CacheError otherwise).
func cachePath(dir, path, name string) (string, error) {
	dirs := []string{dir}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("user cache directory: %w", err)
		}
		dir = filepath.Join(base, "cobramcp", "external")
		dirs = []string{filepath.Join(base, "cobramcp"), dir}
	}
	for _, d := range dirs {
		if err := checkCachePath(d, true); err != nil {
			return "", err
		}
	}
	sum := sha256.Sum256([]byte(path + "\x00" + name))
	file := filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:8])+".json")
	if err := checkCachePath(file, false); err != nil {
		return "", err
	}
	return file, nil
}

// readCache returns the cached spec of the binary at path, and whether it
// describes the binary as it is now (fresh): same path, size,
// modification time, Go build info (main module and version, cobra's and
// pflag's versions), and (when cobra's --version flag gave one) version.
// A spec that is not fresh describes the binary as it was before it
// changed; nil when there is no readable entry for path.
func readCache(ctx context.Context, file, path, name string, o *Options) (spec *Spec, fresh bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil || s.Root == nil {
		o.Logger.Info("cache entry unreadable, reflecting again", "path", file)
		return nil, false
	}
	if s.Format != specFormat {
		// Written by another version of cobramcp: what it found still
		// describes the binary, well enough to serve once.
		o.Logger.Info("cache entry written by another version of cobramcp", "path", file)
		s.Format = specFormat
		return &s, false
	}
	st, err := os.Stat(path)
	if err != nil || s.Binary != path || s.Size != st.Size() || !s.ModTime.Equal(st.ModTime()) {
		o.Logger.Info("binary changed since it was cached", "binary", path, "cached", s.describe())
		return &s, false
	}
	if !s.Build.equal(readBuildInfo(path)) {
		// Another build (main module, its version, cobra's or pflag's)
		// at the same path, size and modification time.
		o.Logger.Info("build info changed since it was cached", "binary", path)
		return &s, false
	}
	if s.VersionFlag {
		// cobra prints "ROOT version X", ROOT the root command's name.
		d := newDiscoverer(path, s.Root.Name, o, 1)
		res, err := d.run(ctx, "--version")
		if err != nil || res.ExitCode != 0 || versionOf(res.Stdout, s.Root.Name) != s.Version {
			o.Logger.Info("version changed since it was cached", "binary", path)
			return &s, false
		}
	}
	return &s, true
}

// writeCache stores spec atomically (a temporary file renamed over the
// entry), readable by the user only.
func writeCache(file string, spec *Spec) error {
	b, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
