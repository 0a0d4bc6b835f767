package dialect_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/dialect"
)

// flagsTool is one tool whose input is a "flags" object with properties
// a, b and c and the presence constraint keywords given (a JSON fragment
// such as `"not":{...}`).
func flagsTool(keywords string) *mcp.Tool {
	return &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"flags":{"type":"object",` +
		`"description":"Flags.","properties":{"a":{"type":"string"},"b":{"type":"boolean"},"c":{"type":"integer"}},` +
		keywords + `,"additionalProperties":false}},"additionalProperties":false}`)}
}

// TestRestatedFlagGroups: each shape of presence constraint (the flag
// groups the bridge writes, and their neighbours) is stated in the flags
// object's description in exact words naming every property, reported as
// Restated, and passes strict mode, in OpenAI and in Gemini.
func TestRestatedFlagGroups(t *testing.T) {
	tests := []struct {
		name     string
		keywords string
		want     string // the sentences added to the flags description
	}{
		{"not required pair", `"not":{"required":["a","b"]}`, `"a" and "b" cannot both be set.`},
		{"not required one", `"not":{"required":["a"]}`, `"a" must not be set.`},
		{"not required three", `"not":{"required":["a","b","c"]}`, `"a", "b" and "c" cannot all be set.`},
		{"mutually exclusive group of three", `"not":{"anyOf":[{"required":["a","b"]},{"required":["a","c"]},{"required":["b","c"]}]}`,
			`At most one of "a", "b", "c" may be set.`},
		{"not anyOf of pairs that are no group", `"not":{"anyOf":[{"required":["a","b"]},{"required":["b","c"]}]}`,
			`"a" and "b" cannot both be set. "b" and "c" cannot both be set.`},
		{"one required group", `"anyOf":[{"required":["a"]},{"required":["c"]}]`, `At least one of "a", "c" must be set.`},
		{"anyOf of one branch", `"anyOf":[{"required":["a","b"]}]`, `"a" and "b" must be set.`},
		{"anyOf of sets", `"anyOf":[{"required":["a","b"]},{"required":["c"]}]`, `At least one of these must hold: "a" and "b" are set; "c" is set.`},
		{"oneOf of singles", `"oneOf":[{"required":["a"]},{"required":["b"]}]`, `Exactly one of "a", "b" must be set.`},
		{"oneOf of sets", `"oneOf":[{"required":["a"]},{"required":["b","c"]}]`, `Exactly one of these must hold: "a" is set; "b" and "c" are set.`},
		{"allOf of groups", `"allOf":[{"not":{"anyOf":[{"required":["a","b"]}]}},{"anyOf":[{"required":["a"]},{"required":["b"]},{"required":["c"]}]}]`,
			`At most one of "a", "b" may be set. At least one of "a", "b", "c" must be set.`},
		{"required together pair", `"dependentRequired":{"a":["b"],"b":["a"]}`, `Either all or none of "a", "b" may be set.`},
		{"required together three", `"dependentRequired":{"a":["b","c"],"b":["a","c"],"c":["a","b"]}`, `Either all or none of "a", "b", "c" may be set.`},
		{"one-way dependency", `"dependentRequired":{"a":["b","c"]}`, `If "a" is set, "b" and "c" must be set too.`},
		{"dependency that is no closed group", `"dependentRequired":{"a":["b"],"b":["a","c"]}`,
			`If "a" is set, "b" must be set too. If "b" is set, "a" and "c" must be set too.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools := []*mcp.Tool{flagsTool(tt.keywords)}
			for _, f := range []dialect.Format{dialect.OpenAI, dialect.Gemini} {
				out, warns, err := dialect.Export(f, tools, dialect.Options{Strict: true})
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if len(warns) != 1 || warns[0].Kind != dialect.Restated || warns[0].Path != "/inputSchema/properties/flags/"+firstKey(tt.keywords) {
					t.Fatalf("%s: warnings %v, want one Restated at the keyword", f, warns)
				}
				want := "Flags. " + tt.want
				if f == dialect.OpenAI {
					want += " A property counts as set when it is not null."
				}
				if got := flagsDescription(t, f, out); got != want {
					t.Errorf("%s: flags description\n%q\nwant\n%q", f, got, want)
				}
			}
		})
	}
}

// TestVacuousDependencyIsNoWarning: dependentRequired that requires
// nothing says nothing: it is dropped with no warning and no sentence.
func TestVacuousDependencyIsNoWarning(t *testing.T) {
	for _, f := range []dialect.Format{dialect.OpenAI, dialect.Gemini} {
		out, warns, err := dialect.Export(f, []*mcp.Tool{flagsTool(`"dependentRequired":{"a":[]}`)}, dialect.Options{Strict: true})
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: %v %v", f, warns, err)
		}
		want := "Flags."
		if d := flagsDescription(t, f, out); d != want {
			t.Errorf("%s: flags description %q, want %q", f, d, want)
		}
	}
}

