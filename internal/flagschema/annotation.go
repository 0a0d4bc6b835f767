package flagschema

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// The "$schema" values of the accepted dialects, without scheme and
// trailing "#" (both vary in the wild).
const (
	draft202012 = "json-schema.org/draft/2020-12/schema"
	draft07     = "json-schema.org/draft-07/schema"
)

// dialect returns the "$schema" value s without scheme and trailing "#".
func dialect(s string) string {
	s = strings.TrimSuffix(s, "#")
	if rest, ok := strings.CutPrefix(s, "https://"); ok {
		return rest
	}
	return strings.TrimPrefix(s, "http://")
}

// fromAnnotation builds f's schema from its annotation. The error names the
// flag and the problem.
// The note says how an annotation without a type was completed ("" when it
// has one).
func fromAnnotation(f *pflag.Flag) (s *jsonschema.Schema, note string, err error) {
	s, note, err = annotationSchema(f)
	if err != nil {
		return nil, "", fmt.Errorf("flag --%s: %s annotation refused: %w", f.Name, Annotation, err)
	}
	return s, note, nil
}

func annotationSchema(f *pflag.Flag) (*jsonschema.Schema, string, error) {
	var texts []string
	for _, v := range f.Annotations[Annotation] {
		if strings.TrimSpace(v) != "" {
			texts = append(texts, v)
		}
	}
	if len(texts) != 1 {
		return nil, "", fmt.Errorf("want one schema, have %d", len(texts))
	}
	dec := json.NewDecoder(strings.NewReader(texts[0]))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, "", fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() {
		return nil, "", errors.New("not JSON: text after the schema")
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, "", fmt.Errorf("want a JSON object, have %s", jsonvalue.Described(doc))
	}

	declared, _ := root["$schema"].(string)
	if _, ok := root["$schema"]; ok && declared == "" {
		return nil, "", errors.New(`"$schema" is not a string`)
	}
	switch dialect(declared) {
	case "", draft202012:
	case draft07:
		root = toDraft2020(root, root).(map[string]any)
	default:
		return nil, "", fmt.Errorf(`unsupported "$schema" %q: want 2020-12 (the default) or draft-07`, declared)
	}
	delete(root, "$schema")
	delete(root, "$id") // an identifier for the flag's schema alone; it is embedded elsewhere

	if err := check(root); err != nil {
		return nil, "", err
	}
	// The schema as written must resolve: every $ref points somewhere,
	// every pattern compiles.
	if _, err := toSchema(root); err != nil {
		return nil, "", err
	}
	in := &inliner{root: root, anchors: map[string]string{}}
	in.findAnchors(root, "")
	inlined, err := in.node(root, "")
	if err != nil {
		return nil, "", err
	}
	s, err := toSchema(inlined)
	if err != nil {
		return nil, "", err
	}
	var note string
	if !Typed(s) {
		doc, n, err := complete(f, inlined.(map[string]any))
		if err != nil {
			return nil, "", err
		}
		if s, err = toSchema(doc); err != nil {
			return nil, "", fmt.Errorf("completed from the flag's type: %w", err)
		}
		note = n
	} else if s.Type == "" && len(s.Types) == 0 && (len(s.Enum) > 0 || s.Const != nil) {
		doc, n := typeOfValues(f, inlined.(map[string]any), s)
		if s, err = toSchema(doc); err != nil {
			return nil, "", fmt.Errorf("completed from the flag's type: %w", err)
		}
		note = n
	}
	if s.Description == "" {
		s.Description = description(f, "")
	}
	if f.Deprecated != "" {
		s.Deprecated = true
	}
	if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		return nil, "", fmt.Errorf("a default does not validate: %w", err)
	}
	if s.Default == nil {
		// The generated default, when it fits the annotation's schema.
		if v, ok := Default(f); ok {
			if raw, err := json.Marshal(v); err == nil {
				s.Default = raw
				if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
					s.Default = nil
				}
			}
		}
	}
	return s, note, nil
}

// toSchema converts a JSON document to a schema and resolves it.
func toSchema(doc any) (*jsonschema.Schema, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encoding schema: %w", err)
	}
	s := new(jsonschema.Schema)
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("not a schema: %w", err)
	}
	if _, err := s.Resolve(nil); err != nil {
		return nil, fmt.Errorf("does not resolve: %w", err)
	}
	return s, nil
}

// Keywords whose value is one schema, an array of schemas, or an object of
// schemas, in 2020-12. Keywords not listed (default, enum, const, examples,
// ...) hold instances and are never walked.
func schemaKeyword(k string) (kind byte) {
	switch k {
	case "items", "additionalItems", "additionalProperties", "contains", "propertyNames",
		"not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return '1'
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return '['
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
		return '{'
	}
	return 0
}

