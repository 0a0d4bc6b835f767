package roundtrip

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// Calls says what [FuzzCalls] tries.
type Calls struct {
	// New returns a fresh tree; it is called for the toolset and twice
	// for each call read back.
	New func() *cobra.Command
	// Config is the toolset configuration (nil: the defaults);
	// FuzzCalls appends a middleware that captures the argv instead of
	// running the command.
	Config *toolset.Config
	// PerTool is the number of calls drawn for each tool; Seed seeds
	// the draws.
	PerTool int
	Seed    uint64
	// Reader names the tree in failure messages ("kubectl").
	Reader string
}

// CallCounts says how many calls [FuzzCalls] made.
type CallCounts struct {
	Tools   int // tools called
	Calls   int // calls drawn
	Refused int // calls the tool refused (the draws are often wrong on purpose)
	Read    int // calls whose argv the tree read back exactly
	// CLIRefused is how many argv the CLI itself refused: a value that a
	// flag type of its own or its Args validator refuses, which a schema
	// cannot tell.
	CLIRefused int
	Dash       int // of those, calls whose args follow "--"
}

// FuzzCalls draws random calls for every tool of c.New()'s tree, each
// shaped by the tool's own schema and often hostile (args that are
// sub-command names of the tool's command, their prefixes, in upper case,
// that begin with "-", "" and "-"; flag values of every kind), and
// requires every call the tool accepts to be read back by the real cobra
// and pflag parsers of a fresh tree exactly as asked: the tool's command
// runs, with the flags asked (Changed for exactly those) and the args
// asked, and ArgsLenAtDash as when a person types the args. That last is
// told by the tree itself, not by the argv builder: the argv without its
// "--" runs the same command with the same flags and args exactly when a
// person would type no "--", and then the command must see -1, else 0.
// Every mismatch is reported through t; the counts let the caller insist
// that enough calls were read back.
func FuzzCalls(t testing.TB, c Calls) CallCounts {
	t.Helper()
	var argv []string
	var cfg toolset.Config
	if c.Config != nil {
		cfg = *c.Config
	}
	cfg.Middleware = append(slices.Clone(cfg.Middleware), func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, call *toolset.Call) (*toolset.Result, error) {
			argv = slices.Clone(call.Argv)
			return &toolset.Result{}, nil
		}
	})
	ts, err := toolset.New(c.New(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{Expanded: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(c.Seed, 37))
	var n CallCounts
	for _, tool := range v.List() {
		n.Tools++
		schema, ok := tool.Definition().InputSchema.(*jsonschema.Schema)
		if !ok {
			t.Fatalf("%s: input schema %T", tool.Name, tool.Definition().InputSchema)
		}
		words := wordsFor(tool.Command)
		for range c.PerTool {
			n.Calls++
			flags, args := drawCall(r, schema, words)
			for k := range flags {
				if strings.Contains(k, ".") {
					delete(flags, k) // an ancestor's, renamed (TraverseChildren)
				}
			}
			in, err := json.Marshal(map[string]any{"flags": flags, "args": args})
			if err != nil {
				t.Fatal(err)
			}
			argv = nil
			res, err := v.Call(context.Background(), tool.Name, in)
			if err != nil {
				t.Fatalf("%s %s: %v", tool.Name, in, err)
			}
			if res.IsError || argv == nil {
				n.Refused++
				continue
			}
			switch ok, refused := readBack(t, c, tool, flags, args, argv); {
			case refused:
				n.CLIRefused++
			case ok:
				n.Read++
				if i := len(argv) - len(args) - 1; i >= 0 && argv[i] == "--" {
					n.Dash++
				}
			}
		}
	}
	return n
}

// readBack runs argv on a fresh tree and reports (through t) any way in
// which the command that ran saw something other than what was asked; ok
// when it saw exactly that, cliRefused when a flag type of the CLI's own
// refused a value.
func readBack(t testing.TB, c Calls, tool *toolset.Tool, flags map[string]any, args []string, argv []string) (ok, cliRefused bool) {
	t.Helper()
	name := fmt.Sprintf("%s: %s %q", c.Reader, tool.Name, argv)
	root := failingQuietly(c.New())
	leaf, _, err := root.Find(tool.Path)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false, false
	}
	leaf.InitDefaultHelpFlag()
	want, err := Want(tool.Flags, flags)
	if err != nil {
		t.Errorf("%s: the tool accepted a value its flag does not take: %v", name, err)
		return false, false
	}
	// An ancestor's flag read under TraverseChildren is the ancestor's
	// (its local flag): the command's own parse does not hold it.
	for k := range want {
		if leaf.Flags().Lookup(k) == nil {
			delete(want, k)
		}
	}
	got, err := Execute(root, argv)
	if err != nil {
		if refusedValue(c, tool, flags, err) || leaf.ValidateArgs(args) != nil {
			// The flag refuses the value itself, or the command's Args
			// validator the args (docker's "invalid scale specifier"):
			// values the schema let through, not an argv read wrong.
			return false, true
		}
		t.Errorf("%s: %v", name, err)
		return false, false
	}
	path := strings.Join(append([]string{got.Command.Root().Name()}, tool.Path...), " ")
	if got.Command.CommandPath() != path {
		t.Errorf("%s ran %q, want %q", name, got.Command.CommandPath(), path)
		return false, false
	}
	// A type of the CLI's own prints its value its own way (docker's
	// "-1B" for "-1", a list as "[a b]"): that the command got it is what
	// can be told.
	for k := range want {
		if f := leaf.Flags().Lookup(k); f != nil && !builtinTypes[f.Value.Type()] {
			if _, ok := got.Flags[k]; !ok {
				t.Errorf("%s: --%s not set", name, k)
				return false, false
			}
			delete(want, k)
			delete(got.Flags, k)
		}
	}
	if d := Diff(want, got.Flags); d != "" {
		t.Errorf("%s:\n%s", name, d)
		return false, false
	}
	if !slices.Equal(got.Args, args) && !(len(args) == 0 && len(got.Args) == 0) {
		t.Errorf("%s: args %q, want %q", name, got.Args, args)
		return false, false
	}
	if got.Command.DisableFlagParsing {
		return true, false // cobra records no "--" for it
	}
	wantDash := -1
	// The args are argv's tail; a "--" is the one before them (one among
	// them is an arg: after the first arg of a command whose flags stop
	// there).
	if i := len(argv) - len(args) - 1; i >= 0 && argv[i] == "--" {
		plain := slices.Delete(slices.Clone(argv), i, i+1)
		same, err := Execute(failingQuietly(c.New()), plain)
		if err != nil || same.Command.CommandPath() != path || !slices.Equal(same.Args, got.Args) || Diff(got.Flags, same.Flags) != "" {
			wantDash = 0 // a person must type the "--" too
		}
	}
	if got.ArgsLenAtDash != wantDash {
		t.Errorf("%s: ArgsLenAtDash %d, want %d (as a person types the args)", name, got.ArgsLenAtDash, wantDash)
		return false, false
	}
	return true, false
}

