package dialect_test

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fixture tools are shaped like the bridge's: an input object with a
// closed "flags" object (one property per flag, as flagschema maps each
// pflag type) and an "args" string array, and the fixed
// stdout/stderr/exitCode output. Between them they hold every flag type
// schema, cobra's flag groups as the bridge states them (mutually
// exclusive as not/anyOf of required pairs, required-together as
// dependentRequired, one-required as anyOf of required), jsonschema
// annotations with $defs/$ref, oneOf, const, integer enums, unsupported
// formats, a recursive type, draft-07 keywords, and names no provider
// accepts as they are.

const outputSchema = `{
  "type": "object",
  "properties": {
    "stdout": {"type": "string", "description": "standard output"},
    "stderr": {"type": "string", "description": "standard error"},
    "exitCode": {"type": "integer", "description": "exit status"}
  },
  "required": ["stdout", "stderr", "exitCode"],
  "additionalProperties": false
}`

// getPods has scalar, slice, duration, IP and bytes flags, bounds,
// defaults, an enum, and all three kinds of flag group.
const getPods = `{
  "type": "object",
  "properties": {
    "flags": {
      "type": "object",
      "description": "The command's flags by long name. A flag left out keeps its default.",
      "properties": {
        "namespace": {"type": "string", "description": "Kubernetes namespace", "default": "default"},
        "replicas": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647, "default": 3},
        "level": {"type": "integer", "minimum": 0, "maximum": 255},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        "since": {"type": "string", "pattern": "^[-+]?(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$", "description": "only newer pods (Go duration such as 30s, 5m, 1h30m)", "default": "5m"},
        "output": {"type": "string", "enum": ["json", "yaml", "table"], "default": "table"},
        "watch": {"type": "boolean"},
        "json": {"type": "boolean", "description": "print JSON"},
        "yaml": {"type": "boolean", "description": "print YAML"},
        "user": {"type": "string"},
        "password": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}, "default": ["a", "b"]},
        "ports": {"type": "array", "items": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}},
        "timeouts": {"type": "array", "items": {"type": "string", "pattern": "^[0-9]+(ms|s|m|h)$"}, "description": "each a Go duration"},
        "node-ip": {"type": "string", "anyOf": [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}], "description": "IPv4 or IPv6 address"},
        "cidr": {"type": "string", "pattern": "^[0-9A-Fa-f:.]+/[0-9]{1,3}$"},
        "token": {"type": "string", "pattern": "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", "contentEncoding": "base64"},
        "started": {"type": "string", "format": "date-time"},
        "owner": {"type": "string", "format": "email"}
      },
      "required": ["namespace"],
      "additionalProperties": false,
      "dependentRequired": {"user": ["password"], "password": ["user"]},
      "allOf": [
        {"not": {"anyOf": [{"required": ["json", "yaml"]}]}},
        {"anyOf": [{"required": ["json"]}, {"required": ["yaml"]}, {"required": ["output"]}]}
      ]
    },
    "args": {"type": "array", "description": "Positional arguments\nUsage: mycli get pods [NAME...]", "items": {"type": "string"}}
  },
  "additionalProperties": false
}`

// label has map flags (stringToString, stringToInt), which no strict
// schema can state.
const label = `{
  "type": "object",
  "properties": {
    "flags": {
      "type": "object",
      "properties": {
        "labels": {"type": "object", "description": "labels to set", "minProperties": 1, "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^[^=]*$"}},
        "limits": {"type": "object", "additionalProperties": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}},
        "overwrite": {"type": "boolean", "default": false}
      },
      "required": ["labels"],
      "additionalProperties": false
    },
    "args": {"type": "array", "items": {"type": "string"}, "minItems": 1}
  },
  "required": ["flags", "args"],
  "additionalProperties": false
}`

