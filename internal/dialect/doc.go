// Package dialect writes MCP tool definitions in the dialects other tool
// systems speak, and reports everything a dialect cannot carry.
//
//	tools := []*mcp.Tool{{ // as tools/list returns them, e.g. from toolset.New
//		Name:        "mycli_greet",
//		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","default":"you"}}}`),
//	}}
//	out, warns, err := dialect.Export(dialect.OpenAI, tools, dialect.Options{})
//	if err != nil {
//		return err
//	}
//	for _, w := range warns {
//		fmt.Fprintln(os.Stderr, w)
//		// mycli_greet: /inputSchema/properties/name/default: openai: dropped keyword "default": ...
//	}
//	os.Stdout.Write(out) // [{"type":"function","function":{"name":"mycli_greet",...,"strict":true}}]
//
// The formats are [MCP] (the tools unchanged), [Canonical]
// ({name, description, parameters}), [OpenAI] (function tools in strict
// mode), [Anthropic] ({name, description, input_schema}), [Gemini]
// (functionDeclarations within Gemini's OpenAPI-subset Schema) and
// [ToolVault] (a list envelope with version and description). Each
// format's rules, with the provider documentation they come from, are in
// docs/dialects.md.
//
// What the package promises:
//
//   - Export is pure: it reads the tools, never changes them, and does no
//     I/O. The same tools give the same bytes, sorted by tool name.
//   - Every change a dialect forces on a tool (a keyword dropped, a
//     constraint weakened, a property left out, a limit exceeded, a name
//     changed, strict mode given up) is returned as a [Warning] naming the
//     tool and the JSON Pointer of the change. Rewrites that lose nothing are not reported:
//     a local $ref inlined, const written as a one-value enum, ["T","null"]
//     written as T plus nullable, an integer's exclusive bound made
//     inclusive, additionalProperties: false added (OpenAI) or dropped
//     (Gemini, which shows the model the listed properties only).
//   - A constraint a dialect has no keyword for but can state exactly in
//     words (which properties an object may, must or must not hold
//     together: cobra's flag groups) is written into the object's
//     description and reported as a [Restated] warning, which is no loss.
//   - With [Options.Strict], any loss is an error ([*LossError]) that
//     lists all of them, and nothing is written.
//   - Names follow each dialect's documented rule and stay unique; two tools
//     that would share a name are an error.
//   - OpenAI strict mode is done in full: every object is closed, every
//     property required, and a property that was optional admits null, which
//     the call path reads as "not set". A tool whose schema has no strict form
//     (a map flag, an untyped value, a limit exceeded) is written with
//     "strict": false and its schema as given, and the reasons are reported.
//
// Schemas may be any JSON-marshalable value (*jsonschema.Schema,
// json.RawMessage, map[string]any); they are decoded keeping the order of
// their keys, so properties reach the model in the order the tool wrote
// them.
//
// The package also holds the tool id and tag rules of a canonical tool
// record: [ToolID], [ParseToolID] and [NormalizeTags].
package dialect
