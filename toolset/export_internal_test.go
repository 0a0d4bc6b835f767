package toolset

// ArgsUsage exposes argsUsage to the external tests.
var ArgsUsage = argsUsage

// SharedFlagsText, FlagLines and SharedIntro expose the statement of the
// shared flags to the external tests.
var (
	SharedFlagsText = sharedFlagsText
	FlagLines       = flagLines
)

const SharedIntro = sharedIntro
