package toolset_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/toolset"
)

// recordingTree is mycli whose calls never run: a middleware records each
// call's argv and answers "ok".
func recordingTree(t *testing.T) (*toolset.Toolset, *[][]string) {
	t.Helper()
	var argvs [][]string
	cfg := &toolset.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*execResult, error) {
			argvs = append(argvs, c.Argv)
			return &execResult{Stdout: "ok"}, nil
		}
	}}}
	root := mycli.New()
	root.AddCommand(bridge.Command(cfg))
	ts, err := toolset.New(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ts, &argvs
}

func listedNames(ts *toolset.Served) []string {
	var out []string
	for _, t := range ts.Tools() {
		out = append(out, t.Name)
	}
	return out
}

func TestPolicySelects(t *testing.T) {
	ts, _ := recordingTree(t)
	tests := []struct {
		name string
		p    toolset.Policy
		want []string // a sample that must be listed
		not  []string // a sample that must be neither listed nor callable
	}{
		{"tools", toolset.Policy{Tools: []string{"mycli_get_*"}}, []string{"mycli_get_pods"}, []string{"mycli_delete_pod", "mycli_version"}},
		{"exclude wins", toolset.Policy{Tools: []string{"mycli_get_*"}, ExcludeTools: []string{"mycli_get_pods"}}, []string{"mycli_get_services"}, []string{"mycli_get_pods"}},
		{"exclude only", toolset.Policy{ExcludeTools: []string{"mycli_delete_*", "mycli_fail"}}, []string{"mycli_get_pods", "mycli_version"}, []string{"mycli_delete_pod", "mycli_fail"}},
		{"read-only", toolset.Policy{ReadOnly: true}, []string{"mycli_get_pods", "mycli_logs"}, []string{"mycli_delete_pod", "mycli_scale_deployment", "mycli_run", "mycli_apply"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ts.View(toolset.Listing{}, tt.p)
			if err != nil {
				t.Fatal(err)
			}
			got := listedNames(v)
			for _, n := range tt.want {
				if !slices.Contains(got, n) {
					t.Errorf("%s not listed: %v", n, got)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(got, n) {
					t.Errorf("%s listed", n)
				}
				if _, err := v.Call(context.Background(), n, nil); err == nil || !strings.Contains(err.Error(), "not served") {
					t.Errorf("call of hidden %s: err %v, want a refusal saying it is not served", n, err)
				}
				if _, ok := v.Lookup(n); ok {
					t.Errorf("Lookup(%s) found a hidden tool", n)
				}
			}
			if tt.p.ReadOnly {
				for _, tool := range v.Tools() {
					if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
						t.Errorf("--read-only lists %s, which is not read-only", tool.Name)
					}
				}
			}
		})
	}
}

