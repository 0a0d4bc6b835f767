// Package exec turns a tool call into a process: a [CommandLine] writes the
// command line of a call from its JSON input, and [Run] runs it within
// limits (package [process] holds the runner; Run, [Options] and [Result]
// are its names here).
//
//	// Once per command: its path under the binary and its flags (package
//	// toolset computes the whole CommandLine from the cobra command).
//	line := exec.CommandLine{Name: "mycli greet", Path: []string{"greet"}, Flags: fs}
//
//	// Per call: the input, decoded with UseNumber.
//	dec := json.NewDecoder(bytes.NewReader(input))
//	dec.UseNumber()
//	var in struct {
//		Flags map[string]any `json:"flags"`
//		Args  []string       `json:"args"`
//	}
//	if err := dec.Decode(&in); err != nil { ... }
//
//	argv, err := line.Argv(in.Flags, in.Args, nil)
//	if err != nil {
//		return err // names the flag; errors.Is ErrUnknownFlag, ErrInvalidValue, ErrUnrepresentable or ErrDashConflict
//	}
//	res, err := exec.Run(ctx, "/usr/local/bin/mycli", argv, exec.Options{
//		Timeout:   time.Minute,
//		MaxOutput: 256 << 10,
//	})
//	if err != nil {
//		return err // could not start
//	}
//	fmt.Println(res.ExitCode, res.Stdout, res.Stderr)
//
// # CommandLine: exactly what was asked
//
// [CommandLine.Argv] promises that the command, parsing the argv with the
// real pflag and cobra parsers, sees exactly the flag values asked for,
// Changed set for exactly those flags, and exactly the positional
// arguments asked for; when no argv can do that it returns an error
// instead of an approximation. The tests prove it for every pflag type by
// running the real cobra command on the argv, and a fuzz test
// (FuzzArgvRoundTrip) does the same for random strings and numbers.
//
// The rules, in short (the doc of [CommandLine.Argv] has them per type):
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
//   - A positional argument that could be read as a flag or as a
//     sub-command's name follows "--", so "--token=x" given as an argument
//     can never set a flag, least of all one the tool does not expose.
//   - An ancestor's flag that cobra reads before the sub-command's name
//     (TraverseChildren) is written there ([CommandLine].Traversed).
//
// A command with DisableFlagParsing ([CommandLine].NoParse) parses its own
// arguments: cobramcp exposes no flags for it and passes the arguments
// verbatim; whether "--token=x" is then a flag is the command's business,
// and an allow list of commands should take that into account.
//
// # Run: one process, bounded
//
// [Run] starts one child process, without a shell, with stdin from the
// null device, in a process group of its own. A timeout
// ([Options].Timeout) or a canceled context ends the whole group (SIGTERM,
// then SIGKILL after a grace), so no descendant outlives the call. On
// Linux the group also ends when this process dies, even by SIGKILL.
// Output is read as it arrives, can be reported line by line
// ([Options].OnLine), and is capped per stream ([Options].MaxOutput),
// keeping its start and its end. A non-zero exit is a [Result], not an
// error. Package [process] says how.
package exec
