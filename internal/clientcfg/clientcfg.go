package clientcfg

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Format is the syntax of a configuration file.
type Format int

const (
	// JSON is JSON with comments and trailing commas (JWCC, as VS Code
	// writes it); plain JSON is a subset.
	JSON Format = iota
	// TOML is TOML v1.0, as Codex CLI reads it.
	TOML
)

// String returns "JSON" or "TOML".
func (f Format) String() string {
	if f == TOML {
		return "TOML"
	}
	return "JSON"
}

// Server is one stdio MCP server entry. Written entries hold Type (when the
// client wants it), Command, Args and Env; URL is only filled when reading
// an entry for a remote server.
type Server struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
}

// Entry is one named server read from a file.
type Entry struct {
	Name string
	Server
}

// File is one configuration file and the place inside it where servers
// live.
type File struct {
	// Path of the file. A symbolic link is followed: the file it points to
	// is edited and the link is kept.
	Path string
	// Format of the file.
	Format Format
	// Key is the path of object keys (JSON) or table names (TOML) that
	// holds the servers, e.g. ["mcpServers"] or ["mcp_servers"].
	Key []string
	// LockTimeout bounds the wait for another writer; zero means 10s.
	LockTimeout time.Duration
	// Private says that what Set writes holds a secret (an API key in the
	// entry's environment, a pinned value in its arguments): a file that
	// its group or others may read or write loses those permissions, and
	// so does its backup, which keeps the previous version (mode 0644
	// becomes 0600); Change.Tightened reports it. Without Private the
	// file keeps its mode.
	Private bool
}

// Change reports what Set or Remove did (or, in a dry run, would do).
type Change struct {
	// Path is the file that was (or would be) written, symlinks resolved.
	Path string
	// Before and After are the file's contents; Before is nil when the
	// file did not exist, After when it was (or would be) deleted.
	Before, After []byte
	// Existed reports whether the file existed.
	Existed bool
	// Found reports whether a server of that name was there before: for
	// Set it was updated, for Remove it was removed.
	Found bool
	// Kept lists, for Set of a server that was there, what of its entry
	// was kept because Set does not write it: the names of its other
	// members ("trust", "timeout") in file order, then "env.NAME" for each
	// of its environment variables that s.Env does not set.
	Kept []string
	// Enabled names, for Set of a server that was there but switched off,
	// the member that switched it off and now switches it on: "disabled"
	// (was true, now false) or, in Codex's TOML, "enabled" (was false, now
	// true); "" otherwise.
	Enabled string
	// Written reports whether the file was written (false in a dry run,
	// and when the contents did not change).
	Written bool
	// Deleted reports, for Remove, that the file held nothing but the
	// server removed, so that it is (or, in a dry run, would be) deleted
	// rather than left holding an empty skeleton (see File.Remove).
	Deleted bool
	// Backup is the path of the copy of the previous version, "" when
	// none was written.
	Backup string
	// Tightened is, for a Private Set, the mode the file had when its
	// group or others could read or write it, and that the file and its
	// backup no longer have (in a dry run: would no longer have); 0
	// otherwise. It is set even when the contents did not change: the
	// secret was there already.
	Tightened fs.FileMode
}

// Changed reports whether the contents differ.
func (c *Change) Changed() bool {
	if !c.Existed {
		return c.After != nil
	}
	return !bytes.Equal(c.Before, c.After)
}

// ErrReadOnly is returned (wrapped) when the configuration file is not
// writable by its owner.
var ErrReadOnly = errors.New("file is read-only")

