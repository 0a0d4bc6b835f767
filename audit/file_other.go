//go:build !unix

package audit

import (
	"errors"
	"io/fs"
	"os"
)

// openNoFollow opens path for appending, creating it with mode 0600 when
// it is missing (created says so). Without O_NOFOLLOW, a symbolic link is
// refused by a look at the path first.
func openNoFollow(path string) (f *os.File, created bool, err error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, false, &fs.PathError{Op: "open", Path: path, Err: notRegular(fi.Mode())}
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		return f, true, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, false, err
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	return f, false, err
}

// describeOpenError words what the open of an audit log's path met.
func describeOpenError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkFile refuses a file that is not regular.
func checkFile(fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return notRegular(fi.Mode())
	}
	return nil
}