// children calls fn for each subschema of m with its JSON pointer; a
// non-nil result of fn replaces the subschema in m.
func children(m map[string]any, ptr string, fn func(child any, ptr string) (any, error)) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		p := ptr + "/" + escape(k)
		var err error
		switch schemaKeyword(k) {
		case '1':
			if _, isArray := v.([]any); isArray {
				break // a draft-07 items array is converted before walking
			}
			m[k], err = fn(v, p)
		case '[':
			if a, ok := v.([]any); ok {
				a = slices.Clone(a)
				for i, c := range a {
					if a[i], err = fn(c, p+"/"+strconv.Itoa(i)); err != nil {
						return err
					}
				}
				m[k] = a
			}
		case '{':
			if o, ok := v.(map[string]any); ok {
				o = maps.Clone(o)
				for _, name := range slices.Sorted(maps.Keys(o)) {
					if o[name], err = fn(o[name], p+"/"+escape(name)); err != nil {
						return err
					}
				}
				m[k] = o
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// annotationKeyword reports whether k is a keyword that annotates without
// constraining, so that a "$ref" beside it may be replaced by its target.
func annotationKeyword(k string) bool {
	switch k {
	case "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return false
}

// toDraft2020 returns a copy of the draft-07 schema v in 2020-12 terms:
// definitions become $defs, an items array becomes prefixItems (and
// additionalItems then becomes items), dependencies become dependentRequired
// and dependentSchemas, an "$id" that is a fragment becomes an "$anchor",
// and "$ref" pointers are rewritten to follow. Beside a "$ref", draft-07
// ignores other keywords; only annotations (and $defs, which a $ref may
// point into) are kept.
func toDraft2020(v, root any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	n := make(map[string]any, len(m))
	_, hasRef := m["$ref"]
	for k, val := range m {
		switch {
		case k == "$ref":
			if s, ok := val.(string); ok {
				val = translateRef(s, root)
			}
			n[k] = val
		case k == "definitions" || k == "$defs":
			defs, _ := n["$defs"].(map[string]any)
			if defs == nil {
				defs = map[string]any{}
			}
			if o, ok := val.(map[string]any); ok {
				maps.Copy(defs, o)
			}
			n["$defs"] = defs
		case hasRef && !annotationKeyword(k) && k != "$schema":
			// ignored by draft-07
		case k == "$id":
			if s, ok := val.(string); ok && strings.HasPrefix(s, "#") {
				n["$anchor"] = strings.TrimPrefix(s, "#")
			} else {
				n[k] = val
			}
		case k == "items":
			if a, ok := val.([]any); ok {
				n["prefixItems"] = a
				if add, ok := m["additionalItems"]; ok {
					n["items"] = add
				}
			} else {
				n[k] = val
			}
		case k == "additionalItems":
			// Used only beside an items array (above); ignored otherwise.
		case k == "dependencies":
			deps, _ := val.(map[string]any)
			for name, d := range deps {
				key := "dependentSchemas"
				if _, ok := d.([]any); ok {
					key = "dependentRequired"
				}
				o, _ := n[key].(map[string]any)
				if o == nil {
					o = map[string]any{}
					n[key] = o
				}
				o[name] = d
			}
		default:
			n[k] = val
		}
	}
	// Recursion cannot fail: the callback returns no error.
	_ = children(n, "", func(c any, _ string) (any, error) { return toDraft2020(c, root), nil })
	return n
}

// translateRef rewrites a draft-07 JSON pointer reference into the document
// root so that it points to the same schema after toDraft2020.
func translateRef(ref string, root any) string {
	segs, ok := pointer(ref)
	if !ok {
		return ref
	}
	var b strings.Builder
	b.WriteString("#")
	cur := root
	for i, seg := range segs {
		out := seg
		switch c := cur.(type) {
		case map[string]any:
			_, itemsArray := c["items"].([]any)
			switch {
			case seg == "definitions":
				out = "$defs"
			case seg == "items" && itemsArray:
				out = "prefixItems"
			case seg == "additionalItems" && itemsArray:
				out = "items"
			case seg == "dependencies":
				out = "dependentSchemas"
				if deps, ok := c[seg].(map[string]any); ok && i+1 < len(segs) {
					if _, ok := deps[segs[i+1]].([]any); ok {
						out = "dependentRequired"
					}
				}
			}
			cur = c[seg]
		case []any:
			j, err := strconv.Atoi(seg)
			if err != nil || j < 0 || j >= len(c) {
				cur = nil
			} else {
				cur = c[j]
			}
		default:
			cur = nil
		}
		// The reference is a URI fragment: percent-encode what it needs.
		b.WriteString("/" + url.PathEscape(escape(out)))
	}
	return b.String()
}

// check refuses what cannot be embedded: references outside the document,
// dynamic references, and "$id"s below the root (which would change what
// the references inside them mean). It also refuses the draft-07 forms of
// items and dependencies in a 2020-12 schema, where they mean nothing.
func check(root map[string]any) error {
	var walk func(v any, ptr string) (any, error)
	walk = func(v any, ptr string) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return v, nil
		}
		if _, ok := m["items"].([]any); ok {
			return nil, fmt.Errorf("items array at %s: use prefixItems in 2020-12, or declare draft-07", cmp.Or(ptr, "the root"))
		}
		if _, ok := m["dependencies"]; ok {
			return nil, fmt.Errorf("dependencies at %s: use dependentRequired or dependentSchemas in 2020-12, or declare draft-07", cmp.Or(ptr, "the root"))
		}
		for _, k := range []string{"$ref", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$id"} {
			val, ok := m[k]
			if !ok {
				continue
			}
			at := cmp.Or(ptr, "the root")
			switch k {
			case "$ref":
				s, _ := val.(string)
				if !strings.HasPrefix(s, "#") {
					return nil, fmt.Errorf("external $ref %q at %s: only references within the schema (#...) are allowed", s, at)
				}
			case "$id":
				if ptr != "" {
					return nil, fmt.Errorf("$id at %s: only the root may have an $id", at)
				}
			default:
				return nil, fmt.Errorf("%s at %s is not supported", k, at)
			}
		}
		return v, children(maps.Clone(m), ptr, walk)
	}
	_, err := walk(root, "")
	return err
}

// An inliner replaces every "$ref" with a copy of the schema it points to,
// so that the schema can be embedded anywhere and read by clients that do
// not resolve references. $defs and $anchors go: nothing refers to them
// any more.
type inliner struct {
	root    map[string]any
	anchors map[string]string // anchor name → JSON pointer
	stack   []string          // JSON pointers of the schemas being inlined
}

func (in *inliner) findAnchors(v any, ptr string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if a, ok := m["$anchor"].(string); ok {
		in.anchors[a] = ptr
	}
	_ = children(maps.Clone(m), ptr, func(c any, p string) (any, error) {
		in.findAnchors(c, p)
		return c, nil
	})
}

// node returns the inlined copy of the schema v found at ptr in the root.
func (in *inliner) node(v any, ptr string) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil // true or false
	}
	in.stack = append(in.stack, ptr)
	defer func() { in.stack = in.stack[:len(in.stack)-1] }()

	out := make(map[string]any, len(m))
	for k, val := range m {
		switch k {
		case "$defs", "definitions", "$anchor", "$id", "$schema":
		default:
			out[k] = val
		}
	}
	if err := children(out, ptr, in.node); err != nil {
		return nil, err
	}
	ref, ok := out["$ref"].(string)
	if !ok {
		return out, nil
	}
	delete(out, "$ref")
	target, err := in.target(ref)
	if err != nil {
		return nil, err
	}
	if slices.Contains(in.stack, target) {
		return nil, fmt.Errorf("recursive $ref %q at %s", ref, cmp.Or(ptr, "the root"))
	}
	tv, ok := lookup(in.root, target)
	if !ok {
		return nil, fmt.Errorf("$ref %q at %s points nowhere", ref, cmp.Or(ptr, "the root"))
	}
	t, err := in.node(tv, target)
	if err != nil {
		return nil, err
	}
	tm, ok := t.(map[string]any)
	if !ok {
		if t == false {
			tm = map[string]any{"not": map[string]any{}}
		} else {
			tm = map[string]any{}
		}
	}
	onlyAnnotations := true
	for k := range out {
		if !annotationKeyword(k) {
			onlyAnnotations = false
		}
	}
	if onlyAnnotations {
		// Beside a $ref, annotations describe the use: they win.
		merged := maps.Clone(tm)
		maps.Copy(merged, out)
		return merged, nil
	}
	// In 2020-12 a $ref applies alongside its siblings, as allOf does.
	all, _ := out["allOf"].([]any)
	out["allOf"] = append(slices.Clone(all), tm)
	return out, nil
}

