package external_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/external"
	"github.com/spf13/pflag"
)

// mycliBin returns the built mycli ($MYCLI_BIN, as `make test` sets it),
// building it into a temporary directory when unset.
func mycliBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MYCLI_BIN"); p != "" {
		return p
	}
	return goBuild(t, "../example", "mycli")
}

// goBuild builds the main package in dir (its own module or this one)
// into a temporary directory.
func goBuild(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, b)
	}
	return out
}

// difference is one way the outside reflection differs from the
// in-process one; kind names a row of the known-limits table in
// docs/external.md.
type difference struct {
	kind, tool, detail string
}

func (d difference) String() string { return d.kind + ": " + d.tool + ": " + d.detail }

func compareToolsets(in, out []*mcp.Tool, annotated map[string]bool) []difference {
	var diffs []difference
	byName := map[string]*mcp.Tool{}
	for _, t := range out {
		byName[t.Name] = t
	}
	for _, t := range in {
		o := byName[t.Name]
		delete(byName, t.Name)
		if o == nil {
			diffs = append(diffs, difference{"tool-missing", t.Name, "served in-process only"})
			continue
		}
		diffs = append(diffs, compareTool(t, o, annotated)...)
	}
	for name := range byName {
		diffs = append(diffs, difference{"tool-extra", name, "served from outside only"})
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].String() < diffs[j].String() })
	return diffs
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func compareTool(in, out *mcp.Tool, annotated map[string]bool) []difference {
	var diffs []difference
	add := func(kind, format string, a ...any) {
		diffs = append(diffs, difference{kind, in.Name, fmt.Sprintf(format, a...)})
	}
	si, so := in.InputSchema.(*jsonschema.Schema), out.InputSchema.(*jsonschema.Schema)
	fi, fo := si.Properties["flags"], so.Properties["flags"]
	names := map[string]bool{}
	if fi != nil {
		for n := range fi.Properties {
			names[n] = true
		}
	}
	if fo != nil {
		for n := range fo.Properties {
			names[n] = true
		}
	}
	for n := range names {
		var a, b *jsonschema.Schema
		if fi != nil {
			a = fi.Properties[n]
		}
		if fo != nil {
			b = fo.Properties[n]
		}
		switch {
		case a == nil:
			add("flag-extra", "--%s", n)
		case b == nil:
			add("flag-missing", "--%s", n)
		case js(a) != js(b):
			kind := "flag-schema"
			if annotated[n] {
				kind = "flag-annotation"
			} else if a.Type != b.Type || js(a.Items) != js(b.Items) || js(a.AdditionalProperties) != js(b.AdditionalProperties) {
				kind = "flag-type"
			} else if js(a.Default) != js(b.Default) {
				kind = "flag-default"
			}
			add(kind, "--%s: in-process %s, outside %s", n, js(a), js(b))
		}
	}
	var ri, ro []string
	if fi != nil {
		ri = fi.Required
	}
	if fo != nil {
		ro = fo.Required
	}
	if !slices.Equal(ri, ro) {
		add("flag-required", "in-process %v, outside %v", ri, ro)
	}
	if fi != nil && fo != nil && (js(fi.AllOf) != js(fo.AllOf) || js(fi.AnyOf) != js(fo.AnyOf) || js(fi.Not) != js(fo.Not) || js(fi.DependentRequired) != js(fo.DependentRequired)) {
		add("flag-groups", "in-process %s, outside %s", js(fi), js(fo))
	}
	ai, ao := si.Properties["args"], so.Properties["args"]
	if js(ai) != js(ao) {
		// The description states the count too: any difference is one of
		// arity.
		add("args-arity", "in-process %s, outside %s", js(ai), js(ao))
	}
	if di, do := si.Properties["argsAfterDash"], so.Properties["argsAfterDash"]; (di == nil) != (do == nil) {
		add("args-after-dash", "in-process %s, outside %s", js(di), js(do))
	}
	if !slices.Equal(si.Required, so.Required) && (ai == nil) == (ao == nil) {
		add("args-arity", "required in-process %v, outside %v", si.Required, so.Required)
	}
	if in.Description != out.Description {
		kind := "description"
		if groupSentences.ReplaceAllString(in.Description, "") == groupSentences.ReplaceAllString(out.Description, "") {
			kind = "flag-groups"
		}
		add(kind, "in-process %q, outside %q", in.Description, out.Description)
	}
	if js(in.Annotations) != js(out.Annotations) || in.Title != out.Title {
		add("annotations", "in-process %s, outside %s", js(in.Annotations), js(out.Annotations))
	}
	mi, mo := maps(in.Meta), maps(out.Meta)
	delete(mi, "tags")
	delete(mo, "tags")
	if !reflect.DeepEqual(mi, mo) {
		add("meta", "in-process %v, outside %v", in.Meta, out.Meta)
	}
	if js(in.Meta["tags"]) != js(out.Meta["tags"]) {
		add("tags", "in-process %v, outside %v", in.Meta["tags"], out.Meta["tags"])
	}
	if js(in.OutputSchema) != js(out.OutputSchema) {
		add("output-schema", "differs")
	}
	return diffs
}

// groupSentences matches the paragraph in which the bridge states cobra's
// flag groups.
var groupSentences = regexp.MustCompile(`\n\n((At most one of|At least one of|Flags) --[^\n]*(may be set|must be set|must be set together)\.)+`)

func maps(m mcp.Meta) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// knownLimits reads the kinds of difference that docs/external.md lists
// as known limits: the rows "| `kind` | ..." of its table.
func knownLimits(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(string(b), -1) {
		kinds[m[1]] = true
	}
	if len(kinds) == 0 {
		t.Fatal("docs/external.md lists no known limits")
	}
	return kinds
}

// TestMycliFromOutside reflects the built mycli from outside and compares
// every tool with the in-process reflection of the same tree: each
// difference is reported, and one of a kind that docs/external.md does not
// list as a known limit fails the test.
func TestMycliFromOutside(t *testing.T) {
	bin := mycliBin(t)
	r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := bridge.Tools(r.Root, &bridge.Config{Executable: r.Path})
	if err != nil {
		t.Fatal(err)
	}
	root := mycli.New()
	root.AddCommand(bridge.Command(nil))
	in, err := bridge.Tools(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	annotated := map[string]bool{}
	for _, tl := range in.List() {
		tl.Flags.VisitAll(func(f *pflag.Flag) {
			if len(f.Annotations["jsonschema"]) > 0 {
				annotated[f.Name] = true
			}
		})
	}
	known := knownLimits(t)
	diffs := compareToolsets(in.Tools(), out.Tools(), annotated)
	for _, d := range diffs {
		if known[d.kind] {
			t.Logf("known limit %s", d)
		} else {
			t.Errorf("difference not listed in docs/external.md: %s", d)
		}
	}
	for _, n := range r.Notes {
		t.Logf("note: %s", n)
	}
	if len(out.Tools()) < len(in.Tools())-2 {
		t.Errorf("outside: %d tools, in-process %d", len(out.Tools()), len(in.Tools()))
	}
}

// runBinary runs bin with args and env and returns its output.
func runBinary(bin string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	b, err := cmd.CombinedOutput()
	return string(b), err
}