// apply has a jsonschema-annotated flag: a nested object built from
// $defs, with oneOf, const, an integer enum, an unsupported format, an
// exclusive bound, title and examples.
const apply = `{
  "type": "object",
  "properties": {
    "flags": {
      "type": "object",
      "properties": {
        "config": {
          "$id": "https://example.com/schemas/config.json",
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "type": "object",
          "title": "Config",
          "description": "the deployment as JSON",
          "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 63},
            "kind": {"const": "Deployment"},
            "priority": {"type": "integer", "enum": [1, 2, 3]},
            "homepage": {"type": "string", "format": "uri"},
            "weight": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5},
            "mode": {"oneOf": [{"type": "string", "enum": ["fast", "safe"]}, {"type": "number", "minimum": 1, "maximum": 10}]},
            "owner": {"$ref": "#/$defs/person"},
            "reviewers": {"type": "array", "items": {"$ref": "#/$defs/person"}, "uniqueItems": true, "maxItems": 5},
            "extra": {"type": ["string", "null"], "examples": ["x"]}
          },
          "required": ["name", "kind"],
          "additionalProperties": false,
          "minProperties": 2,
          "$defs": {
            "person": {
              "type": "object",
              "properties": {
                "login": {"type": "string", "pattern": "^[a-z]+$"},
                "email": {"type": "string", "format": "email"}
              },
              "required": ["login"],
              "additionalProperties": false
            }
          }
        },
        "dry-run": {"type": "boolean", "description": "only print", "default": false}
      },
      "required": ["config"],
      "additionalProperties": false
    }
  },
  "required": ["flags"],
  "additionalProperties": false
}`

// tree holds a recursive type, as jsonschema.For writes one.
const tree = `{
  "type": "object",
  "properties": {
    "flags": {
      "type": "object",
      "properties": {
        "root": {"$ref": "#/$defs/node", "description": "the tree"}
      },
      "additionalProperties": false
    }
  },
  "additionalProperties": false,
  "$defs": {
    "node": {
      "type": "object",
      "properties": {
        "value": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
      },
      "required": ["value"],
      "additionalProperties": false
    }
  }
}`

// legacy is written in draft-07: definitions, tuple items, dependencies,
// and an external reference.
const legacy = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "flags": {
      "type": "object",
      "properties": {
        "point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false},
        "unit": {"$ref": "#/definitions/unit"},
        "remote": {"$ref": "https://example.com/schemas/remote.json"},
        "anything": {}
      },
      "dependencies": {"point": ["unit"]},
      "additionalProperties": false
    }
  },
  "additionalProperties": false,
  "definitions": {
    "unit": {"type": "string", "enum": ["m", "km"], "description": "length unit"}
  }
}`

// version takes nothing: no flags, no args.
const version = `{"type": "object", "properties": {}, "additionalProperties": false}`

// fixtureTools returns the generated tool set, in no particular order.
func fixtureTools() []*mcp.Tool {
	out := json.RawMessage(outputSchema)
	return []*mcp.Tool{
		{Name: "mycli_label", Description: "Set labels on a resource.", InputSchema: json.RawMessage(label), OutputSchema: out},
		{Name: "mycli_get_pods", Description: "List pods.", InputSchema: json.RawMessage(getPods), OutputSchema: out,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "mycli_apply", Description: "Apply a configuration.", InputSchema: json.RawMessage(apply), OutputSchema: out},
		{Name: "mycli_tree", Description: "Print a tree.", InputSchema: json.RawMessage(tree), OutputSchema: out},
		{Name: "mycli_legacy", Description: "An old-style command.", InputSchema: json.RawMessage(legacy), OutputSchema: out},
		{Name: "mycli.version", Description: "Print the version.", InputSchema: json.RawMessage(version), OutputSchema: out},
		{Name: "9lives", Description: "A command whose name starts with a digit.", InputSchema: typedInput(), OutputSchema: out},
	}
}

// typedInput is an input schema as the bridge holds it: a
// *jsonschema.Schema, where {"not": {}} stands for false.
func typedInput() *jsonschema.Schema {
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"flags": {
				Type: "object",
				Properties: map[string]*jsonschema.Schema{
					"count": {Type: "integer", Minimum: jsonschema.Ptr(0.0), Default: json.RawMessage(`1`)},
					"name":  {Type: "string", Description: "who"},
				},
				Required:             []string{"name"},
				AdditionalProperties: closed,
			},
			"args": {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
		},
		PropertyOrder:        []string{"flags", "args"},
		AdditionalProperties: closed,
	}
}
