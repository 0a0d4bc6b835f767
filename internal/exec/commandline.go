package exec

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// CommandLine says how the argv of one command is written. A caller
// computes it once per command (package toolset does, from the cobra
// command) and builds every call's argv with [CommandLine.Argv]. The zero
// value but Flags is a command whose flags all go after its path and that
// has no sub-commands.
type CommandLine struct {
	// Name is the command as a person names it ("kubectl get"), for
	// messages.
	Name string
	// Path is the sub-command names from the root to the command.
	Path []string
	// Flags are the command's flags, local and inherited, as cobra parses
	// them.
	Flags *pflag.FlagSet
	// Traversed maps the name of each flag that an ancestor parses (the
	// root has cobra's TraverseChildren) to the index in Path before which
	// it is written: cobra's Traverse reads an ancestor's flags before the
	// next sub-command's name.
	Traversed map[string]int
	// FlagNames maps a flag's name in Flags to the long name its parser
	// knows it by, where the two differ: an ancestor's flag served under
	// another name because the command has a flag of that name (docker's
	// --host before "service create", which has a --host of its own).
	// It is written by its own name before the sub-command's name.
	FlagNames map[string]string
	// NoParse is set for a command that parses its own arguments
	// (DisableFlagParsing): its args are passed verbatim, and only the
	// Traversed flags are written as flags.
	NoParse bool
	// SubCommand reports whether a word, as the first positional arg,
	// would be read by cobra as the name of a sub-command of the command
	// (a name or an alias, in the way the CLI matches them); nil: the
	// command has none. The args follow "--" when it reports true for the
	// first of them that cobra looks up (see positional.SubCommand).
	SubCommand func(word string) bool
	// TraverseSubCommand, when set (TraverseChildren with sub-commands),
	// reports whether a positional arg anywhere could be taken by cobra's
	// Traverse for a sub-command, "--" or not: such an arg is refused.
	TraverseSubCommand func(word string) string
	// StopsAtFirstArg: the command's flags stop at its first positional
	// arg (pflag's SetInterspersed(false), as docker run has): every word
	// after that arg is an arg, so only the first arg can be read as a
	// flag, and a "--" after it is an arg too (cobra passes it to the
	// command and records no ArgsLenAtDash).
	StopsAtFirstArg bool
	// Fixed are flags already written, by their name in Flags: each text
	// becomes one "--NAME=TEXT" element of every argv, verbatim, where the
	// flag goes (before the sub-command whose parser reads it, see
	// Traversed and FlagNames; else with the command's own flags), always
	// before "--" and the positional args. The caller checked each text
	// with the flag's own parser (package toolset's pins). A flag in Fixed
	// cannot also be given to Argv. With NoParse, only Traversed flags can
	// be fixed.
	Fixed map[string][]string
}