func TestPolicyErrors(t *testing.T) {
	ts := myTree()
	tests := []struct {
		p       toolset.Policy
		l       toolset.Listing
		setting toolset.Setting
		want    string
	}{
		{toolset.Policy{Tools: []string{"mycli_nope"}}, toolset.Listing{}, toolset.SettingTools, "no tool matches mycli_nope"},
		{toolset.Policy{Tools: []string{"mycli_get_*", "x*"}}, toolset.Listing{}, toolset.SettingTools, "no tool matches x*"},
		{toolset.Policy{ExcludeTools: []string{"mycli_typo"}}, toolset.Listing{}, toolset.SettingExcludeTools, "no tool matches mycli_typo"},
		{toolset.Policy{Tools: []string{"["}}, toolset.Listing{}, toolset.SettingTools, "syntax error"},
		{toolset.Policy{Tools: []string{"mycli_delete_*"}, ReadOnly: true}, toolset.Listing{}, "", "leaves no tool to serve"},
		{toolset.Policy{ExcludeTools: []string{"*"}}, toolset.Listing{}, "", "leaves no tool to serve"},
		{toolset.Policy{Pins: []toolset.Pin{{Flag: "no-such-flag", Value: "1", From: "--set"}}}, toolset.Listing{}, toolset.SettingPins, "no served tool takes a flag of that name"},
		{toolset.Policy{Pins: []toolset.Pin{{Flag: "limit", Value: "ten", From: "--set"}}}, toolset.Listing{}, toolset.SettingPins, "flag --limit=ten (pinned --set): want a number"},
		{toolset.Policy{Pins: []toolset.Pin{{Flag: "output", Value: "xml", From: "--set"}}}, toolset.Listing{}, toolset.SettingPins, "flag --output=xml (pinned --set)"},
		{toolset.Policy{}, toolset.Listing{Mode: "big"}, toolset.SettingMode, "want full, search or auto"},
	}
	for _, tt := range tests {
		_, err := ts.View(tt.l, tt.p)
		var pe *toolset.PolicyError
		if !errors.As(err, &pe) || pe.Setting != tt.setting || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("View(%+v, %+v) = %v, want a PolicyError of setting %q containing %q", tt.p, tt.l, err, tt.setting, tt.want)
		}
	}
	if _, err := ts.View(toolset.Listing{}, toolset.Policy{ExcludeTools: []string{"*"}}); !errors.Is(err, toolset.ErrNothingServed) {
		t.Errorf("a policy leaving nothing: %v, want ErrNothingServed", err)
	}
}

func TestPinsLeaveSchemasAndJoinCalls(t *testing.T) {
	ts, argvs := recordingTree(t)
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{
		{Flag: "namespace", Value: "staging", From: "--set"},
		{Flag: "limit", Value: "5", From: "--set"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range v.Tools() {
		b, _ := json.Marshal(tool.InputSchema)
		if strings.Contains(string(b), `"namespace":`) {
			t.Errorf("%s still lists the pinned --namespace", tool.Name)
		}
	}
	// The toolset itself is unchanged.
	if s := schemaJSON(t, ts, "mycli_get_pods"); !strings.Contains(fmt.Sprint(s), "namespace") {
		t.Error("Restrict changed the unrestricted toolset's schema")
	}
	res, err := v.Call(context.Background(), "mycli_get_pods", json.RawMessage(`{"flags":{"output":"json"}}`))
	if err != nil || res.IsError {
		t.Fatalf("call: %v %s", err, resultText(res))
	}
	got := (*argvs)[len(*argvs)-1]
	for _, want := range []string{"--namespace=staging", "--limit=5", "--output=json"} {
		if !slices.Contains(got, want) {
			t.Errorf("argv %q lacks %s", got, want)
		}
	}
	n := len(*argvs)
	for _, args := range []string{`{"flags":{"namespace":"prod"}}`, `{"flags":{"namespace":null}}`, `{"flags":{"limit":1,"namespace":"x"}}`} {
		res, err = v.Call(context.Background(), "mycli_get_pods", json.RawMessage(args))
		if err != nil || !res.IsError || !strings.Contains(resultText(res), "is pinned by whoever started this server") || !strings.Contains(resultText(res), "Nothing was run") ||
			strings.Contains(resultText(res), "staging") {
			t.Errorf("%s: a call overriding a pin: %v %q", args, err, resultText(res))
		}
	}
	if len(*argvs) != n {
		t.Error("a call overriding a pin ran")
	}
	// A tool without the flag is unaffected; bad input is still refused
	// by the usual validation.
	if res, _ := v.Call(context.Background(), "mycli_get_pods", json.RawMessage(`{"flags":{"nope":1}}`)); !res.IsError || !strings.Contains(resultText(res), `unknown flag "nope"`) {
		t.Errorf("unknown flag with pins: %q", resultText(res))
	}
}

func TestPinValues(t *testing.T) {
	ts, argvs := recordingTree(t)
	// mycli run: --env is a stringArray, --port an int, --labels a map;
	// echo: every kind of flag. Pins are written as on a command line.
	tests := []struct {
		tool string
		pin  toolset.Pin
		want string
	}{
		{"mycli_get_pods", toolset.Pin{Flag: "all-namespaces", Value: "true"}, "--all-namespaces=true"},
		{"mycli_get_pods", toolset.Pin{Flag: "verbose", Value: "2"}, "--verbose=2"},
		{"mycli_get_pods", toolset.Pin{Flag: "label-columns", Value: "app,tier"}, "--label-columns=app,tier"},
		{"mycli_get_pods", toolset.Pin{Flag: "label-columns", Value: `["a,b","c"]`}, `--label-columns="a,b",c`},
	}
	for _, tt := range tests {
		v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{tt.pin}})
		if err != nil {
			t.Errorf("%+v: %v", tt.pin, err)
			continue
		}
		res, err := v.Call(context.Background(), tt.tool, nil)
		if err != nil || res.IsError {
			t.Errorf("%+v: %v %s", tt.pin, err, resultText(res))
			continue
		}
		if got := (*argvs)[len(*argvs)-1]; !slices.Contains(got, tt.want) {
			t.Errorf("%+v: argv %q lacks %s", tt.pin, got, tt.want)
		}
	}
}