// List returns the servers in the file in file order. A missing file has
// no servers and no error; a path that is not a regular file (nor a
// symbolic link to one) is an error.
func (f File) List() ([]Entry, error) {
	src, _, existed, err := readFile(f.Path)
	if err != nil || !existed {
		return nil, err
	}
	entries, err := List(f.Format, src, f.Key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	return entries, nil
}

// Set adds the server name, or updates the server of that name as the
// package-level Set does, leaving every other byte of the file as it was. With dryRun the file is only
// read.
func (f File) Set(name string, s Server, dryRun bool) (*Change, error) {
	var u updated
	ch, err := f.update(dryRun, func(src []byte) ([]byte, bool, error) {
		out, found, up, err := set(f.Format, src, f.Key, name, s)
		u = up
		return out, found, err
	}, nil)
	if ch != nil {
		ch.Kept, ch.Enabled = u.kept, u.enabled
	}
	return ch, err
}

// Remove deletes the server name. A missing file or server is no error:
// the Change reports Found false and nothing is written.
//
// When the file is exactly what Set writes into a new file for this
// server (nothing but it, laid out as Set lays it out: a file enable
// created and nobody edited since), the file itself is deleted
// (Change.Deleted), so that Set then Remove on a missing file leaves no
// file, as before; the previous version is kept in path + ".bak" as for
// any write. A file that was blank (empty, or white space alone) when Set
// wrote the server into it, as its backup shows, is given back as it was
// instead of deleted. A symbolic link is not deleted, nor its target: the target
// gets the skeleton.
func (f File) Remove(name string, dryRun bool) (*Change, error) {
	return f.update(dryRun, func(src []byte) ([]byte, bool, error) {
		return Remove(f.Format, src, f.Key, name)
	}, func(src, before []byte) bool { return ownFile(f.Format, src, before, f.Key, name) })
}

// ownFile reports whether src is, byte for byte, what Set writes into
// before (nil: a new file) for the server name as src has it: a file that
// enable created, or wrote into a blank file, and that nobody has edited
// since. Only such a file is deleted (or given back blank) when its server
// is removed; any other is left holding the skeleton.
func ownFile(format Format, src, before []byte, key []string, name string) bool {
	entries, err := List(format, src, key)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name == name {
			out, _, err := Set(format, before, key, name, e.Server)
			return err == nil && bytes.Equal(out, src)
		}
	}
	return false
}

// blankBackup returns the contents of path's backup when that is a
// regular file holding nothing but white space (an empty file, most
// often): what a file was before enable wrote a server into it, the one
// sign left that the file existed then.
func blankBackup(path string) ([]byte, bool) {
	fi, err := os.Lstat(path + ".bak")
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return nil, false
	}
	b, err := os.ReadFile(path + ".bak")
	if err != nil || len(bytes.TrimSpace(b)) != 0 {
		return nil, false
	}
	return b, true
}

// skeleton reports whether out is what Set wraps around a server in a new
// file, with the server gone: "{}\n" (JSON) or nothing (TOML).
func skeleton(format Format, out []byte) bool {
	if format == TOML {
		return len(out) == 0
	}
	return string(out) == "{}\n"
}

// update runs edit on the file's contents under the file's lock and
// writes the result atomically, with a backup of the previous version.
// With removing, a file left as a skeleton is deleted (see Remove).
//
// own reports whether src is what enable made of before (nil: no file):
// with removing, such a file left as a skeleton is deleted, or given back
// as it was when it was blank (its backup shows that).
func (f File) update(dryRun bool, edit func([]byte) ([]byte, bool, error), own func(src, before []byte) bool) (*Change, error) {
	path, err := resolve(f.Path)
	if err != nil {
		return nil, err
	}
	link := false
	if fi, err := os.Lstat(f.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		link = true
	}
	ch := &Change{Path: path}
	apply := func() error {
		src, fi, existed, err := readFile(path)
		if err != nil {
			return err
		}
		var mode fs.FileMode
		if existed {
			mode = fi.Mode()
		}
		ch.Before, ch.Existed = src, existed
		out, found, err := edit(src)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		ch.After, ch.Found = out, found
		if own != nil && found && existed && !link && skeleton(f.Format, out) {
			if blank, ok := blankBackup(path); ok && own(src, blank) {
				// The file was blank when enable wrote the server into
				// it (its backup is): give it back as it was.
				ch.After = blank
			} else if own(src, nil) {
				ch.After, ch.Deleted = nil, true
			}
		}
		perm := fs.FileMode(0o600)
		if existed {
			perm = mode.Perm()
		}
		if f.Private && existed && perm&0o077 != 0 {
			ch.Tightened = perm
			perm &^= 0o077
		}
		if dryRun {
			return nil
		}
		if !ch.Changed() {
			if ch.Tightened != 0 {
				return tighten(path, perm)
			}
			return nil
		}
		if existed && mode.Perm()&0o200 == 0 {
			return fmt.Errorf("%s: %w (mode %v); make it writable or pass --config-path", path, ErrReadOnly, mode.Perm())
		}
		if existed {
			ch.Backup = path + ".bak"
			if err := writeAtomic(ch.Backup, src, perm, fi); err != nil {
				return fmt.Errorf("back up %s: %w", path, err)
			}
		}
		if ch.Deleted {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("delete %s, which holds nothing else: %w", path, err)
			}
			syncDir(filepath.Dir(path))
			return nil
		}
		if err := writeAtomic(path, ch.After, perm, fi); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		ch.Written = true
		return nil
	}
	if dryRun {
		if err := apply(); err != nil {
			return nil, err
		}
		return ch, nil
	}
	if _, err := os.Stat(filepath.Dir(path)); errors.Is(err, fs.ErrNotExist) {
		// A missing directory: create it only when there is something to
		// write (removing from a missing file creates nothing).
		out, found, err := edit(nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if out == nil {
			ch.Found = found
			return ch, nil
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("create the directory of %s: %w", path, err)
		}
	}
	timeout := f.LockTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	unlock, err := lockFile(path, timeout)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := apply(); err != nil {
		return nil, err
	}
	return ch, nil
}

