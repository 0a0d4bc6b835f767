package dialect

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Keywords whose values are subschemas, by shape.
var (
	singleSubs = []string{"additionalProperties", "not", "if", "then", "else", "contains",
		"propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems", "contentSchema"}
	mapSubs   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	arraySubs = []string{"anyOf", "oneOf", "allOf", "prefixItems"}
)

// eachSub calls fn on every direct subschema of o (in key order) and stores
// what fn returns in its place. "items" may be a schema or (draft-07) an
// array of schemas; "dependencies" values may be string arrays, which are
// not schemas and are skipped.
func eachSub(o *object, path string, fn func(v any, path string) any) {
	for _, k := range o.list() {
		v := o.m[k]
		switch {
		case slices.Contains(singleSubs, k):
			o.m[k] = fn(v, ptr(path, k))
		case k == "items":
			if a, ok := v.([]any); ok {
				for i := range a {
					a[i] = fn(a[i], ptrIndex(ptr(path, k), i))
				}
			} else {
				o.m[k] = fn(v, ptr(path, k))
			}
		case slices.Contains(mapSubs, k):
			if m, ok := v.(*object); ok {
				for _, name := range m.list() {
					if _, isList := m.m[name].([]any); isList && k == "dependencies" {
						continue
					}
					m.m[name] = fn(m.m[name], ptr(ptr(path, k), name))
				}
			}
		case slices.Contains(arraySubs, k):
			if a, ok := v.([]any); ok {
				for i := range a {
					a[i] = fn(a[i], ptrIndex(ptr(path, k), i))
				}
			}
		}
	}
}

// annotationKeys are keywords that describe a value without constraining
// it; beside a $ref they override the target's.
var annotationKeys = []string{"description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"}

// inliner replaces local references by copies of their targets, so that a
// dialect without $ref (or a rewrite that must see every subschema) works
// on a plain tree.
type inliner struct {
	root   *object  // the schema references resolve against, never modified
	parent *inliner // the enclosing document, tried when root fails
	r      *report
}

// prepare returns a copy of schema with every local $ref inlined,
// $defs/definitions removed (they are only reachable through references),
// and allOf branches merged into their parent where that is exact.
// base is the JSON Pointer of schema within the tool.
func prepare(schema *object, base string, r *report) *object {
	in := &inliner{root: schema, r: r}
	v := in.embedded(clone(schema), base, true)
	v = in.walk(v, base, nil)
	v = mergeAllOf(v)
	o, ok := v.(*object)
	if !ok {
		// The root was a reference to a boolean schema.
		return newObject()
	}
	return o
}

// embedded inlines, innermost first, the references of every embedded
// schema resource (a subschema with its own "$id" or "$schema", such as a
// flag's jsonschema annotation pasted into the tool's schema): there "#"
// means the embedded schema, not the tool's.
func (in *inliner) embedded(v any, path string, isRoot bool) any {
	o, ok := v.(*object)
	if !ok {
		return v
	}
	eachSub(o, path, func(sub any, p string) any { return in.embedded(sub, p, false) })
	if !isRoot && (o.has("$id") || o.has("$schema")) {
		sub := &inliner{root: clone(o).(*object), parent: in, r: in.r}
		return sub.walk(o, path, nil)
	}
	return o
}

func (in *inliner) walk(v any, path string, stack []string) any {
	o, ok := v.(*object)
	if !ok {
		return v
	}
	if ref, ok := o.m["$ref"].(string); ok {
		next, followed := in.deref(o, ref, path, stack)
		if followed {
			return in.walk(next, path, append(stack, ref))
		}
		return in.walk(next, path, stack)
	}
	o.del("$defs")
	o.del("definitions")
	eachSub(o, path, func(sub any, p string) any { return in.walk(sub, p, stack) })
	return o
}

