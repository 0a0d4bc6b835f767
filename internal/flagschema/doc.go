// Package flagschema knows what each pflag type means, in one table of
// flag kinds: its JSON Schema, how its default is read, how a value is
// written on a command line and read back, a fresh value for a pin's
// check, and the word its help shows. [For] maps one flag to one JSON
// Schema; [Write] writes a value of it as the command line's texts; the
// packages that run commands (exec), pin flags (toolset) and read a CLI
// from outside (external) look a type up here ([KindOf], [Lookup],
// [HelpKind], [ListOf]) and switch on nothing.
//
//	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
//	fs.Int8("level", 3, "compression level")
//	fs.StringSlice("tag", []string{"a", "b"}, "tags to add")
//	fs.String("mode", "fast", "how to run")
//	fs.SetAnnotation("mode", flagschema.Annotation, []string{`{"enum": ["fast", "safe"]}`})
//
//	fs.VisitAll(func(f *pflag.Flag) {
//		s, err := flagschema.For(f)
//		if err != nil {
//			slog.Warn("flag schema", "err", err) // s is the generated schema: still usable
//		}
//		b, _ := json.Marshal(s)
//		fmt.Println(f.Name, string(b))
//	})
//
// prints
//
//	level {"type":"integer","description":"compression level","default":3,"minimum":-128,"maximum":127}
//	mode {"description":"how to run","default":"fast","enum":["fast","safe"]}
//	tag {"type":"array","items":{"type":"string"},"description":"tags to add","default":["a","b"]}
//
// # The table of flag kinds
//
// Each of pflag's types is one entry of the table (kinds, in kinds.go),
// found by the name its Value.Type() returns ([Kind]). An entry of one
// value holds its schema, its parser (a default's text as JSON, refusing
// what Set refuses), its writer (a JSON value as the text Set reads back
// exactly) and the texts of a default that mean none; a list or map names
// its element's kind and its form (comma-separated, CSV, one element per
// occurrence, key=value pairs), which derives the rest. Every entry says
// how a flag of it is made (pflag's own constructor, for the fresh value a
// pin is checked with and for a flag read from outside), which getter
// reads its printed value again (a value is written only if that getter
// gives it back), a sample its Set takes, and the words a help page shows
// for it.
//
// Adding a flag type is one entry and its row in kindRows (kinds_test.go):
// TestKindTable checks every entry against a real flag of its type made
// by pflag's constructor (the schema, the default, a value written and
// parsed back by pflag's command-line parser, the sample, the fresh value,
// the definition, the help word), and fails for an entry without a row.
// ExampleKind_custom shows an entry for a custom type. A custom
// [pflag.Value] of a CLI needs no entry: it is text, its schema a string
// naming its type, unless it accumulates ([Repeatable]) or carries an
// [Annotation].
//
// # What the package promises
//
// [For] always returns a usable, fresh schema (github.com/google/jsonschema-go)
// that resolves with jsonschema-go. It is pure: it reads the flag and
// changes nothing.
//
// Every built-in pflag type has a precise schema, chosen by f.Value.Type()
// ([KindOf]): bool is a boolean; the integer types are integers, with exact
// minimum and maximum for the types of up to 32 bits (64-bit bounds cannot be
// held exactly by jsonschema-go's float64 bounds, so they are left out; the
// unsigned types keep minimum 0); count is an integer of at least 0; floats
// are numbers; duration is a string with a pattern for time.ParseDuration;
// ip is an IPv4 or IPv6 string; ipMask, ipNet, bytesHex and bytesBase64 are
// strings with patterns; the slice types are arrays of the element's schema;
// stringToString, stringToInt and stringToInt64 are objects with string or
// integer values. Any other type, a custom pflag.Value, is a string whose
// description ends with "(type: NAME)"; it is never an error.
//
// The description is the flag's usage, followed in parentheses by notes on
// the accepted syntax and, for a flag with a NoOptDefVal, what the flag
// means without a value. A deprecated flag is marked deprecated.
//
// The default is the flag's default as typed JSON ([Default]): numbers are
// numbers, lists are arrays, maps are objects; zero and empty defaults are
// left out. A changed flag still reports its default, not its value. The
// generated default always validates against the generated schema.
//
// An [Annotation] on a flag of any type replaces the generated schema. It is
// 2020-12 by default; draft-07 (by its "$schema") is converted to 2020-12.
// "$schema" and a root "$id" are dropped, internal "$ref"s are inlined (the
// schema is embedded inside a tool's input schema, where root-relative
// pointers would break, and some providers do not resolve references), and
// $defs go. External, dynamic and recursive references are refused, as is a
// schema that jsonschema-go cannot resolve or whose defaults do not validate.
// Without a description the annotation gets the flag's usage; without a
// default it gets the generated one when that validates. An annotation that
// gives the value no type ({"minimum": 1, "maximum": 5} on an int flag) is
// completed from the flag's own type rather than refused: [Completed] says
// how. When the annotation
// is refused, For returns the generated schema and an error naming the flag.
package flagschema
