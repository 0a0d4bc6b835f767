//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package clientcfg

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive flock on path+".lock", waiting up to
// timeout. The lock file is removed on unlock; a waiter that locked a
// file already removed by the previous holder notices (the inode at the
// path differs) and tries again.
func lockFile(path string, timeout time.Duration) (unlock func(), err error) {
	lp := path + ".lock"
	deadline := time.Now().Add(timeout)
	for {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("lock %s: another process holds %s; try again", path, lp)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(lp)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() {
				os.Remove(lp)
				f.Close()
			}, nil
		}
		f.Close()
		if err2 != nil && !errors.Is(err2, fs.ErrNotExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err2)
		}
	}
}

// keepOwner gives tmp the owner and group of old (best effort: it only
// succeeds for root or when they are already the caller's).
func keepOwner(tmp *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = tmp.Chown(int(st.Uid), int(st.Gid))
	}
}

// syncDir flushes a directory entry change (a rename) to disk.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