// failingQuietly makes every command of root return its flag errors
// rather than handle them (kubectl's exit the process): a value a flag
// refuses, or the argv without its "--", may not parse,
// which is an answer.
func failingQuietly(root *cobra.Command) *cobra.Command {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return root
}

// refusedValue reports whether err is pflag's refusal of a flag's value
// that the flag refuses when it is given the value directly, on a fresh
// tree (a time, gh's enums, klog's level): the schema let it through, and
// the argv carried it as asked.
func refusedValue(c Calls, tool *toolset.Tool, flags map[string]any, err error) bool {
	m := invalidArgument().FindStringSubmatch(err.Error())
	if m == nil {
		return false
	}
	v, ok := flags[m[1]]
	if !ok {
		return false
	}
	leaf, _, ferr := c.New().Find(tool.Path)
	if ferr != nil {
		return false
	}
	leaf.InheritedFlags()
	f := leaf.Flags().Lookup(m[1])
	if f == nil {
		return false
	}
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	for _, it := range items {
		text, ok := it.(string)
		if !ok {
			text = fmt.Sprint(it)
		}
		if f.Value.Set(text) != nil {
			return true
		}
	}
	return false
}

var invalidArgument = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`invalid argument ".*" for "(?:-\w, )?--([^"]+)" flag`)
})

