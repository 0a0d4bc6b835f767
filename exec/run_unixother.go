//go:build unix && !linux

package exec

import "syscall"

// groupLive reports whether the process group pgid has a member. A zombie
// member counts as alive here; the caller's grace period bounds the wait.
func groupLive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}
