package mycli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// find returns the command at path, failing the test when it is missing.
func find(t *testing.T, root *cobra.Command, path string) *cobra.Command {
	t.Helper()
	cmd, rest, err := root.Find(strings.Fields(path))
	if err != nil || len(rest) != 0 || cmd.CommandPath() != "mycli "+path {
		t.Fatalf("command %q not found (got %q, rest %q, err %v)", path, cmd.CommandPath(), rest, err)
	}
	return cmd
}

// TestMappings checks the table of the package documentation: every mapping it names is on
// the command it names, and is not only on the echo fixture.
func TestMappings(t *testing.T) {
	t.Parallel()
	root := mycli.New()
	flagCases := []struct {
		path, flag string
		check      func(f *pflag.Flag) bool
		what       string
	}{
		{"get pods", "selector", isType("string"), "string"},
		{"get pods", "all-namespaces", isType("bool"), "bool"},
		{"get pods", "headers", defaultTrue, "bool, default true"},
		{"logs", "prefix", defaultTrue, "bool, default true"},
		{"", "verbose", isType("count"), "count"},
		{"scale deployment", "replicas", isType("int"), "int"},
		{"logs", "bytes", isType("int64"), "int64"},
		{"get pods", "limit", isType("uint"), "uint"},
		{"top_nodes", "min-cpu-percent", isType("float64"), "float64"},
		{"logs", "since", isType("duration"), "duration"},
		{"delete pod", "timeout", isType("duration"), "duration"},
		{"logs", "since-time", isType("time"), "time"},
		{"get pods", "label-columns", isType("stringSlice"), "stringSlice"},
		{"run", "env", isType("stringArray"), "stringArray"},
		{"run", "labels", isType("stringToString"), "stringToString"},
		{"apply", "labels", isType("stringToString"), "stringToString"},
		{"port-forward", "bind-address", isType("ip"), "ip"},
		{"delete pod", "dry-run", noOptDefVal("client"), "NoOptDefVal client"},
		{"apply", "dry-run", noOptDefVal("client"), "NoOptDefVal client"},
		{"run", "dry-run", noOptDefVal("client"), "NoOptDefVal client"},
		{"", "output", schemaType("string"), "jsonschema enum"},
		{"run", "overrides", schemaType("object"), "jsonschema object"},
		{"apply", "filename", annotated(cobra.BashCompOneRequiredFlag), "required"},
		{"scale deployment", "replicas", annotated(cobra.BashCompOneRequiredFlag), "required"},
		{"delete pod", "all", group("cobra_annotation_mutually_exclusive", "all selector"), "mutually exclusive"},
		{"logs", "follow", group("cobra_annotation_mutually_exclusive", "follow previous"), "mutually exclusive"},
		{"logs", "since", group("cobra_annotation_mutually_exclusive", "since since-time"), "mutually exclusive"},
		{"port-forward", "tls-cert", group("cobra_annotation_required_if_others_set", "tls-cert tls-key"), "required together"},
		{"run", "image", group("cobra_annotation_one_required", "image overrides"), "one required"},
		{"get pods", "show-all", func(f *pflag.Flag) bool { return f.Deprecated != "" }, "deprecated"},
		{"get pods", "label-columns", func(f *pflag.Flag) bool { return f.Shorthand == "L" }, "shorthand"},
	}
	for _, c := range flagCases {
		cmd := root
		if c.path != "" {
			cmd = find(t, root, c.path)
		}
		f := cmd.Flags().Lookup(c.flag)
		if f == nil {
			f = cmd.PersistentFlags().Lookup(c.flag)
		}
		if f == nil {
			t.Errorf("%q: no flag --%s", c.path, c.flag)
			continue
		}
		if !c.check(f) {
			t.Errorf("%q --%s is not %s (type %s, annotations %v)", c.path, c.flag, c.what, f.Value.Type(), f.Annotations)
		}
	}

	cmdCases := []struct {
		path  string
		check func(c *cobra.Command) bool
		what  string
	}{
		{"version", argsRejects(1), "NoArgs"},
		{"get services", argsRejects(1), "NoArgs"},
		{"describe pod", func(c *cobra.Command) bool {
			return argsRejects(0)(c) && argsRejects(2)(c) && c.Args(c, []string{"a"}) == nil
		}, "ExactArgs(1)"},
		{"label", func(c *cobra.Command) bool {
			return argsRejects(0)(c) && argsRejects(3)(c) && c.Args(c, []string{"a"}) == nil && c.Args(c, []string{"a", "b"}) == nil
		}, "RangeArgs(1, 2)"},
		{"port-forward", func(c *cobra.Command) bool { return argsRejects(0)(c) && c.Args(c, []string{"a", "b", "c"}) == nil }, "MinimumNArgs(1)"},
		{"echo", func(c *cobra.Command) bool { return c.Args == nil }, "no validator"},
		{"exec", func(c *cobra.Command) bool { return c.DisableFlagParsing }, "DisableFlagParsing"},
		{"get", func(c *cobra.Command) bool { return !c.Runnable() && c.HasSubCommands() }, "a non-runnable group"},
		{"describe", func(c *cobra.Command) bool { return !c.Runnable() && c.HasSubCommands() }, "a non-runnable group"},
		{"debug-dump", func(c *cobra.Command) bool { return c.Hidden && c.Runnable() }, "hidden"},
		{"list", func(c *cobra.Command) bool { return c.Deprecated == "use get" }, "deprecated"},
		{"top_nodes", func(c *cobra.Command) bool { return c.Runnable() && !c.Hidden }, "a visible command named with _"},
		{"show-helpers", func(c *cobra.Command) bool { return c.Runnable() && !c.Hidden }, "a visible command named with help"},
		{"get pods", ann("mcp.readOnlyHint", "true"), "read-only"},
		{"get pods", ann("mcp.tags", "k8s, read only"), "tagged"},
		{"get pods", ann("mcp.title", "List pods"), "titled"},
		{"delete pod", ann("mcp.destructiveHint", "true"), "destructive"},
		{"scale deployment", ann("mcp.idempotentHint", "true"), "idempotent"},
		{"logs", func(c *cobra.Command) bool { return c.GroupID == mycli.GroupTroubleshooting }, "in group troubleshooting"},
		{"sleep", func(c *cobra.Command) bool { return c.GroupID == mycli.GroupTesting && !c.Hidden }, "a visible fixture"},
	}
	for _, c := range cmdCases {
		if cmd := find(t, root, c.path); !c.check(cmd) {
			t.Errorf("%q is not %s", c.path, c.what)
		}
	}
	if root.Version != mycli.Version || !root.ContainsGroup(mycli.GroupBasic) {
		t.Errorf("root: version %q, groups %v", root.Version, root.Groups())
	}
}

