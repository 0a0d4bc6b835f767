package toolcompare

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
)

// Difference is one way the outside reflection of a tool differs from the
// in-process one. Kind names a row of the known-limits table in
// docs/external.md when the difference is a known limit: tool-missing,
// tool-extra, flag-missing, flag-extra, flag-type, flag-default,
// flag-schema, flag-annotation, flag-required, flag-groups, args-arity,
// args-after-dash, description, annotations, meta, tags, output-schema.
type Difference struct {
	Kind, Tool, Detail string
}

func (d Difference) String() string { return d.Kind + ": " + d.Tool + ": " + d.Detail }

// Tools compares the tools served in-process (in) with those served from
// outside (out), by name, and returns every difference sorted. annotated
// names the flags that carry a jsonschema annotation in-process (see
// Annotated): a difference in their schema is of kind flag-annotation.
func Tools(in, out []*mcp.Tool, annotated map[string]bool) []Difference {
	var diffs []Difference
	byName := map[string]*mcp.Tool{}
	for _, t := range out {
		byName[t.Name] = t
	}
	for _, t := range in {
		o := byName[t.Name]
		delete(byName, t.Name)
		if o == nil {
			diffs = append(diffs, Difference{"tool-missing", t.Name, "served in-process only"})
			continue
		}
		diffs = append(diffs, Tool(t, o, annotated)...)
	}
	for name := range byName {
		diffs = append(diffs, Difference{"tool-extra", name, "served from outside only"})
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].String() < diffs[j].String() })
	return diffs
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Tool compares one tool served in-process with the tool of the same name
// served from outside.
func Tool(in, out *mcp.Tool, annotated map[string]bool) []Difference {
	var diffs []Difference
	add := func(kind, format string, a ...any) {
		diffs = append(diffs, Difference{kind, in.Name, fmt.Sprintf(format, a...)})
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
	for _, n := range slices.Sorted(maps.Keys(names)) {
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
	mi, mo := metaMap(in.Meta), metaMap(out.Meta)
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

func metaMap(m mcp.Meta) map[string]any {
	out := map[string]any{}
	maps.Copy(out, m)
	return out
}

// Annotated returns the names of the flags, in any of the flag sets, that
// carry a jsonschema annotation (an enum, an object schema): reflection
// from outside cannot see it, and serves such a flag by its pflag type.
func Annotated(sets ...*pflag.FlagSet) map[string]bool {
	annotated := map[string]bool{}
	for _, fs := range sets {
		fs.VisitAll(func(f *pflag.Flag) {
			if len(f.Annotations["jsonschema"]) > 0 {
				annotated[f.Name] = true
			}
		})
	}
	return annotated
}

// knownRow matches a row of the known-limits table: "| `kind` | ...".
var knownRow = regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|")

// KnownLimits reads the kinds of difference that the document at path
// (docs/external.md) lists as known limits: the rows "| `kind` | ..." of
// its table. A document that lists none is an error.
func KnownLimits(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the known limits: %w", err)
	}
	kinds := map[string]bool{}
	for _, m := range knownRow.FindAllStringSubmatch(string(b), -1) {
		kinds[m[1]] = true
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("%s lists no known limits", path)
	}
	return kinds, nil
}

// Count returns how many differences there are of each kind.
func Count(diffs []Difference) map[string]int {
	n := map[string]int{}
	for _, d := range diffs {
		n[d.Kind]++
	}
	return n
}