// policyTree is a generated tree with names chosen to trip glob patterns:
// shared prefixes, '-' and '_', read-only and not.
func policyTree(rng *rand.Rand) *cobra.Command {
	root := &cobra.Command{Use: "pt"}
	words := []string{"get", "get-all", "getx", "del", "a_b", "a", "b", "list", "x-y", "run"}
	for i := range 25 {
		g := root
		depth := 1 + rng.Intn(3)
		for d := range depth {
			name := words[rng.Intn(len(words))]
			if d == depth-1 {
				name = fmt.Sprintf("%s%d", name, i)
			}
			sub, _, err := g.Find([]string{name})
			if err != nil || sub == g {
				sub = &cobra.Command{Use: name}
				g.AddCommand(sub)
			}
			g = sub
		}
		g.RunE = noop
		if rng.Intn(2) == 0 {
			g.Annotations = map[string]string{bridge.AnnotationReadOnly: "true"}
		}
	}
	return root
}

// TestPolicyProperty checks, over random trees and random patterns, that
// what a policy lists is exactly what an independent reading of the rules
// allows, and that nothing else can be called, in full and search mode.
func TestPolicyProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	alphabet := []string{"*", "*", "*", "?", "pt_", "get", "a", "_", "-", "b", "[a-g]", "[!a]", "0", "1", "del", "*_*"}
	randPattern := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(3) {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	checked := 0
	for range 500 {
		ts := mustTools(t, policyTree(rng), nil)
		all := ts.List()
		var p toolset.Policy
		var l toolset.Listing
		for range rng.Intn(3) {
			p.Tools = append(p.Tools, randPattern())
		}
		for range rng.Intn(3) {
			p.ExcludeTools = append(p.ExcludeTools, randPattern())
		}
		p.ReadOnly = rng.Intn(3) == 0
		if rng.Intn(2) == 0 {
			l.Mode = toolset.ToolModeSearch
		}
		matches := func(pats []string, name string) bool {
			for _, pat := range pats {
				if ok, _ := path.Match(pat, name); ok {
					return true
				}
			}
			return false
		}
		allowed := map[string]bool{}
		for _, tool := range all {
			n := tool.Name
			if (len(p.Tools) == 0 || matches(p.Tools, n)) && !matches(p.ExcludeTools, n) && (!p.ReadOnly || tool.ReadOnly()) {
				allowed[n] = true
			}
		}
		v, err := ts.View(l, p)
		if err != nil {
			continue // a pattern matching nothing, or nothing left: refused, nothing served
		}
		checked++
		var served []string
		for _, tool := range v.List() {
			served = append(served, tool.Name)
			if !allowed[tool.Name] {
				t.Fatalf("policy %+v serves %s", p, tool.Name)
			}
		}
		if len(served) != len(allowed) {
			t.Fatalf("policy %+v serves %v, want %d tools", p, served, len(allowed))
		}
		for _, tool := range all {
			n := tool.Name
			if allowed[n] {
				continue
			}
			if l.Mode == toolset.ToolModeSearch {
				res, err := v.Call(context.Background(), "pt_run_command", json.RawMessage(fmt.Sprintf(`{"command":%q}`, n)))
				if err != nil || !res.IsError || !strings.Contains(resultText(res), "Nothing was run") {
					t.Fatalf("policy %+v: run of hidden %s: %v %q", p, n, err, resultText(res))
				}
				res, _ = v.Call(context.Background(), "pt_describe_command", json.RawMessage(fmt.Sprintf(`{"command":%q}`, n)))
				if !res.IsError {
					t.Fatalf("policy %+v: describe of hidden %s answered", p, n)
				}
				res, _ = v.Call(context.Background(), "pt_search_commands", json.RawMessage(fmt.Sprintf(`{"query":%q,"limit":25}`, strings.ReplaceAll(n, "_", " "))))
				if strings.Contains(resultText(res), `"`+n+`"`) {
					t.Fatalf("policy %+v: search shows hidden %s", p, n)
				}
				if listed := listAll(t, v, "pt_list_commands"); strings.Contains(listed, `"`+n+`"`) {
					t.Fatalf("policy %+v: list shows hidden %s", p, n)
				}
			} else if _, err := v.Call(context.Background(), n, nil); err == nil {
				t.Fatalf("policy %+v: hidden %s is callable", p, n)
			}
		}
	}
	if checked < 60 {
		t.Errorf("only %d random policies were servable; the generator needs work", checked)
	}
}