func isType(typ string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool { return f.Value.Type() == typ }
}

func defaultTrue(f *pflag.Flag) bool { return f.Value.Type() == "bool" && f.DefValue == "true" }

func noOptDefVal(v string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool { return f.Value.Type() == "string" && f.NoOptDefVal == v }
}

func annotated(key string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool { return len(f.Annotations[key]) == 1 && f.Annotations[key][0] == "true" }
}

func group(key, names string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool { return len(f.Annotations[key]) == 1 && f.Annotations[key][0] == names }
}

// schemaType checks that the flag's jsonschema annotation is one valid JSON object of type typ.
func schemaType(typ string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool {
		vals := f.Annotations["jsonschema"]
		var s map[string]any
		return len(vals) == 1 && json.Unmarshal([]byte(vals[0]), &s) == nil && s["type"] == typ
	}
}

func argsRejects(n int) func(*cobra.Command) bool {
	return func(c *cobra.Command) bool {
		return c.Args != nil && c.Args(c, make([]string, n)) != nil
	}
}

func ann(key, value string) func(*cobra.Command) bool {
	return func(c *cobra.Command) bool { return c.Annotations[key] == value }
}

// TestSchemaAnnotations checks the content of the two jsonschema annotations.
func TestSchemaAnnotations(t *testing.T) {
	t.Parallel()
	root := mycli.New()
	var output struct {
		Type string   `json:"type"`
		Enum []string `json:"enum"`
	}
	if err := json.Unmarshal([]byte(root.PersistentFlags().Lookup("output").Annotations["jsonschema"][0]), &output); err != nil {
		t.Fatal(err)
	}
	if strings.Join(output.Enum, ",") != "table,json,yaml,name" {
		t.Errorf("--output enum %q", output.Enum)
	}
	var overrides struct {
		Required             []string       `json:"required"`
		Properties           map[string]any `json:"properties"`
		AdditionalProperties *bool          `json:"additionalProperties"`
	}
	run := find(t, root, "run")
	if err := json.Unmarshal([]byte(run.Flags().Lookup("overrides").Annotations["jsonschema"][0]), &overrides); err != nil {
		t.Fatal(err)
	}
	if len(overrides.Required) != 1 || overrides.Required[0] != "image" || len(overrides.Properties) != 2 ||
		overrides.AdditionalProperties == nil || *overrides.AdditionalProperties {
		t.Errorf("--overrides schema %+v", overrides)
	}
}

// TestEveryCommandDocumented keeps the tree presentable: each visible command has a Short.
func TestEveryCommandDocumented(t *testing.T) {
	t.Parallel()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Short == "" {
			t.Errorf("%q has no Short", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(mycli.New())
}
