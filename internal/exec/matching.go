package exec

// AnnotationMatching, on a command or on its tree's root, says how the CLI
// reads a word as the name of a sub-command, where the tree cannot say it
// itself: a tree read from outside, whose cobra settings live in another
// process. Its value is MatchUnknown, MatchExact, or "prefix", "case" or
// "prefix,case" (cobra's EnablePrefixMatching and EnableCaseInsensitive
// on); without it, the process's own cobra settings apply (a tree built
// in-process). A command whose sub-commands are not all in the tree
// carries MatchUnknown: any word may name one.
const AnnotationMatching = "cobramcp.matching"

// Values of AnnotationMatching.
const (
	// MatchUnknown: any word may be read as a sub-command's name; the
	// args of a command with sub-commands always follow "--".
	MatchUnknown = "unknown"
	// MatchExact: a name or an alias, as written.
	MatchExact = "exact"
	// MatchPrefix is cobra's EnablePrefixMatching: a prefix of one
	// command's name or alias, when no other command has it.
	MatchPrefix = "prefix"
	// MatchCase is cobra's EnableCaseInsensitive: a name or an alias in
	// any case.
	MatchCase = "case"
)
