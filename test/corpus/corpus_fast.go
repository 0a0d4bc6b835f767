//go:build !corpusall

package corpus

// heavy is empty without the build tag corpusall: see CLIs.
var heavy []CLI
