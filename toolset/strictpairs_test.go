package toolset_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/test/strictcheck"
	"github.com/cobramcp/cobramcp/toolset"
)

// pairsTree has one command with maps of every kind: the three pflag map
// types, a map flag with a typed and one with a typeless annotation, and a
// string flag whose annotation holds a map inside an object.
func pairsTree() *cobra.Command {
	root := &cobra.Command{Use: "app"}
	set := &cobra.Command{Use: "set", Args: cobra.NoArgs, Run: func(*cobra.Command, []string) {}}
	fl := set.Flags()
	fl.StringToString("labels", nil, "labels")
	fl.StringToInt("limits", nil, "limits")
	fl.StringToInt64("sizes", nil, "sizes")
	fl.StringToString("tags", nil, "tags, at most three")
	fl.StringToString("notes", nil, "notes, at most four")
	fl.String("config", "", "the configuration as JSON")
	annotate := func(name, schema string) {
		if err := fl.SetAnnotation(name, flagschema.Annotation, []string{schema}); err != nil {
			panic(err)
		}
	}
	annotate("tags", `{"type":"object","additionalProperties":{"type":"string"},"maxProperties":3}`)
	annotate("notes", `{"maxProperties":4}`)
	annotate("config", `{"type":"object","properties":{"name":{"type":"string"},"env":{"type":"object","additionalProperties":{"type":"integer"}}},"required":["name"],"additionalProperties":false}`)
	root.AddCommand(set)
	return root
}

// TestStrictPairsRoundTrip generates inputs valid for the MCP schema, with
// unusual map keys and values, writes each in OpenAI's strict form as a
// client in strict mode sends it (every map as {key, value} pairs, every
// property left out as null), and checks that the strict schema accepts
// it and that the call path reads it back as the same call: the same argv,
// or the same refusal.
func TestStrictPairsRoundTrip(t *testing.T) {
	var argv []string
	capture := func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
			argv = c.Argv
			return &toolset.Result{}, nil
		}
	}
	ts := mustTools(t, pairsTree(), &toolset.Config{Middleware: []toolset.Middleware{capture}})
	tool, ok := ts.Lookup("app_set")
	if !ok {
		t.Fatalf("app_set left out: %v", ts.Problems())
	}
	strict, ok := strictcheck.StrictParameters(t, fullView(ts))[dialect.NameFor(dialect.OpenAI, "app_set")]
	if !ok {
		t.Fatal("app_set is not exported as a strict function")
	}
	strictSchema := strictcheck.Resolve(t, strict)
	mcpSchema := strictcheck.Resolve(t, toolset.Compact(tool).InputSchema)

	call := func(args any) (string, []string) {
		raw, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		argv = nil
		res, err := fullView(ts).Call(context.Background(), "app_set", raw)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			return resultText(res), nil
		}
		return resultText(res), slices.Clone(argv)
	}

	rng := rand.New(rand.NewPCG(18, 3))
	alphabet := []rune("ab=,[] \t\n\r\"'\\:{}\u2028\u0085\u00a0é日\U0001F600-._/~$")
	word := func() string {
		n := rng.IntN(4)
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	keyed := func(value func() any) map[string]any {
		m := map[string]any{}
		for range 1 + rng.IntN(3) {
			m[word()] = value()
		}
		return m
	}
	str := func() any { return word() }
	integer := func() any { return rng.Int64N(1<<40) - 1<<39 }
	valid, ran := 0, 0
	for range 3000 {
		flags := map[string]any{}
		maybe := func(name string, v func() any) {
			if rng.IntN(2) == 0 {
				flags[name] = v()
			}
		}
		maybe("labels", func() any { return keyed(str) })
		maybe("limits", func() any { return keyed(integer) })
		maybe("sizes", func() any { return keyed(integer) })
		maybe("tags", func() any { return keyed(str) })
		maybe("notes", func() any { return keyed(str) })
		maybe("config", func() any {
			c := map[string]any{"name": word()}
			if rng.IntN(2) == 0 {
				c["env"] = keyed(integer)
			}
			return c
		})
		orig := map[string]any{"flags": flags}
		if strictcheck.Validate(t, mcpSchema, orig) != nil {
			continue // not valid for the MCP schema: no strict counterpart is owed
		}
		valid++
		sent := strictcheck.StrictForm(strict, orig)
		if err := strictcheck.Validate(t, strictSchema, sent); err != nil {
			b, _ := json.Marshal(sent)
			t.Errorf("the strict schema refuses %s: %v", b, err)
			continue
		}
		wantText, wantArgv := call(orig)
		gotText, gotArgv := call(sent)
		if wantText != gotText || !slices.Equal(wantArgv, gotArgv) {
			b, _ := json.Marshal(sent)
			t.Errorf("strict form %s\n read as %q %q\n want    %q %q", b, gotArgv, gotText, wantArgv, wantText)
		}
		if wantArgv != nil {
			ran++
		}
	}
	if valid < 1000 || ran < 500 {
		t.Errorf("%d valid inputs, %d ran: the generator is too narrow", valid, ran)
	}
	t.Logf("%d inputs valid for the MCP schema, %d of them ran", valid, ran)
}
