//go:build !unix

package bridge

import "os"

// protectStdout gives the protocol stdout itself and points os.Stdout at
// stderr; descriptor-level redirection is unix-only.
func protectStdout() (*os.File, error) {
	proto := os.Stdout
	os.Stdout = os.Stderr
	return proto, nil
}
