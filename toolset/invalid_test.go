package toolset_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/toolset"
)

// invalidTree is a root "v" with one command, "set", whose flags and args
// cover the schema keywords a call can break.
func invalidTree() *cobra.Command {
	root := &cobra.Command{Use: "v"}
	set := &cobra.Command{Use: "set NAME [VALUE]", Args: cobra.RangeArgs(1, 2), RunE: noop}
	fl := set.Flags()
	fl.Int("count", 0, "a count")
	fl.Int("replicas", 0, "pods")
	fl.String("output", "table", "format")
	fl.String("overrides", "", "JSON overrides")
	fl.String("level", "", "level name")
	fl.StringArray("names", nil, "names")
	fl.StringToString("labels", nil, "labels")
	fl.String("tls-cert", "", "certificate")
	fl.String("tls-key", "", "key")
	set.MarkFlagsRequiredTogether("tls-cert", "tls-key")
	_ = set.MarkFlagRequired("replicas")
	annotate := func(name, schema string) {
		if err := fl.SetAnnotation(name, flagschema.Annotation, []string{schema}); err != nil {
			panic(err)
		}
	}
	annotate("count", `{"type":"integer","minimum":0}`)
	annotate("output", `{"type":"string","enum":["table","json"]}`)
	annotate("overrides", `{"type":"object","properties":{"image":{"type":"string"},"replicas":{"type":"integer"}},"additionalProperties":false,"minProperties":1}`)
	annotate("level", `{"type":"string","pattern":"^[a-z]+$","minLength":2}`)
	root.AddCommand(set)
	return root
}

// TestInvalidArgumentsWording checks the whole message a model reads for
// arguments that break the input schema: each problem names the input
// (flags.NAME, args), the value and what is wanted, and every problem of
// the call is there, in a fixed order.
func TestInvalidArgumentsWording(t *testing.T) {
	ts := mustTools(t, invalidTree(), &toolset.Config{Executable: "/nonexistent/never-run"})
	const pre = "v_set: invalid arguments: "
	const post = ". Nothing was run."
	tests := []struct {
		name, args, want string
	}{
		{"type", `{"flags":{"replicas":1,"count":"three"},"args":["a"]}`,
			`flags.count: "three" is a string, want integer`},
		{"type of a float", `{"flags":{"replicas":1.5},"args":["a"]}`,
			`flags.replicas: 1.5 is a number, want integer`},
		{"enum", `{"flags":{"replicas":1,"output":"xml"},"args":["a"]}`,
			`flags.output: "xml", want one of "table", "json"`},
		{"required", `{"args":["a"]}`,
			`flags.replicas: missing, it is required`},
		{"minimum", `{"flags":{"replicas":1,"count":-1},"args":["a"]}`,
			`flags.count: -1, want at least 0`},
		{"nested unknown property", `{"flags":{"replicas":1,"overrides":{"image":"x","bogus":1}},"args":["a"]}`,
			`flags.overrides: unexpected property "bogus"; the properties are "image", "replicas"`},
		{"nested type", `{"flags":{"replicas":1,"overrides":{"replicas":"two"}},"args":["a"]}`,
			`flags.overrides.replicas: "two" is a string, want integer`},
		{"array item", `{"flags":{"replicas":1,"names":["a",5]},"args":["a"]}`,
			`flags.names[1]: 5 is a number, want string`},
		{"map value", `{"flags":{"replicas":1,"labels":{"team":7}},"args":["a"]}`,
			`flags.labels.team: 7 is a number, want string`},
		{"minItems", `{"flags":{"replicas":1},"args":[]}`,
			`args: 0 items, want at least 1`},
		{"maxItems", `{"flags":{"replicas":1},"args":["a","b","c"]}`,
			`args: 3 items, want at most 2`},
		{"minItems of a flag", `{"flags":{"replicas":1,"names":[]},"args":["a"]}`,
			`flags.names: 0 items, want at least 1`},
		{"minProperties", `{"flags":{"replicas":1,"overrides":{}},"args":["a"]}`,
			`flags.overrides: 0 entries, want at least 1`},
		{"pattern", `{"flags":{"replicas":1,"level":"A1"},"args":["a"]}`,
			`flags.level: "A1", want a match of the pattern "^[a-z]+$"`},
		{"minLength", `{"flags":{"replicas":1,"level":"a"},"args":["a"]}`,
			`flags.level: "a" is 1 character long, want at least 2`},
		{"every problem, in order", `{"flags":{"output":"xml","count":"three"},"args":["a","b","c"]}`,
			`flags.count: "three" is a string, want integer; flags.output: "xml", want one of "table", "json"; ` +
				`flags.replicas: missing, it is required; args: 3 items, want at most 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := fullView(ts).Call(context.Background(), "v_set", json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := resultText(res), pre+tt.want+post; !res.IsError || got != want {
				t.Errorf("%s:\n got %q\nwant %q", tt.args, got, want)
			}
		})
	}
	// Unknown flags are refused before the schema, naming the flags there are.
	res, err := fullView(ts).Call(context.Background(), "v_set", json.RawMessage(`{"flags":{"bogus":1,"replicas":1},"args":["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	const unknown = `v_set: unknown flag "bogus"; this tool's flags are: count, labels, level, names, output, overrides, replicas, tls-cert, tls-key. Nothing was run.`
	if got := resultText(res); got != unknown {
		t.Errorf("unknown flag:\n got %q\nwant %q", got, unknown)
	}
}
