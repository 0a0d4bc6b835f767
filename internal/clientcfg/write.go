package clientcfg

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data: it writes a temporary file in the
// same directory, syncs it, gives it perm (and, where possible, the owner
// of owner, when not nil: the configuration file, for it and its backup)
// and renames it over path, then syncs the directory. A reader sees the
// old file or the new one, never a mix.
func writeAtomic(path string, data []byte, perm fs.FileMode, owner fs.FileInfo) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if owner != nil {
		keepOwner(tmp, owner)
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into place: %w", err)
	}
	syncDir(dir)
	return nil
}
