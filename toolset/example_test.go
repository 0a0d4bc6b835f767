package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

func exampleRoot() *cobra.Command {
	root := &cobra.Command{Use: "mycli", Version: "1.0.0"}
	greet := &cobra.Command{
		Use:   "greet NAME",
		Short: "Greet someone",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			loud, _ := c.Flags().GetBool("loud")
			fmt.Fprintf(c.OutOrStdout(), "hello %s (loud=%v)\n", args[0], loud)
			return nil
		},
	}
	greet.Flags().Bool("loud", false, "shout")
	root.AddCommand(greet)
	return root
}

// Reflect a tree into tools, then list them as a server would, without
// serving them.
func ExampleNew() {
	ts, err := toolset.New(exampleRoot(), nil)
	if err != nil {
		panic(err)
	}
	for _, t := range ts.List() {
		fmt.Println(t.Name, "runs", t.Command.CommandPath())
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		panic(err)
	}
	for _, t := range v.Tools() {
		schema, _ := json.Marshal(t.InputSchema)
		fmt.Println(string(schema))
	}
	// Output:
	// mycli_greet runs mycli greet
	// {"type":"object","properties":{"flags":{"type":"object","properties":{"loud":{"type":"boolean","description":"shout"}},"description":"The command's flags by long name. A flag left out keeps its default.","additionalProperties":false},"args":{"type":"array","items":{"type":"string"},"description":"Positional arguments, in order: NAME. Exactly 1.","minItems":1,"maxItems":1}},"required":["args"],"additionalProperties":false}
}

// Middleware sees every call on its way to a process, with the exact argv.
func ExampleMiddleware() {
	audit := func(next toolset.RunFunc) toolset.RunFunc {
		return func(ctx context.Context, c *toolset.Call) (*execResult, error) {
			fmt.Printf("%s %q\n", c.Tool, c.Argv)
			return &execResult{Stdout: "not run in this example\n"}, nil // next(ctx, c) would run it
		}
	}
	ts, _ := toolset.New(exampleRoot(), &toolset.Config{Middleware: []toolset.Middleware{audit}})
	v, _ := ts.View(toolset.Listing{})
	res, _ := v.Call(context.Background(), "mycli_greet", json.RawMessage(`{"flags":{"loud":false},"args":["--loud"]}`))
	fmt.Println("isError:", res.IsError)
	// Output:
	// mycli_greet ["greet" "--loud=false" "--" "--loud"]
	// isError: false
}

// filters is a custom flag value whose Set adds one filter per
// occurrence, like docker's opts.FilterOpt.
type filters []string

func (f *filters) String() string     { return fmt.Sprint(*f) }
func (f *filters) Set(v string) error { *f = append(*f, v); return nil }
func (f *filters) Type() string       { return "filter" }

// Config.RepeatableTypes names, once for the whole tree, the custom value
// types that accumulate: each of their flags takes an array, written as
// one --name=ELEMENT per element.
func ExampleConfig_repeatableTypes() {
	root := &cobra.Command{Use: "dk"}
	ps := &cobra.Command{Use: "ps", RunE: func(*cobra.Command, []string) error { return nil }}
	ps.Flags().Var(&filters{}, "filter", "filter the output")
	root.AddCommand(ps)
	audit := func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*execResult, error) {
			fmt.Printf("%q\n", c.Argv)
			return &execResult{}, nil
		}
	}
	ts, _ := toolset.New(root, &toolset.Config{
		RepeatableTypes: []string{"filter"},
		Middleware:      []toolset.Middleware{audit},
	})
	v, _ := ts.View(toolset.Listing{})
	_, _ = v.Call(context.Background(), "dk_ps", json.RawMessage(`{"flags":{"filter":["status=running","name=web"]}}`))
	// Output:
	// ["ps" "--filter=status=running" "--filter=name=web"]
}
