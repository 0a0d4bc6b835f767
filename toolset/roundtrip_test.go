package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/toolset"
)

// hostile is a string that would break a naive argv: a flag look-alike, CSV
// separators and quotes, an equals sign, a newline and non-ASCII text.
const hostile = "-n --state=/etc/passwd, \"q\" a=b\n ü"

// sampleValue returns a value for f that its schema accepts, as a model
// would send it, favouring values that are hard to pass on a command line.
func sampleValue(f *pflag.Flag, s *jsonschema.Schema) any {
	if len(s.Enum) > 0 {
		return s.Enum[len(s.Enum)-1]
	}
	if flagschema.Annotated(f) && s.Type == "object" {
		return map[string]any{"image": "nginx:1,2 \"x\"", "replicas": 3}
	}
	switch flagschema.KindOf(f).Name() {
	case "bool":
		return !strings.EqualFold(f.DefValue, "true")
	case "string":
		return hostile
	case "int", "int8", "int16", "int32", "int64":
		return json.Number("-42")
	case "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return json.Number("42")
	case "float32", "float64":
		return json.Number("0.1")
	case "duration":
		return "1h2m3.5s"
	case "ip":
		return "fe80::1"
	case "time":
		return "2024-05-06T07:08:09Z"
	case "stringSlice":
		return []any{"a,b", `"c"`, "-n", ""}
	case "stringArray":
		return []any{"x,y", "--z=1", ""}
	case "stringToString":
		return map[string]any{"k": "v,w=1", "-n": `"q"`}
	case "intSlice", "int32Slice", "int64Slice":
		return []any{json.Number("1"), json.Number("-2")}
	}
	return "sample"
}

// TestMycliArgvRoundTrip proves, for every mycli tool and every one of its
// flags, that the argv the call path builds is read back by mycli's own
// parser as exactly the values and args that were asked for.
func TestMycliArgvRoundTrip(t *testing.T) {
	var argv []string
	capture := func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*execResult, error) {
			argv = c.Argv
			return &execResult{}, nil
		}
	}
	root := mycli.New()
	ts, err := toolset.New(root, &toolset.Config{Middleware: []toolset.Middleware{capture}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range ts.List() {
		schema := tool.Definition().InputSchema.(*jsonschema.Schema)
		var props map[string]*jsonschema.Schema
		if fs := schema.Properties["flags"]; fs != nil {
			props = fs.Properties
		}
		args := []string{"--namespace=kube-system", "-n"}
		if as := schema.Properties["args"]; as != nil {
			if as.Items != nil && len(as.Items.Enum) > 0 {
				args = []string{as.Items.Enum[0].(string)}
			}
			if as.MaxItems != nil && len(args) > *as.MaxItems {
				args = args[:*as.MaxItems]
			}
			for as.MinItems != nil && len(args) < *as.MinItems {
				args = append(args, "x")
			}
		} else {
			args = nil
		}
		var afterDash []string
		if schema.Properties["argsAfterDash"] != nil {
			// The hostile words go after "--"; a plain one before it.
			args, afterDash = []string{"web-0"}, args
		}
		// base holds what every call of this tool must carry: required
		// flags and one flag of each one-required group.
		base := map[string]any{}
		if fs := schema.Properties["flags"]; fs != nil {
			for _, r := range fs.Required {
				base[r] = sampleValue(tool.Flags.Lookup(r), props[r])
			}
			for _, alt := range append(slices.Clone(fs.AnyOf), allOfAnyOf(fs)...) {
				name := alt.Required[0]
				base[name] = sampleValue(tool.Flags.Lookup(name), props[name])
			}
		}
		cases := []map[string]any{base}
		tool.Flags.VisitAll(func(f *pflag.Flag) {
			m := map[string]any{}
			for k, v := range base {
				m[k] = v
			}
			m[f.Name] = sampleValue(f, props[f.Name])
			if deps := schema.Properties["flags"].DependentRequired[f.Name]; deps != nil {
				for _, d := range deps {
					m[d] = sampleValue(tool.Flags.Lookup(d), props[d])
				}
			}
			cases = append(cases, m)
		})
		for i, flags := range cases {
			name := fmt.Sprintf("%s/%d", tool.Name, i)
			in, _ := json.Marshal(map[string]any{"flags": flags, "args": args, "argsAfterDash": afterDash})
			if afterDash == nil {
				in, _ = json.Marshal(map[string]any{"flags": flags, "args": args})
			}
			if args == nil {
				in, _ = json.Marshal(map[string]any{"flags": flags})
			}
			argv = nil
			res, err := fullView(ts).Call(context.Background(), tool.Name, in)
			if err != nil || res.IsError || argv == nil {
				t.Errorf("%s: call %s refused: %v %s", name, in, err, resultText(res))
				continue
			}
			got, err := roundtrip.Execute(mycli.New(), argv)
			if err != nil {
				t.Errorf("%s: mycli rejects argv %q: %v", name, argv, err)
				continue
			}
			if got.Command.CommandPath() != tool.Command.CommandPath() {
				t.Errorf("%s: argv %q ran %q", name, argv, got.Command.CommandPath())
			}
			if tool.Command.DisableFlagParsing {
				continue // it parses its own args; checked by the exec tests
			}
			want, err := roundtrip.Want(tool.Flags, flags)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if d := roundtrip.Diff(want, got.Flags); d != "" {
				t.Errorf("%s: flags %s: argv %q parses back differently:\n%s", name, in, argv, d)
			}
			all := append(slices.Clone(args), afterDash...)
			if !slices.Equal(got.Args, all) && !(len(all) == 0 && len(got.Args) == 0) {
				t.Errorf("%s: args %q parse back as %q (argv %q)", name, all, got.Args, argv)
			}
			// Where "--" stood, as a person would have typed these args:
			// before the hostile ones, after the plain ones, nowhere
			// without args.
			wantDash := -1
			switch {
			case afterDash != nil:
				wantDash = len(args)
			case slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-") }):
				wantDash = 0
			}
			if got.ArgsLenAtDash != wantDash {
				t.Errorf("%s: argv %q: ArgsLenAtDash %d, want %d", name, argv, got.ArgsLenAtDash, wantDash)
			}
		}
	}
}

// allOfAnyOf returns the alternatives of the one-required groups held in
// an allOf.
func allOfAnyOf(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, a := range s.AllOf {
		out = append(out, a.AnyOf...)
	}
	return out
}
