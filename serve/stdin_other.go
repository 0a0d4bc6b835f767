//go:build !unix

package serve

import "io"

// pollable returns in: reading through the poller is done on Unix only
// (see stdin_unix.go).
func pollable(in io.Reader) (io.Reader, func(), func()) {
	nop := func() {}
	return in, nop, nop
}