// target returns the JSON pointer that ref (starting with "#") names.
func (in *inliner) target(ref string) (string, error) {
	frag, err := url.PathUnescape(strings.TrimPrefix(ref, "#"))
	if err != nil {
		return "", fmt.Errorf("$ref %q: %w", ref, err)
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		p, ok := in.anchors[frag]
		if !ok {
			return "", fmt.Errorf("$ref %q: no such $anchor", ref)
		}
		return p, nil
	}
	segs, ok := pointer(ref)
	if !ok {
		return "", fmt.Errorf("$ref %q is not a JSON pointer", ref)
	}
	var b strings.Builder
	for _, s := range segs {
		b.WriteString("/" + escape(s))
	}
	return b.String(), nil
}

// pointer splits a "#/a/b" reference (a URI fragment, so percent-encoded)
// into its unescaped segments.
func pointer(ref string) ([]string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, false
	}
	return segments(frag)
}

// segments splits a JSON pointer ("/a/b", or "" for the whole document)
// into its unescaped segments.
func segments(frag string) ([]string, bool) {
	if frag == "" {
		return nil, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false
	}
	segs := strings.Split(frag[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs, true
}

// lookup returns the value at an escaped JSON pointer in doc.
func lookup(doc any, ptr string) (any, bool) {
	segs, ok := segments(ptr)
	if !ok {
		return nil, false
	}
	cur := doc
	for _, s := range segs {
		switch c := cur.(type) {
		case map[string]any:
			if cur, ok = c[s]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// escape escapes one JSON pointer segment.
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