// TestUnrestatedConstraintsStayLosses: a constraint that says more than
// which properties are present is still a loss, and fails strict mode.
func TestUnrestatedConstraintsStayLosses(t *testing.T) {
	tests := []struct{ name, keywords string }{
		{"not of a value", `"not":{"properties":{"a":{"const":"x"}}}`},
		{"allOf with a value branch", `"allOf":[{"not":{"required":["a","b"]}},{"properties":{"c":{"minimum":3}}}]`},
		{"anyOf with a branch that is no required list", `"anyOf":[{"required":["a"]},{"minProperties":2}]`},
		{"empty required", `"not":{"required":[]}`},
		// Two equal branches of a oneOf are always valid together: no
		// instance passes, which "exactly one of" these names never says.
		{"oneOf of equal singles", `"oneOf":[{"required":["a"]},{"required":["a"]},{"required":["b"]}]`},
		{"oneOf of equal sets", `"oneOf":[{"required":["a","b"]},{"required":["b","a"]}]`},
		{"not over oneOf", `"not":{"oneOf":[{"required":["a"]},{"required":["b"]}]}`},
		{"anyOf mixing required and types", `"anyOf":[{"required":["a"]},{"type":"object"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools := []*mcp.Tool{flagsTool(tt.keywords)}
			for _, f := range []dialect.Format{dialect.OpenAI, dialect.Gemini} {
				_, warns, err := dialect.Export(f, tools, dialect.Options{Strict: true})
				var le *dialect.LossError
				if !errors.As(err, &le) || len(dialect.Losses(warns)) == 0 {
					t.Errorf("%s: err %v, warnings %v: want a loss", f, err, warns)
				}
				for _, w := range warns {
					if w.Kind == dialect.Restated {
						t.Errorf("%s: restated %v", f, w)
					}
				}
			}
		})
	}
}

// firstKey returns the first key of a JSON fragment `"k":...`.
func firstKey(fragment string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte("{"+fragment+"}"), &m); err != nil {
		panic(err)
	}
	for k := range m {
		return k
	}
	return ""
}

// flagsDescription returns the description of the flags object in an
// exported document of one tool.
func flagsDescription(t *testing.T, f dialect.Format, out []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	var params map[string]any
	if f == dialect.Gemini {
		params = v.(map[string]any)["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)[0].(map[string]any)["parameters"].(map[string]any)
	} else {
		params = v.([]any)[0].(map[string]any)["function"].(map[string]any)["parameters"].(map[string]any)
	}
	flags := params["properties"].(map[string]any)["flags"].(map[string]any)
	if f == dialect.OpenAI {
		flags = nonNull(flags) // optional: anyOf [object, null]
	}
	d, _ := flags["description"].(string)
	return d
}

// TestRestatedDraft07Dependencies: draft-07's "dependencies" with arrays
// of names says what dependentRequired says, so in a schema that declares
// draft-07 it is stated in words and reported as Restated. In a 2020-12
// schema "dependencies" is no keyword, and a dependency on a schema says
// more than presence: both stay losses.
func TestRestatedDraft07Dependencies(t *testing.T) {
	draft07 := func(keywords string) *mcp.Tool {
		tl := flagsTool(keywords)
		tl.InputSchema = json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#",` + string(tl.InputSchema.(json.RawMessage)[1:]))
		return tl
	}
	tests := []struct {
		name string
		tool *mcp.Tool
		want string // the sentences added to the flags description; "" for a loss
	}{
		{"required together", draft07(`"dependencies":{"a":["b"],"b":["a"]}`), `Either all or none of "a", "b" may be set.`},
		{"one-way", draft07(`"dependencies":{"a":["b","c"]}`), `If "a" is set, "b" and "c" must be set too.`},
		{"on a schema", draft07(`"dependencies":{"a":{"required":["b"]}}`), ""},
		{"not a keyword in 2020-12", flagsTool(`"dependencies":{"a":["b"]}`), ""},
	}
	const at = "/inputSchema/properties/flags/dependencies"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []dialect.Format{dialect.OpenAI, dialect.Gemini} {
				out, warns, err := dialect.Export(f, []*mcp.Tool{tt.tool}, dialect.Options{})
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				var here []dialect.Warning
				for _, w := range warns {
					if w.Path == at {
						here = append(here, w)
					}
				}
				wantKind := dialect.Restated
				if tt.want == "" {
					wantKind = dialect.Loss
				}
				if len(here) != 1 || here[0].Kind != wantKind {
					t.Fatalf("%s: warnings at %s: %v, want one of kind %v", f, at, here, wantKind)
				}
				if tt.want == "" {
					continue
				}
				want := "Flags. " + tt.want
				if f == dialect.OpenAI {
					want += " A property counts as set when it is not null."
				}
				if got := flagsDescription(t, f, out); got != want {
					t.Errorf("%s: flags description\n%q\nwant\n%q", f, got, want)
				}
			}
		})
	}
}