// deref returns what replaces the referring schema o, and whether the
// reference was followed.
func (in *inliner) deref(o *object, ref, path string, stack []string) (any, bool) {
	siblings := clone(o).(*object)
	siblings.del("$ref")
	rest := func() any { return siblings }
	at := ptr(path, "$ref")
	if !strings.HasPrefix(ref, "#") {
		in.r.add(at, "external $ref %q not resolved (no network access): replaced by the keywords beside it", ref)
		return rest(), false
	}
	if slices.Contains(stack, ref) {
		in.r.add(at, "recursive $ref %q cannot be inlined: the recursion is cut here and replaced by the keywords beside it", ref)
		return rest(), false
	}
	target, ok := resolve(in.root, ref[1:])
	for up := in.parent; !ok && up != nil; up = up.parent {
		target, ok = resolve(up.root, ref[1:])
	}
	if !ok {
		in.r.add(at, "$ref %q does not resolve: replaced by the keywords beside it", ref)
		return rest(), false
	}
	t := clone(target)
	tobj, isObj := t.(*object)
	if !isObj {
		if b, _ := t.(bool); b {
			return rest(), true
		}
		return t, true
	}
	if len(siblings.keys) == 0 {
		return tobj, true
	}
	// Keywords beside $ref apply together with the target (2020-12). Put
	// them on the copy when that is exact, else keep both under allOf.
	conflict := false
	for _, k := range siblings.keys {
		if tobj.has(k) && !slices.Contains(annotationKeys, k) && jsonText(tobj.m[k]) != jsonText(siblings.m[k]) {
			conflict = true
		}
	}
	if conflict {
		out := newObject()
		out.set("allOf", []any{tobj, siblings})
		return out, true
	}
	for _, k := range siblings.keys {
		tobj.set(k, siblings.m[k])
	}
	return tobj, true
}

// resolve follows a JSON Pointer (possibly percent-encoded, as in a URI
// fragment) from root.
func resolve(root *object, pointer string) (any, bool) {
	if p, err := url.PathUnescape(pointer); err == nil {
		pointer = p
	}
	var cur any = root
	if pointer == "" {
		return cur, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, false // an anchor such as #foo
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			v, ok := c.m[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
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

// structuralKeys are the keywords an allOf branch may hold to be merged
// into its parent: plain constraints whose conjunction with the parent's
// is the union of both keyword sets.
var structuralKeys = []string{"type", "properties", "required", "items", "description", "title",
	"enum", "const", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
	"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "default"}

// mergeAllOf merges, bottom-up, every allOf branch that can be merged into
// its parent exactly; branches that cannot stay under allOf.
func mergeAllOf(v any) any {
	o, ok := v.(*object)
	if !ok {
		return v
	}
	eachSub(o, "", func(sub any, _ string) any { return mergeAllOf(sub) })
	branches, ok := o.m["allOf"].([]any)
	if !ok {
		return o
	}
	o.del("allOf")
	var keep []any
	for _, b := range branches {
		if t, ok := b.(bool); ok && t {
			continue // true constrains nothing
		}
		bo, ok := b.(*object)
		if !ok || !mergeable(o, bo) {
			keep = append(keep, b)
			continue
		}
		merge(o, bo)
	}
	if len(keep) > 0 {
		o.set("allOf", keep)
	}
	return o
}

// mergeable reports whether b's keywords can join parent's exactly.
func mergeable(parent, b *object) bool {
	for _, k := range b.keys {
		if !slices.Contains(structuralKeys, k) {
			return false
		}
		pv, has := parent.m[k]
		switch k {
		case "required", "description", "title":
			continue
		case "properties":
			if parent.has("additionalProperties") || parent.has("patternProperties") {
				return false
			}
			pp, _ := pv.(*object)
			bp, ok := b.m[k].(*object)
			if !ok {
				return false
			}
			for _, name := range bp.keys {
				if pp != nil && pp.has(name) && jsonText(pp.m[name]) != jsonText(bp.m[name]) {
					return false
				}
			}
		default:
			if has && jsonText(pv) != jsonText(b.m[k]) {
				return false
			}
		}
	}
	return true
}

// merge moves b's keywords into parent; mergeable(parent, b) must hold.
func merge(parent, b *object) {
	for _, k := range b.keys {
		switch k {
		case "required":
			req, _ := parent.m[k].([]any)
			for _, n := range asList(b.m[k]) {
				if !slices.ContainsFunc(req, func(x any) bool { return x == n }) {
					req = append(req, n)
				}
			}
			parent.set(k, req)
		case "description", "title":
			if !parent.has(k) {
				parent.set(k, b.m[k])
			}
		case "properties":
			pp := parent.obj(k)
			if pp == nil {
				pp = newObject()
				parent.set(k, pp)
			}
			bp := b.obj(k)
			for _, name := range bp.keys {
				if !pp.has(name) {
					pp.set(name, bp.m[name])
				}
			}
		default:
			parent.set(k, b.m[k])
		}
	}
}

// asList returns v as a list (nil when it is not one).
func asList(v any) []any {
	a, _ := v.([]any)
	return a
}
