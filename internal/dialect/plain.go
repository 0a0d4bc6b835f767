package dialect

import "slices"

// canonicalEntry is one tool of the canonical format.
type canonicalEntry struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Parameters  *object `json:"parameters"`
}

// canonicalTypes are the property types the canonical format knows.
var canonicalTypes = []string{"string", "integer", "number", "boolean", "array", "object"}

// canonicalTool writes the input schema with its local references inlined
// (the canonical format has no $ref or $defs) and checks it against the
// format's discovery rules (name, description, parameters of type object
// with properties, every property typed, required naming only defined
// properties). A consumer skips a tool that breaks one, so each break is
// reported. Other keywords pass through: the format does not use them, and
// a consumer ignores them.
func canonicalTool(name string, t *tool, r *report) any {
	p := prepare(t.input, "/inputSchema", r)
	if t.desc == "" {
		r.add("/description", "the canonical format requires a description")
	}
	if p.str("type") != "object" {
		r.add("/inputSchema/type", "parameters must have type \"object\", got %s", jsonText(p.m["type"]))
	}
	props := p.obj("properties")
	if props == nil {
		// An empty property list constrains nothing: the tool takes no
		// named parameters either way.
		props = newObject()
		p.set("properties", props)
	}
	for _, n := range props.keys {
		ps, _ := props.m[n].(*object)
		var typ string
		if ps != nil {
			typ, _ = ps.m["type"].(string)
		}
		if !slices.Contains(canonicalTypes, typ) {
			r.add(ptr("/inputSchema/properties", n), "the canonical format needs one type among %v for every property; a consumer skips this tool", canonicalTypes)
		}
	}
	for _, q := range asList(p.m["required"]) {
		if n, _ := q.(string); !props.has(n) {
			r.add("/inputSchema/required", "required lists %s, which is not a property; a consumer skips this tool", jsonText(q))
		}
	}
	return canonicalEntry{Name: name, Description: t.desc, Parameters: p}
}

// anthropicEntry is one tool of the Anthropic Messages API.
type anthropicEntry struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	InputSchema *object `json:"input_schema"`
}

// anthropicTool passes the input schema through: Anthropic takes JSON
// Schema as it is and respects optional properties. Its one documented
// requirement on the schema is type "object" at the root.
func anthropicTool(name string, t *tool, r *report) any {
	if t.input.str("type") != "object" {
		r.add("/inputSchema/type", "input_schema must have type \"object\", got %s", jsonText(t.input.m["type"]))
	}
	return anthropicEntry{Name: name, Description: t.desc, InputSchema: t.input}
}

// toolvaultEntry is one tool of the toolvault list.
type toolvaultEntry struct {
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	InputSchema  *object `json:"inputSchema"`
	OutputSchema *object `json:"outputSchema,omitempty"`
}

// toolvaultList is the toolvault list envelope.
type toolvaultList struct {
	Tools       []any  `json:"tools"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
}

func toolvaultTool(name string, t *tool) any {
	return toolvaultEntry{Name: name, Description: t.desc, InputSchema: t.input, OutputSchema: t.output}
}

func toolvaultDoc(entries []any, env Envelope) any {
	return toolvaultList{Tools: entries, Version: env.Version, Description: env.Description}
}