// TestRestrictedSchemaResolves checks that a listed schema without its
// pinned flags is still a valid schema.
func TestRestrictedSchemaResolves(t *testing.T) {
	v, err := myTree().View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "namespace", Value: "x"}, {Flag: "output", Value: "json"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range v.Tools() {
		s, ok := tool.InputSchema.(*jsonschema.Schema)
		if !ok {
			t.Fatalf("%s: schema %T", tool.Name, tool.InputSchema)
		}
		if _, err := s.CloneSchemas().Resolve(nil); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
		}
	}
}

// TestNamesTheToolMeant: an unknown tool name with a typo, and a --tools
// pattern written without the CLI's prefix, are answered with the name
// meant.
func TestNamesTheToolMeant(t *testing.T) {
	ts := myTree()
	for name, want := range map[string]string{
		"mycli_get_pds":  `did you mean "mycli_get_pods"?`, // a typo
		"mycli_gte_pods": `did you mean "mycli_get_pods"?`,
		"get_pods":       `did you mean "mycli_get_pods"?`, // the prefix left out
		"mycli_zzz":      `unknown tool "mycli_zzz"`,
	} {
		_, err := fullView(ts).Call(context.Background(), name, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Call(%s): %v, want %q", name, err, want)
		}
	}
	_, err := ts.View(toolset.Listing{}, toolset.Policy{Tools: []string{"get_*"}})
	if want := `no tool matches get_* (tool names begin with "mycli_": did you mean mycli_get_*?)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("--tools get_*: %v, want %q", err, want)
	}
}

// listAll returns the answers of the list tool for the top level and for
// every group it names, joined.
func listAll(t *testing.T, v *toolset.Served, list string) string {
	t.Helper()
	var b strings.Builder
	groups := []string{""}
	for len(groups) > 0 {
		g := groups[0]
		groups = groups[1:]
		arg, _ := json.Marshal(map[string]string{"group": g})
		res, err := v.Call(context.Background(), list, arg)
		if err != nil || res.IsError {
			t.Fatalf("%s %s: %v %s", list, arg, err, resultText(res))
		}
		b.WriteString(resultText(res))
		var out struct {
			Commands []struct {
				Path        string
				Subcommands []string
			}
		}
		_ = json.Unmarshal([]byte(resultText(res)), &out)
		for _, e := range out.Commands {
			if len(e.Subcommands) > 0 {
				groups = append(groups, e.Path)
			}
		}
	}
	return b.String()
}
