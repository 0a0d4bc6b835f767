package exec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// ErrDashConflict reports a call whose args and args after "--" both need
// the one "--" a command line has: an arg that begins with "-" must follow
// "--", and so must every arg after "--".
var ErrDashConflict = errors.New(`args and argsAfterDash both need "--"`)

// positional is the positional part of a call: where each arg goes
// relative to "--".
type positional struct {
	// Args are the positional args, placed as a person types them: before
	// any "--" when they are plain, all after "--" when one of them
	// begins with "-" (other than "-" alone) or the first that cobra
	// looks up would be read as a sub-command (see SubCommand).
	Args []string
	// AfterDash are the words that go after "--", verbatim, for commands
	// that give "--" a meaning of their own (kubectl exec POD -- COMMAND).
	// An empty list writes no "--".
	AfterDash []string
	// SubCommand is set for a command that has sub-commands: it reports
	// whether cobra would read word, as the first positional arg, as a
	// sub-command of the command (its name or an alias, by a unique
	// prefix under cobra's EnablePrefixMatching, in any case under
	// EnableCaseInsensitive), and so run that command instead, or refuse
	// it as an unknown one (a root without Args). nil: the command has
	// none. The args then follow "--" exactly when it reports true for
	// the first of them that is not "" or "-" (which cobra never looks
	// up), so that the command sees ArgsLenAtDash() as when a person
	// types them. A caller that cannot tell how the CLI matches names (a
	// CLI read from outside that was not asked) reports true for every
	// word.
	SubCommand func(word string) bool
	// StopsAtFirstArg is set for a command whose flags stop at its first
	// positional arg (pflag's SetInterspersed(false), as docker run has):
	// every word after that arg is an arg, so only the first arg can be
	// read as a flag, and a "--" after it is an arg too (cobra passes it
	// to the command and records no ArgsLenAtDash).
	StopsAtFirstArg bool
}

// needsDash reports whether args cannot stand before "--": an arg that
// begins with "-" (other than "-" alone) would be read as a flag, and a
// first word read as a sub-command's name would run it. cobra's Find
// skips "" and "-" when it looks for the sub-command's name, so the first
// other word counts (see SubCommand).
func (p positional) needsDash() (bool, string) {
	for i, a := range p.Args {
		if i > 0 && p.StopsAtFirstArg {
			break // the flags stopped at the first arg
		}
		if len(a) > 1 && a[0] == '-' {
			return true, fmt.Sprintf("args element %d (%q) begins with \"-\"", i, a)
		}
	}
	if p.SubCommand != nil {
		for i, a := range p.Args {
			if a == "" || a == "-" {
				continue
			}
			if p.SubCommand(a) {
				return true, fmt.Sprintf("the CLI could read args element %d (%q) as the name of a sub-command (by name, alias, prefix or in another case)", i, a)
			}
			break // cobra looks up the first such word only
		}
	}
	return false, ""
}

// place returns the positional part of an argv: plain args as they are
// (cobra's ArgsLenAtDash is then -1), or "--" and the args when they need
// it (ArgsLenAtDash 0), followed by "--" and AfterDash when AfterDash is
// not empty (ArgsLenAtDash len(Args)). No arg is ever read as a flag.
// The error wraps [ErrDashConflict] when Args need "--" and AfterDash is
// not empty, or [ErrUnrepresentable] for a NUL byte.
//
// With StopsAtFirstArg the words are the same, but only the first arg can
// need "--", and when Args is not empty the "--" before AfterDash is read
// as an arg: the command gets Args, "--" and AfterDash as its args, with
// ArgsLenAtDash -1 (0 when Args needed "--"), exactly as when a person
// types them. There is then no conflict: a second "--" is an arg too.
func (p positional) place() ([]string, error) {
	for i, a := range p.Args {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, fmt.Errorf("positional argument %d: a NUL byte: %w", i, ErrUnrepresentable)
		}
	}
	for i, a := range p.AfterDash {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, fmt.Errorf("argsAfterDash element %d: a NUL byte: %w", i, ErrUnrepresentable)
		}
	}
	dash, why := p.needsDash()
	if dash && len(p.AfterDash) > 0 && !p.StopsAtFirstArg {
		return nil, fmt.Errorf("%s, so it must follow \"--\", but argsAfterDash needs the command line's only \"--\": %w", why, ErrDashConflict)
	}
	out := make([]string, 0, len(p.Args)+len(p.AfterDash)+1)
	if dash {
		out = append(out, "--")
	}
	out = append(out, p.Args...)
	if len(p.AfterDash) > 0 {
		out = append(out, "--")
		out = append(out, p.AfterDash...)
	}
	return out, nil
}

// argvPositional returns the flags, then fixed, flag elements already
// written, then p placed by [positional.place].
func argvPositional(fs *pflag.FlagSet, flags map[string]any, fixed []string, p positional) ([]string, error) {
	argv, err := flagArgv(fs, flags)
	if err != nil {
		return nil, err
	}
	argv = append(argv, fixed...)
	rest, err := p.place()
	if err != nil {
		return nil, err
	}
	return append(argv, rest...), nil
}

// argvNoParseDash is the argv of a command that parses its own arguments
// (DisableFlagParsing): args verbatim (a copy), then "--" and afterDash
// when afterDash is not empty. cobramcp exposes no flags for such a
// command; an argument like "--token=x" reaches it as it would from a
// shell, and whether it is read as a flag is up to the command.
func argvNoParseDash(args, afterDash []string) []string {
	out := slices.Clone(args)
	if len(afterDash) > 0 {
		out = append(out, "--")
		out = append(out, afterDash...)
	}
	return out
}
