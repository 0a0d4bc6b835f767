// Package exec turns a tool call into a process: [Argv] builds the
// command line from the call's JSON input, and [Run] runs it within limits.
//
//	// The input of a call, decoded with UseNumber; fs is the command's flags.
//	dec := json.NewDecoder(bytes.NewReader(input))
//	dec.UseNumber()
//	var in struct {
//		Flags map[string]any `json:"flags"`
//		Args  []string       `json:"args"`
//	}
//	if err := dec.Decode(&in); err != nil { ... }
//
//	argv, err := exec.Argv(fs, in.Flags, in.Args)
//	if err != nil {
//		return err // names the flag; errors.Is ErrUnknownFlag, ErrInvalidValue or ErrUnrepresentable
//	}
//	res, err := exec.Run(ctx, "/usr/local/bin/mycli", append([]string{"greet"}, argv...), exec.Options{
//		Timeout:   time.Minute,
//		MaxOutput: 256 << 10,
//	})
//	if err != nil {
//		return err // could not start
//	}
//	fmt.Println(res.ExitCode, res.Stdout, res.Stderr)
//
// # Argv: exactly what was asked
//
// [Argv] promises that the command, parsing the argv with the real pflag
// and cobra parsers, sees exactly the flag values asked for, Changed set
// for exactly those flags, and exactly the positional arguments asked for;
// when no argv can do that it returns an error instead of an approximation.
// The tests prove it for every pflag type by running the real cobra
// command on the argv, and a fuzz test (FuzzArgvRoundTrip) does the same
// for random strings and numbers.
//
// The rules, in short (the doc of [Argv] has them per type):
//
//   - Every flag is one element "--name=value": a value that starts with
//     "-" stays a value; shorthands are never used; booleans are always
//     explicit ("--color=false" turns off a flag whose default is true).
//   - A flag that was not asked for, or asked for with null, is left out:
//     many commands act on Flags().Changed.
//   - Integers are written as decimal digits at any size, floats as the
//     shortest text that reads back to the same float; range and
//     integrality are checked, never left to the command.
//   - Lists and maps are written in the syntax their pflag type reads back
//     exactly (CSV for stringSlice and stringToString, one repetition per
//     element for stringArray).
//   - A flag with a JSON Schema annotation (flagschema.Annotation) whose
//     type is string or custom receives a JSON string as is and any other
//     JSON value as compact JSON text.
//   - Positional arguments follow "--", so "--token=x" given as an argument
//     can never set a flag, least of all one the tool does not expose.
//
// A command with DisableFlagParsing parses its own arguments: cobramcp
// exposes no flags for it and passes the arguments verbatim
// ([ArgvNoParse]); whether "--token=x" is then a flag is the command's
// business, and an allow list of commands should take that into account.
//
// # Run: one process, bounded
//
// [Run] starts one child process, without a shell, with stdin from the
// null device, in a process group of its own. A timeout
// ([Options].Timeout) or a canceled context ends the whole group (SIGTERM,
// then SIGKILL after a grace), so no descendant outlives the call. On
// Linux the group also ends when this process dies, even by SIGKILL: every
// child is started from one thread that lives as long as the process, with
// the parent-death signal, and a small guard process (started with the first
// Run, named cobramcp-guard) ends the rest of each running call's group when
// this process is gone. Output is read as it arrives, can be reported line by line ([Options].OnLine),
// and is capped per stream ([Options].MaxOutput), keeping its start and
// its end, so memory stays bounded whatever the command prints. A non-zero
// exit is a [Result], not an error: the error only says that the process
// could not be started.
package exec
