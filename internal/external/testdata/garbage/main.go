// Command garbage is a test fixture: whatever it is asked, it prints bytes
// that are not a cobra completion and exits 0.
package main

import "os"

func main() {
	os.Stdout.Write([]byte("\x00\xff\xfe garbage\n\x1b[31m\xc3\n:not-a-directive\n"))
}
