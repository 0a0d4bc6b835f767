package dialect_test

import (
	"encoding/json"
	"fmt"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func ExampleExport() {
	tools := []*mcp.Tool{{
		Name:        "mycli_greet",
		Description: "Greet someone.",
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"flags": {
					"type": "object",
					"properties": {
						"name": {"type": "string"},
						"times": {"type": "integer", "minimum": 1, "default": 1}
					},
					"required": ["name"],
					"additionalProperties": false
				}
			},
			"required": ["flags"],
			"additionalProperties": false
		}`),
	}}
	out, warns, err := dialect.Export(dialect.OpenAI, tools, dialect.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warns {
		fmt.Println(w)
	}
	fmt.Println(string(out))
	// Output:
	// [
	//   {
	//     "type": "function",
	//     "function": {
	//       "name": "mycli_greet",
	//       "description": "Greet someone.",
	//       "parameters": {
	//         "type": "object",
	//         "properties": {
	//           "flags": {
	//             "type": "object",
	//             "properties": {
	//               "name": {
	//                 "type": "string"
	//               },
	//               "times": {
	//                 "type": [
	//                   "integer",
	//                   "null"
	//                 ],
	//                 "minimum": 1,
	//                 "description": "Default: 1."
	//               }
	//             },
	//             "required": [
	//               "name",
	//               "times"
	//             ],
	//             "additionalProperties": false
	//           }
	//         },
	//         "required": [
	//           "flags"
	//         ],
	//         "additionalProperties": false
	//       },
	//       "strict": true
	//     }
	//   }
	// ]
}

func ExampleExport_strict() {
	tools := []*mcp.Tool{{
		Name:        "mycli_label",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}}}}`),
	}}
	_, _, err := dialect.Export(dialect.Gemini, tools, dialect.Options{Strict: true})
	fmt.Println(err)
	// Output:
	// gemini: 1 loss(es) in strict mode
	// 	mycli_label: /inputSchema/properties/labels: gemini: left out: Gemini has no form for an object without properties (such as a map flag), so the model cannot set this property
}

// A flag group (here: --all and --selector exclusive) has no keyword in
// OpenAI strict mode, but only says which flags are present: it is stated
// in words in the flags description, reported as Restated, and strict
// mode succeeds.
func ExampleLosses() {
	tools := []*mcp.Tool{{
		Name: "mycli_delete",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"flags":{"type":"object","properties":{` +
			`"all":{"type":"boolean"},"selector":{"type":"string"}},"not":{"required":["all","selector"]}}}}`),
	}}
	_, warns, err := dialect.Export(dialect.OpenAI, tools, dialect.Options{Strict: true})
	fmt.Println(err, len(dialect.Losses(warns)))
	for _, w := range warns {
		fmt.Println(w.Kind, w)
	}
	// Output:
	// <nil> 0
	// restated mycli_delete: /inputSchema/properties/flags/not: openai: restated: keyword "not" is stated in words in the object's description instead (openai has no form for it): "all" and "selector" cannot both be set.
}

func ExampleNormalizeTags() {
	fmt.Printf("%q\n", dialect.NormalizeTags([]string{" Read Only ", "k8s!", "read-only", ""}))
	// Output: ["read-only" "k8s"]
}

func ExampleToolID() {
	fmt.Println(dialect.ToolID("mycli", "get_pods"))
	fmt.Println(dialect.ToolID("", "get_pods"))
	// Output:
	// mycli:get_pods
	// get_pods
}
