//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package clientcfg

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// staleLock is the age after which a lock file left by a crashed process
// is taken over.
const staleLock = 30 * time.Second

// lockFile creates path+".lock" exclusively (O_EXCL), waiting up to
// timeout; unlock removes it. Used where flock is not available.
func lockFile(path string, timeout time.Duration) (unlock func(), err error) {
	lp := path + ".lock"
	deadline := time.Now().Add(timeout)
	for {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(lp) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if fi, err := os.Stat(lp); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(lp)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: another process holds %s; try again", path, lp)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func keepOwner(*os.File, fs.FileInfo) {}

func syncDir(string) {}
