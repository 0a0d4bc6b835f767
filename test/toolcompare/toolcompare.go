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
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
)

// Difference is one way the outside reflection of a tool differs from the
// in-process one. Kind names a row of the known-limits table in
// docs/external.md when the difference is a known limit: tool-missing,
// tool-extra, flag-missing, flag-extra, the kinds of a flag's schema (see
// flagKind), flag-required, flag-groups, args-arity, args-after-dash,
// description-missing (lines of the in-process description left out, none
// changed), description-extra (lines added to the in-process description,
// none left out or changed), description, annotations, meta, tags,
// output-schema, args-refused (the outside refuses a count of args that
// the in-process tool accepts).
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
			add(flagKind(a, b, annotated[n]), "--%s: in-process %s, outside %s", n, js(a), js(b))
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
		// arity; args-refused when the outside refuses a count that the
		// in-process tool accepts.
		kind := "args-arity"
		if refuses(ai, ao) {
			kind = "args-refused"
		}
		add(kind, "in-process %s, outside %s", js(ai), js(ao))
	}
	if di, do := si.Properties["argsAfterDash"], so.Properties["argsAfterDash"]; (di == nil) != (do == nil) {
		add("args-after-dash", "in-process %s, outside %s", js(di), js(do))
	}
	if !slices.Equal(si.Required, so.Required) && (ai == nil) == (ao == nil) {
		add("args-arity", "required in-process %v, outside %v", si.Required, so.Required)
	}
	if in.Description != out.Description {
		// The paragraph stating the flag groups is left out of both
		// first: a flag-groups difference of the schema says it.
		kind := "description"
		di, do := groupSentences().ReplaceAllString(in.Description, ""), groupSentences().ReplaceAllString(out.Description, "")
		switch {
		case di == do:
			kind = "flag-groups"
		case linesWithin(do, di):
			kind = "description-missing"
		case linesWithin(di, do):
			kind = "description-extra"
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

// argCounts returns the counts of positional args that the args schema s
// accepts: min and max (-1 for no bound); none when s is nil.
func argCounts(s *jsonschema.Schema) (min, max int) {
	if s == nil {
		return 0, 0
	}
	max = -1
	if s.MinItems != nil {
		min = *s.MinItems
	}
	if s.MaxItems != nil {
		max = *s.MaxItems
	}
	return min, max
}

// refuses reports whether the outside args schema (out) refuses a count of
// args that the in-process one (in) accepts.
func refuses(in, out *jsonschema.Schema) bool {
	mi, xi := argCounts(in)
	mo, xo := argCounts(out)
	return mo > mi || xo >= 0 && (xi < 0 || xo < xi)
}

// flagKind names the kind of difference between the schemas of one flag,
// in-process (a) and from outside (b), the first that applies:
//
//   - flag-annotation: the flag carries a jsonschema annotation in-process;
//   - flag-custom-type: in-process, a custom pflag.Value served as a string
//     whose description names its type ("(type: tristate)"), unless
//     the only difference is a default the outside lacks;
//   - flag-type: the JSON types differ (or the item or value types);
//   - flag-default-unseen: the outside schema has no default;
//   - flag-default: the defaults differ;
//   - flag-range: only the integer bounds differ (int32 served as int);
//   - flag-optional-value: only the note on the value the flag takes
//     without one ("if given without a value: X") differs;
//   - flag-usage-wrapped: only where the description's lines break
//     differs (the same words, the same spaces between them otherwise);
//   - flag-schema: anything else.
func flagKind(a, b *jsonschema.Schema, annotated bool) string {
	switch {
	case annotated:
		return "flag-annotation"
	case a.Type == "string" && customTypeNote().MatchString(a.Description):
		if a.Default != nil && b.Default == nil {
			ma, mb := schemaMap(a), schemaMap(b)
			delete(ma, "default")
			if reflect.DeepEqual(ma, mb) {
				return "flag-default-unseen" // the same custom type
			}
		}
		return "flag-custom-type"
	case a.Type != b.Type || js(a.Items) != js(b.Items) || js(a.AdditionalProperties) != js(b.AdditionalProperties):
		return "flag-type"
	case js(a.Default) != js(b.Default) && !(a.Default != nil && b.Default == nil):
		return "flag-default"
	}
	ma, mb := schemaMap(a), schemaMap(b)
	unseen := a.Default != nil && b.Default == nil
	if unseen {
		// A default the outside cannot see: the kind is that only when
		// nothing else differs.
		delete(ma, "default")
		if reflect.DeepEqual(ma, mb) {
			return "flag-default-unseen"
		}
	}
	bounds := []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
	for _, k := range bounds {
		if v, ok := mb[k]; ok && !reflect.DeepEqual(v, ma[k]) {
			// A bound the outside adds or narrows refuses calls the CLI
			// takes: not a range it merely cannot see.
			return "flag-schema"
		}
	}
	for _, k := range bounds {
		delete(ma, k)
		delete(mb, k)
	}
	if reflect.DeepEqual(ma, mb) {
		return "flag-range"
	}
	for _, m := range []map[string]any{ma, mb} {
		if d, ok := m["description"].(string); ok {
			m["description"] = noOptNote().ReplaceAllStringFunc(d, func(note string) string {
				if strings.HasPrefix(note, ";") {
					return ")" // "(type: x; if given ...)" -> "(type: x)"
				}
				return ""
			})
		}
	}
	if reflect.DeepEqual(ma, mb) {
		return "flag-optional-value"
	}
	for _, m := range []map[string]any{ma, mb} {
		if d, ok := m["description"].(string); ok {
			m["description"] = strings.Join(strings.Fields(d), " ")
		}
	}
	if reflect.DeepEqual(ma, mb) {
		return "flag-usage-wrapped"
	}
	return "flag-schema"
}

var (
	// customTypeNote matches the note flagschema gives a custom type:
	// "(type: NAME)" or "(type: NAME; ...)".
	customTypeNote = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(type: [^;)]+[;)]`) })
	// noOptNote matches flagschema's note on a flag's NoOptDefVal, alone
	// in its parentheses or after another note.
	noOptNote = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(` \(if given without a value: [^)]*\)$|; if given without a value: [^)]*\)$`)
	})
)

func schemaMap(s *jsonschema.Schema) map[string]any {
	var m map[string]any
	_ = json.Unmarshal([]byte(js(s)), &m)
	return m
}

// linesWithin reports whether the lines of part are lines of whole, in
// order, some of whole's left out: text of whole is missing from part,
// none is added or changed.
func linesWithin(part, whole string) bool {
	pl, wl := strings.Split(part, "\n"), strings.Split(whole, "\n")
	i := 0
	for _, l := range wl {
		if i < len(pl) && pl[i] == l {
			i++
		}
	}
	return i == len(pl) && len(pl) < len(wl)
}

// groupSentences matches the paragraph in which the bridge states cobra's
// flag groups.
var groupSentences = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\n\n((At most one of|At least one of|Flags) --[^\n]*(may be set|must be set|must be set together)\.)+`)
})

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
var knownRow = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|") })

// KnownLimits reads the kinds of difference that the document at path
// (docs/external.md) lists as known limits: the rows "| `kind` | ..." of
// its table. A document that lists none is an error.
func KnownLimits(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the known limits: %w", err)
	}
	kinds := map[string]bool{}
	for _, m := range knownRow().FindAllStringSubmatch(string(b), -1) {
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
