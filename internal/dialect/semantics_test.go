package dialect_test

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/test/strictcheck"
)

// fillNulls adds every property the strict schema lists and inst leaves
// out as null: what a model in strict mode sends for "not set".
func fillNulls(schema map[string]any, inst any) any {
	schema = nonNull(schema)
	if list, ok := inst.([]any); ok {
		items, _ := schema["items"].(map[string]any)
		out := make([]any, len(list))
		for i, v := range list {
			out[i] = fillNulls(items, v)
		}
		return out
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return inst
	}
	props, _ := schema["properties"].(map[string]any)
	out := map[string]any{}
	for k, v := range obj {
		out[k] = v
	}
	for k, ps := range props {
		if v, ok := out[k]; ok {
			out[k] = fillNulls(ps.(map[string]any), v)
		} else {
			out[k] = nil
		}
	}
	return out
}

// dropNulls removes null properties, as the call path reads them.
func dropNulls(inst any) any {
	if list, ok := inst.([]any); ok {
		out := make([]any, len(list))
		for i, v := range list {
			out[i] = dropNulls(v)
		}
		return out
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return inst
	}
	out := map[string]any{}
	for k, v := range obj {
		if v != nil {
			out[k] = dropNulls(v)
		}
	}
	return out
}

// TestStrictArgumentsRoundTrip checks the strict rewrite with a validator
// nobody here wrote: arguments valid for the MCP schema, with every left-out
// property sent as null, are valid for the strict schema; and with the
// nulls taken out again (as the call path does), valid for the MCP schema.
func TestStrictArgumentsRoundTrip(t *testing.T) {
	tests := []struct {
		tool string
		args string
	}{
		{"mycli_get_pods", `{}`},
		{"mycli_get_pods", `{"flags":{"namespace":"kube-system","output":"json"}}`},
		{"mycli_get_pods", `{"flags":{"namespace":"a","replicas":2,"since":"1h30m","output":"json","tags":["x"],"node-ip":"10.0.0.1","json":true},"args":["web-1"]}`},
		{"mycli_apply", `{"flags":{"config":{"name":"web","kind":"Deployment"}}}`},
		{"mycli_apply", `{"flags":{"config":{"name":"web","kind":"Deployment","priority":2,"mode":"fast","owner":{"login":"ana"},"reviewers":[{"login":"bo"}]},"dry-run":true}}`},
		{"9lives", `{"flags":{"name":"x"}}`},
		{"mycli.version", `{}`},
	}
	tools := fixtureTools()
	out, _, err := dialect.Export(dialect.OpenAI, tools, dialect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var fns []map[string]any
	json.Unmarshal(out, &fns)
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			var orig *mcp.Tool
			for _, tl := range tools {
				if tl.Name == tt.tool {
					orig = tl
				}
			}
			var strict map[string]any
			for _, f := range fns {
				fn := f["function"].(map[string]any)
				if fn["name"] == dialect.NameFor(dialect.OpenAI, tt.tool) {
					strict = fn["parameters"].(map[string]any)
					if fn["strict"] != true {
						t.Fatalf("%s is not strict", tt.tool)
					}
				}
			}
			var inst any
			if err := json.Unmarshal([]byte(tt.args), &inst); err != nil {
				t.Fatal(err)
			}
			mcpSchema := strictcheck.Resolve(t, orig.InputSchema)
			if err := mcpSchema.Validate(inst); err != nil {
				t.Fatalf("the test's arguments are not valid for the MCP schema: %v", err)
			}
			sent := fillNulls(strict, inst)
			if err := strictcheck.Resolve(t, strict).Validate(sent); err != nil {
				b, _ := json.Marshal(sent)
				t.Errorf("strict schema refuses %s: %v", b, err)
			}
			if err := mcpSchema.Validate(dropNulls(sent)); err != nil {
				t.Errorf("without its nulls, the call is not valid for the MCP schema: %v", err)
			}
		})
	}
}