// Argv returns the arguments after the binary that run the command with
// flags, args and afterDash (the words after "--", for commands that give
// "--" a meaning of their own: kubectl exec POD -- COMMAND), such that the
// command, parsing them with the real pflag and cobra parsers, sees exactly
// the flag values in flags, Changed set for exactly those flags, and
// exactly those positional arguments. When no argv can do that it returns
// an error naming the flag or the arg, wrapping [ErrUnknownFlag],
// [ErrInvalidValue], [ErrUnrepresentable] or [ErrDashConflict], instead
// of an approximation.
//
// flags maps long flag names to values as encoding/json decodes them with
// UseNumber (json.Number, string, bool, []any, map[string]any, nil); plain
// Go values (int, uint64, float64, []string, map[string]string,
// time.Duration, []byte, ...) are accepted too. A nil value means "not
// set": the flag is left out, as is every flag not in flags, so the
// command sees Changed only for the flags that were asked for.
//
// Each flag becomes one element "--name=value" (so a value that starts with
// "-" is never read as a flag, and a shorthand is never used), in the order
// of the flag names, after the sub-command path (an ancestor's flag under
// Traversed goes before the name of the sub-command after it). The
// encoding per pflag type:
//
//   - bool, boolfunc: always explicit, "--name=true" or "--name=false".
//   - int, int8 ... int64, uint ... uint64, count: a JSON number (or a Go
//     number) that is integral and within the type's range, written in
//     decimal digits whatever its size ("1e3" and 1000.0 give "1000").
//   - float32, float64: the shortest text that parses back to the same
//     float (strconv.FormatFloat 'g', -1).
//   - string, func and custom types: a JSON string, verbatim.
//   - duration, ip, ipMask, ipNet, bytesHex, bytesBase64: a JSON string
//     that the type's parser accepts (a Go time.Duration or []byte too),
//     written in canonical form (ipMask as given).
//   - stringSlice: one CSV record, quoted the way pflag's CSV reader reads
//     it back, so elements may hold commas, quotes, spaces and newlines.
//   - stringArray, and custom values that accumulate
//     ([flagschema.Repeatable]: a [pflag.SliceValue], type "list", or
//     annotated): "--name=element" once per element, verbatim.
//   - other slices: the elements comma-joined; boolSlice, ipSlice and
//     ipNetSlice take an empty list as "--name=".
//   - stringToString: a lone pair "k=v" as is where pflag reads it so,
//     otherwise the pairs, keys sorted, as one CSV record.
//   - stringToInt, stringToInt64: "k1=1,k2=2", keys sorted.
//
// A flag annotated with [flagschema.Annotation] whose type is string, func
// or custom takes a JSON string verbatim and any other JSON value as its
// compact JSON text (so a flag that reads JSON can be given an object);
// an annotated flag of another built-in type is encoded as above.
//
// The args follow the flags as a person types them: plain args as they
// are, so the command sees ArgsLenAtDash() == -1 as when typed by hand;
// when one of them begins with "-" (other than "-" alone: a negative
// number, "--token=x") or the first that cobra looks up would be read as
// a sub-command's name (SubCommand: by name, alias, prefix or in another
// case, as the CLI matches them), "--" and then all of them, so that such
// an arg stays a positional argument (ArgsLenAtDash() == 0). afterDash, when not empty,
// follows "--" (ArgsLenAtDash() == len(args)); args and afterDash cannot
// both need the command line's one "--" ([ErrDashConflict]), except under
// StopsAtFirstArg, where a second "--" is an arg too. With NoParse the
// args are passed verbatim, and "--" and afterDash after them.
//
// A value must come back exactly both through the variable bound to the
// flag and through pflag's getters, which for the string lists, string
// maps and float lists parse the flag's printed value again (see
// flagschema.Write, which writes each flag's value from the table of flag
// kinds). Known unrepresentable values: a NUL byte anywhere; an
// empty list for stringArray and for the int, uint, float and duration
// slices; a stringSlice or stringArray of one empty string (printed as
// "[]"); an empty map; a stringSlice or stringArray element or
// stringToString key or value holding "\r\n" (pflag's CSV reader turns it
// into "\n"); a stringToString key holding "="; a stringToString whose
// last pair (by key) ends in white space, "[" or "]", or whose first key
// begins with "[" or "]", unless CSV quotes that pair; a stringToInt(64)
// key holding "," or "=" or beginning with "[" or "]"; a float list
// element that six decimals do not hold (1e-7, 3.1415927). Two names in
// flags that the flag set normalizes to the same flag are refused too.
func (l *CommandLine) Argv(flags map[string]any, args, afterDash []string) ([]string, error) {
	if l.TraverseSubCommand != nil {
		for i, a := range slices.Concat(args, afterDash) {
			if sub := l.TraverseSubCommand(a); sub != "" {
				return nil, fmt.Errorf("positional argument %d (%q) could be read as the sub-command %q of %q (the CLI uses cobra's TraverseChildren); it cannot be passed", i, a, sub, l.Name)
			}
		}
	}
	for name := range flags {
		if _, fixed := l.Fixed[name]; fixed && flags[name] != nil {
			return nil, fmt.Errorf("flag --%s: fixed, and given again: %w", name, ErrInvalidValue)
		}
	}
	out := slices.Clone(l.Path)
	leaf := flags
	var leafFixed []string // the fixed flags' elements that go with the command's own flags
	fixedAt := map[int][]string{}
	for _, name := range slices.Sorted(maps.Keys(l.Fixed)) {
		f := l.Flags.Lookup(name)
		if f == nil {
			return nil, fmt.Errorf("flag --%s (fixed): %w", name, ErrUnknownFlag)
		}
		written := f.Name
		d, traversed := l.Traversed[name]
		if traversed {
			if real, ok := l.FlagNames[name]; ok {
				written = real
			}
		} else if l.NoParse {
			return nil, fmt.Errorf("flag --%s (fixed): %q parses its own arguments: %w", name, l.Name, ErrUnrepresentable)
		}
		for _, text := range l.Fixed[name] {
			if strings.IndexByte(text, 0) >= 0 {
				return nil, fmt.Errorf("flag --%s (fixed): a NUL byte: %w", name, ErrUnrepresentable)
			}
			el := "--" + written + "=" + text
			if traversed {
				fixedAt[d] = append(fixedAt[d], el)
			} else {
				leafFixed = append(leafFixed, el)
			}
		}
	}
	if len(l.Traversed) > 0 {
		leaf = map[string]any{}
		at := map[int]map[string]any{}
		for name, v := range flags {
			d, ok := l.Traversed[name]
			if !ok {
				leaf[name] = v
				continue
			}
			if at[d] == nil {
				at[d] = map[string]any{}
			}
			at[d][name] = v
		}
		out = out[:0]
		for d := 0; d <= len(l.Path); d++ {
			if len(at[d]) > 0 {
				fl, err := l.ancestorArgv(at[d])
				if err != nil {
					return nil, err
				}
				out = append(out, fl...)
			}
			out = append(out, fixedAt[d]...)
			if d < len(l.Path) {
				out = append(out, l.Path[d])
			}
		}
	}
	if l.NoParse {
		// Every flag served is an ancestor's, written above.
		for i, a := range slices.Concat(args, afterDash) {
			if strings.IndexByte(a, 0) >= 0 {
				return nil, fmt.Errorf("positional argument %d: a NUL byte: %w", i, ErrUnrepresentable)
			}
		}
		if i := l.noParseSubCommand(args); i >= 0 {
			return nil, fmt.Errorf("positional argument %d (%q) would be read by cobra as a sub-command of %q, which parses its own flags, so no \"--\" can keep it an arg; it cannot be passed there", i, args[i], l.Name)
		}
		return append(out, argvNoParseDash(args, afterDash)...), nil
	}
	rest, err := argvPositional(l.Flags, leaf, leafFixed, positional{
		Args:            args,
		AfterDash:       afterDash,
		SubCommand:      l.SubCommand,
		StopsAtFirstArg: l.StopsAtFirstArg,
	})
	if err != nil {
		return nil, err
	}
	return append(out, rest...), nil
}

