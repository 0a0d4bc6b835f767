// Package docker builds docker's real command tree (github.com/docker/cli,
// pinned in go.mod) in-process, as docker's main does, for the tests of
// cobramcp on it: every command served with docker's global options, the
// argv of calls that mix those with a command's own flags on the same
// shorthands parsed back by docker's own tree, and docker's accumulating
// custom flag types served as arrays (toolset.Config.RepeatableTypes).
//
//	cd test/docker && go test ./...
package docker
