// Package corpus compares, on real Cobra CLIs built from the Go module
// proxy at pinned versions, the reflection of each built binary from
// outside (package external) with the in-process reflection of the same
// command tree, built as the CLI's own main builds it.
//
// It is a module of its own, so that the library's go.mod gains none of
// these CLIs' dependencies. `make corpus` runs the whole corpus (the build
// tag corpusall adds the CLIs whose dependencies take minutes to build);
// `make test` runs the fast ones.
package corpus
