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
	flags := os.O_WRONLY | os.O_APPEND | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	f, err = os.OpenFile(path, flags|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		return f, true, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, false, err
	}
	f, err = os.OpenFile(path, flags, 0)
	return f, false, err
}

// describeOpenError words what the open of an audit log's path met.
func describeOpenError(err error) error {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return notRegular(fs.ModeSymlink)
	case errors.Is(err, syscall.ENXIO):
		return fmt.Errorf("is a named pipe (FIFO) or a device with no reader: refused (an audit log must be a regular file)")
	case errors.Is(err, syscall.EISDIR):
		return notRegular(fs.ModeDir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkFile refuses a file that is not regular, has other names, or is
// another user's.
func checkFile(fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return notRegular(fi.Mode())
	}
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
