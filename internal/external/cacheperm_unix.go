//go:build unix

package external

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"syscall"
)

// checkCachePath refuses a cache directory or entry that exists and is
// owned by another user or writable by its group or by others, as ssh
// refuses such a ~/.ssh: whoever can write it chooses the tools served
// and the flags they take. The error says how to fix it.
func checkCachePath(path string, dir bool) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &CacheError{Path: path, Problem: err.Error(), Fix: "give another directory with --cache-dir"}
	}
	what := "file"
	if dir {
		what = "directory"
	}
	if dir && !st.IsDir() {
		return &CacheError{Path: path, Problem: "is no directory", Fix: "remove it, or give another directory with --cache-dir"}
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(sys.Uid) != uid {
		owner := fmt.Sprint(sys.Uid)
		if u, err := user.LookupId(owner); err == nil {
			owner = u.Username
		}
		me := fmt.Sprint(uid)
		if u, err := user.LookupId(me); err == nil {
			me = u.Username
		}
		return &CacheError{Path: path, Problem: fmt.Sprintf("the cache %s is owned by %s, not by %s", what, owner, me),
			Fix: fmt.Sprintf("`sudo chown -R %s %q`, or give a directory of your own with --cache-dir", me, path)}
	}
	if m := st.Mode().Perm(); m&0o022 != 0 {
		return &CacheError{Path: path, Problem: fmt.Sprintf("the cache %s is writable by its group or by others (mode %04o)", what, m),
			Fix: fmt.Sprintf("`chmod go-w %q`, or give another directory with --cache-dir", path)}
	}
	return nil
}
