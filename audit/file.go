package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// file is the file a Log of Open writes to, and its path, opened again
// when the file is moved or deleted (followPath) or on Reopen. It is the
// writer goroutine's.
type file struct {
	path string
	f    *os.File
	id   os.FileInfo // f's, to tell whether the path still names it
	// sinceSeen counts the lines written since the path was last seen to
	// name f.
	sinceSeen     int64
	reopenFailing bool // a reopen failed, and was logged
}

// openFile opens path for appending, refusing what Open refuses.
func openFile(path string, logger *slog.Logger) (*file, error) {
	f, created, err := openNoFollow(path)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, describeOpenError(err))
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkFile(fi)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	}
	if perm := fi.Mode().Perm(); !created && perm&0o077 != 0 {
		// The server's own file (checkFile saw to it): tightened.
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("audit log %s has mode %#o, readable or writable by others, and could not be made 0600: %w", path, perm, err)
		}
		logger.Warn("audit log was readable or writable by others: its mode is now 0600", "file", path, "was", fmt.Sprintf("%#o", perm))
	}
	return &file{path: path, f: f, id: fi}, nil
}

// openAppend opens path for appending with the platform's flags extra
// (openNoFollow's), creating it with mode 0600 when it is missing (created
// says so).
func openAppend(path string, extra int) (f *os.File, created bool, err error) {
	flags := os.O_WRONLY | os.O_APPEND | extra
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

// describeOpenError words what the open of an audit log's path met: what
// the platform can tell of it (openRefusal), else the error without the
// path, which openFile names.
func describeOpenError(err error) error {
	if why := openRefusal(err); why != nil {
		return why
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkFile refuses a file that is not regular, and what else the
// platform refuses (checkOwner).
func checkFile(fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return notRegular(fi.Mode())
	}
	return checkOwner(fi)
}

// notRegular says what a file that is not a regular one is.
func notRegular(m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link, which is not followed"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m.IsDir():
		what = "a directory"
	}
	return fmt.Errorf("is %s: refused (an audit log must be a regular file)", what)
}

// inPlace reports whether the path still names the file written to.
func (f *file) inPlace() bool {
	fi, err := os.Lstat(f.path)
	return err == nil && os.SameFile(fi, f.id)
}

// takeBack removes the last n bytes of the file, a write cut short, and
// reports whether it did.
func (f *file) takeBack(n int) bool {
	fi, err := f.f.Stat()
	if err != nil || fi.Size() < int64(n) {
		return false
	}
	return f.f.Truncate(fi.Size()-int64(n)) == nil
}
