// Package realcli measures what cobramcp serves for large real Cobra
// command trees (kubectl's, built in-process) and for the mycli fixture: the
// bytes of the tools/list result, the bytes per tool, and the "every flag's
// usage line per command" baseline that issue 10 sets the target against
// (tools/list at most half of it).
//
// It is its own Go module so that the library's go.mod gains nothing from
// kubectl's dependencies. Run the figures with
//
//	make bench
//
// or, in this directory, `go run ./listsize` (a table) and
// `go test -run='^$' -bench=. .` (the same figures as benchmark metrics).
// The kubectl sub-directory builds a kubectl binary with the mcp command
// group added, so that it can be served (`kubectl mcp start`) or reflected
// from outside.
package realcli
