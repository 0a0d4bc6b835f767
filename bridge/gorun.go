package bridge

import (
	"fmt"
	"path/filepath"
	"strings"
)

// goRunBuild reports whether exe is a binary that `go run` built in its
// temporary work directory (GOTMPDIR or TMPDIR/go-buildNNN/bNNN/exe/NAME),
// which is removed when `go run` exits.
func goRunBuild(exe string) bool {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(exe)), "/")
	for i := 0; i+3 < len(parts); i++ {
		if digitsAfter(parts[i], "go-build") && digitsAfter(parts[i+1], "b") && parts[i+2] == "exe" && i+4 == len(parts) {
			return true
		}
	}
	return false
}

// digitsAfter reports whether s is prefix followed by one or more digits.
func digitsAfter(s, prefix string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// goRunWarning is the note enable prints when the command it writes is a
// `go run` build, or "" when it is not.
func goRunWarning(exe string) string {
	if !goRunBuild(exe) {
		return ""
	}
	return fmt.Sprintf("Warning: %s is a temporary build of `go run`, removed when it exits; the client will fail to start it. Run enable from an installed binary (go build or go install) instead.", exe)
}
