// Package cobracli pins cobra-cli v1.3.0 to its own dependencies (cobra
// 1.3.0, what `go install github.com/spf13/cobra-cli@v1.3.0` builds), for
// the corpus to build the binary with: the corpus module itself needs a
// newer cobra, which the library requires.
package cobracli

import _ "github.com/spf13/cobra-cli/cmd" // the pinned dependency