// tighten gives the file path, which already holds a secret, and its
// backup, when there is one, the mode perm.
func tighten(path string, perm fs.FileMode) error {
	if err := os.Chmod(path, perm); err != nil {
		return fmt.Errorf("restrict %s to mode %v: %w", path, perm, err)
	}
	if fi, err := os.Lstat(path + ".bak"); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&^perm != 0 {
		if err := os.Chmod(path+".bak", fi.Mode().Perm()&perm); err != nil {
			return fmt.Errorf("restrict %s.bak to mode %v: %w", path, perm, err)
		}
	}
	return nil
}

// resolve follows a symbolic link at path, so that the link is kept and
// its target edited.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("config path %s: %w", path, err)
	}
	fi, err := os.Lstat(abs)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return abs, nil
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("config path %s is a symbolic link that does not resolve: %w", path, err)
	}
	return target, nil
}

// readFile returns the contents and the stat of path, following a
// symbolic link; a missing file is (nil, nil, false, nil). Anything but a
// regular file is refused before it is opened: reading a named pipe
// would block until some other process writes to it.
func readFile(path string) ([]byte, fs.FileInfo, bool, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err // an *fs.PathError: it names the path
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, false, fmt.Errorf("%s is %s, not a regular file", path, fileKind(fi.Mode()))
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, false, err
	}
	return src, fi, true, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// bom is the UTF-8 byte order mark some Windows editors put first.
var bom = []byte("\xef\xbb\xbf")

// withoutBOM runs edit on src less a leading byte order mark and puts the
// mark back on the result.
func withoutBOM(src []byte, edit func([]byte) ([]byte, bool, error)) ([]byte, bool, error) {
	if !bytes.HasPrefix(src, bom) {
		return edit(src)
	}
	out, found, err := edit(src[len(bom):])
	if err != nil {
		return out, found, err
	}
	return append(slices.Clone(bom), out...), found, nil
}

// Set returns src with the server name set to s in the object (JSON) or
// table (TOML) at key, and whether a server of that name was there. Every
// other byte is kept. src may be nil or empty (a new file).
//
// A server that is there is updated, not replaced: Type (when not
// empty), Command and Args are set, the variables of s.Env are set in its
// env and its other variables stay, an entry switched off ("disabled":
// true, or Codex's enabled = false) is switched on, and every other member
// of the entry (a "trust" or "timeout" the user added) stays as it was. A
// remote server of that name (one with a URL) is an error wrapping
// ErrRemoteEntry.
func Set(format Format, src []byte, key []string, name string, s Server) ([]byte, bool, error) {
	out, found, _, err := set(format, src, key, name, s)
	return out, found, err
}

// set is Set that also returns what it kept of the entry that was
// there and what it switched on (see Change.Kept and Change.Enabled).
func set(format Format, src []byte, key []string, name string, s Server) ([]byte, bool, updated, error) {
	if name == "" {
		return nil, false, updated{}, errors.New("empty server name")
	}
	var u updated
	out, found, err := withoutBOM(src, func(src []byte) ([]byte, bool, error) {
		var out []byte
		var found bool
		var err error
		if format == TOML {
			out, found, u, err = tomlSet(src, key, name, s)
		} else {
			out, found, u, err = jsonSet(src, key, name, s)
		}
		return out, found, err
	})
	return out, found, u, err
}

// Remove returns src without the server name, and whether it was there.
// When it was not, src is returned unchanged.
func Remove(format Format, src []byte, key []string, name string) ([]byte, bool, error) {
	return withoutBOM(src, func(src []byte) ([]byte, bool, error) {
		if format == TOML {
			return tomlRemove(src, key, name)
		}
		return jsonRemove(src, key, name)
	})
}

// List returns the servers at key in src, in file order.
func List(format Format, src []byte, key []string) ([]Entry, error) {
	src = bytes.TrimPrefix(src, bom)
	if format == TOML {
		return tomlList(src, key)
	}
	return jsonList(src, key)
}
