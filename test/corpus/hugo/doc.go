// Package hugo adds hugo to the corpus of real CLIs (see package corpus,
// one directory up): a CLI built with bep/simplecobra whose Use strings
// hold "[command]" themselves ("server [command]"), so that the usage of a
// command that runs and has sub-commands reads "hugo server [command]
// [flags]" and "hugo server [command]". It is a module of its own: hugo's
// pins would move the other CLIs' ones. Its binary is built from this
// module, whose pins are hugo's own merged with cobramcp's, and so is the
// in-process tree it is compared with.
package hugo

import _ "github.com/gohugoio/hugo/commands" // the pinned dependency