// ancestorArgv writes the flags that one ancestor parses, each by the
// name its parser knows it by (see FlagNames).
func (l *CommandLine) ancestorArgv(flags map[string]any) ([]string, error) {
	renamed := false
	for name := range flags {
		if _, ok := l.FlagNames[name]; ok {
			renamed = true
		}
	}
	if !renamed {
		return flagArgv(l.Flags, flags)
	}
	fs := pflag.NewFlagSet(l.Name, pflag.ContinueOnError)
	named := make(map[string]any, len(flags))
	for name, v := range flags {
		f := l.Flags.Lookup(name)
		if f == nil {
			return nil, fmt.Errorf("flag --%s: %w", name, ErrUnknownFlag)
		}
		cp := *f
		cp.Shorthand = ""
		if real, ok := l.FlagNames[name]; ok {
			cp.Name = real
		}
		if fs.Lookup(cp.Name) != nil {
			return nil, fmt.Errorf("flag --%s: given twice, as %q and under another name: %w", cp.Name, name, ErrInvalidValue)
		}
		fs.AddFlag(&cp)
		named[cp.Name] = v
	}
	return flagArgv(fs, named)
}

// noParseSubCommand returns the index of the arg that cobra's Find would
// take for the name of a sub-command of a command that parses its own
// flags and so gets its args verbatim, or -1: the first word that is not
// "", "-", a flag or the value a flag may take, before any "--" (the way
// cobra's stripFlags reads words for the command's flags), when it names a
// sub-command. "--" cannot protect it: the command would get the "--" as
// an arg.
func (l *CommandLine) noParseSubCommand(args []string) int {
	if l.SubCommand == nil {
		return -1
	}
	fs := l.Flags
	optional := func(f *pflag.Flag) bool { return f != nil && f.NoOptDefVal != "" }
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return -1
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "=") && !optional(fs.Lookup(s[2:])),
			strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && len(s) == 2 && !optional(fs.ShorthandLookup(s[1:])):
			// cobra skips the flag's value, and stops at the last word
			if len(args)-i-1 <= 1 {
				return -1
			}
			i++
		case s != "" && !strings.HasPrefix(s, "-"):
			if l.SubCommand(s) {
				return i
			}
			return -1
		}
	}
	return -1
}