// builtinTypes are pflag's own value types, whose values the schemas
// constrain.
var builtinTypes = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "count": true,
	"float32": true, "float64": true, "duration": true, "ip": true, "ipMask": true, "ipNet": true,
	"bytesHex": true, "bytesBase64": true, "stringSlice": true, "stringArray": true, "intSlice": true,
	"int32Slice": true, "int64Slice": true, "uintSlice": true, "float32Slice": true, "float64Slice": true,
	"boolSlice": true, "durationSlice": true, "ipSlice": true, "ipNetSlice": true,
	"stringToString": true, "stringToInt": true, "stringToInt64": true,
}

// wordsFor returns the words drawn as args for a tool of cmd: its
// sub-commands' names and aliases, prefixes of them and the same in upper
// case, for the root cobra's own commands, and plain and hostile words.
func wordsFor(cmd *cobra.Command) []string {
	words := []string{"x", "web-0", "", "-", "-n", "--all", "-1", "a b", "--", "a=b"}
	var names []string
	for _, s := range cmd.Commands() {
		names = append(names, s.Name())
		names = append(names, s.Aliases...)
	}
	if !cmd.HasParent() {
		names = append(names, "help", "completion", "__complete")
	}
	for _, n := range names {
		words = append(words, n, strings.ToUpper(n))
		if len(n) > 1 {
			words = append(words, n[:len(n)/2+1], n+"s")
		}
	}
	return words
}

// drawCall draws flags and args for a tool's input schema: each flag
// with a value of its type (an enum's member, sometimes a word of the
// tool's own, sometimes the wrong type), and as many args as the schema
// allows, often words that name the command's sub-commands.
func drawCall(r *rand.Rand, schema *jsonschema.Schema, words []string) (map[string]any, []string) {
	flags := map[string]any{}
	if fs := schema.Properties["flags"]; fs != nil {
		names := make([]string, 0, len(fs.Properties))
		for name := range fs.Properties {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if r.IntN(6) != 0 {
				continue
			}
			if v, ok := drawValue(r, fs.Properties[name], words); ok {
				flags[name] = v
			}
		}
	}
	var args []string
	if a := schema.Properties["args"]; a != nil {
		lo, hi := 0, 3
		if a.MinItems != nil {
			lo = *a.MinItems
		}
		if a.MaxItems != nil && *a.MaxItems < hi {
			hi = *a.MaxItems
		}
		if hi < lo {
			hi = lo
		}
		for range lo + r.IntN(hi-lo+1) {
			if a.Items != nil && len(a.Items.Enum) > 0 && r.IntN(4) != 0 {
				args = append(args, fmt.Sprint(a.Items.Enum[r.IntN(len(a.Items.Enum))]))
				continue
			}
			args = append(args, words[r.IntN(len(words))])
		}
	}
	return flags, args
}

// drawValue draws a value for a flag's schema; false when it draws none.
func drawValue(r *rand.Rand, s *jsonschema.Schema, words []string) (any, bool) {
	if s == nil {
		return nil, false
	}
	if len(s.Enum) > 0 {
		return s.Enum[r.IntN(len(s.Enum))], true
	}
	typ := s.Type
	if typ == "" && len(s.Types) > 0 {
		typ = s.Types[r.IntN(len(s.Types))]
	}
	switch typ {
	case "string":
		return words[r.IntN(len(words))], true
	case "boolean":
		return r.IntN(2) == 0, true
	case "integer":
		return r.IntN(200) - 100, true
	case "number":
		return float64(r.IntN(2000)-1000) / 8, true
	case "array":
		var out []any
		for range 1 + r.IntN(3) {
			if v, ok := drawValue(r, s.Items, words); ok {
				out = append(out, v)
			}
		}
		return out, len(out) > 0
	case "object":
		if s.AdditionalProperties == nil {
			return nil, false
		}
		v, ok := drawValue(r, s.AdditionalProperties, words)
		if !ok {
			return nil, false
		}
		return map[string]any{"k" + words[r.IntN(len(words))]: v}, true
	}
	return nil, false
}
