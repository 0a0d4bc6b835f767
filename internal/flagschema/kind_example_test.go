package flagschema

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// level is a log level, a pflag.Value as a CLI (or a new pflag release)
// might define one.
type level string

func (l *level) String() string { return string(*l) }
func (l *level) Type() string   { return "level" }
func (l *level) Set(s string) error {
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, s) {
		return fmt.Errorf("%q: want debug, info, warn or error", s)
	}
	*l = level(s)
	return nil
}

// ExampleKind_custom shows a custom type without an entry in the table
// (text, its schema naming the type), then the entry that makes it a kind
// of its own: its schema, how a default is read and a value written, how
// a flag of it is made (for pins' fresh values and for a CLI read from
// outside) and the word its help shows. Adding a type is that entry in
// kinds (kinds.go) and its row in kindRows (kinds_test.go).
func ExampleKind_custom() {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.Var(new(level), "log-level", "how much to log")
	f := fs.Lookup("log-level")

	// Without an entry: text, named after its type.
	s, _ := For(f)
	b, _ := json.Marshal(s)
	fmt.Println(string(b))

	// The entry.
	levels := []any{"debug", "info", "warn", "error"}
	entry := &Kind{
		name: "level", help: []string{"level"}, form: one,
		schema: func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Enum: levels} },
		parse:  verbatim,
		unset:  empty,
		format: func(v any) (string, error) {
			s, err := formatText(v)
			if err == nil && !slices.Contains(levels, any(s)) {
				err = fmt.Errorf("%q is not a level: %w", s, ErrInvalidValue)
			}
			return s, err
		},
		define: func(fs *pflag.FlagSet, name, usage string) { fs.Var(new(level), name, usage) },
		sample: "info",
	}
	s, _ = entry.typeSchema()
	b, _ = json.Marshal(s)
	fmt.Println(string(b))

	// A value written, and parsed back by pflag.
	texts, err := entry.form.write(entry, f.Name, "warn")
	fmt.Println(texts, err)
	_ = fs.Parse([]string{"--log-level=" + texts[0]})
	fmt.Println(f.Value)
	_, err = entry.form.write(entry, f.Name, "loud")
	fmt.Println(err)

	// A fresh value checks a pin without touching the flag; the help
	// word reads back as the kind.
	fresh, _ := entry.Fresh(f.Value)
	fmt.Println(fresh.Set("debug"), f.Value)
	word, _ := pflag.UnquoteUsage(f)
	fmt.Println(word, slices.Contains(entry.HelpWords(), word))
	// Output:
	// {"type":"string","description":"how much to log (type: level)"}
	// {"type":"string","enum":["debug","info","warn","error"]}
	// [warn] <nil>
	// warn
	// "loud" is not a level: invalid value
	// <nil> warn
	// level true
}
