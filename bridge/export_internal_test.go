package bridge

// ArgsUsage exposes argsUsage to the external tests.
var ArgsUsage = argsUsage
