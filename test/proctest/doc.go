// Package proctest helps the tests that run a real program (a server built
// from this repository, a CLI): a buffer its output is written to while
// the test reads it, a loopback address for it to serve on, and the URLs
// it logs once it serves.
//
//	stderr := &proctest.Buffer{}
//	cmd.Stderr = stderr
//	...
//	t.Logf("the server's log:\n%s", stderr)
package proctest
