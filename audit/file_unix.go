//go:build unix

package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path for appending, creating it with mode 0600 when
// it is missing (created says so), without following a symbolic link at
// it and without waiting for a reader of a named pipe.
func openNoFollow(path string) (f *os.File, created bool, err error) {
	return openAppend(path, syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC)
}

// openRefusal words what the errno of a refused open says of the path: a
// symbolic link (O_NOFOLLOW), a named pipe with no reader (O_NONBLOCK), a
// directory; nil for any other error.
func openRefusal(err error) error {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return notRegular(fs.ModeSymlink)
	case errors.Is(err, syscall.ENXIO):
		return fmt.Errorf("is a named pipe (FIFO) or a device with no reader: refused (an audit log must be a regular file)")
	case errors.Is(err, syscall.EISDIR):
		return notRegular(fs.ModeDir)
	}
	return nil
}

// checkOwner refuses a file that has other names or is another user's.
func checkOwner(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Errorf("is owned by user %d, not by this server's user %d: refused", st.Uid, uid)
	}
	if st.Nlink > 1 {
		return fmt.Errorf("has %d hard links: refused (another of its names could be another program's file)", st.Nlink)
	}
	return nil
}
