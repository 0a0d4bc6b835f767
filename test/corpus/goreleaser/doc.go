// Package goreleaser adds goreleaser to the corpus of real CLIs (see
// package corpus, one directory up): a CLI that executes through
// charmbracelet/fang, whose help is styled (upper-case titles padded with
// spaces, flags without types, "[--flags]"). It is a module of its own:
// goreleaser's pins (a docker client, cloud SDKs) would move the other
// CLIs' ones. Its binary is built from this module, whose pins are
// goreleaser's own merged with cobramcp's, and so is the in-process tree
// it is compared with.
package goreleaser

import _ "github.com/goreleaser/goreleaser/v2/cmd" // the pinned dependency
