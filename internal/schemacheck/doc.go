// Package schemacheck decides quickly whether a decoded JSON value is valid
// for a JSON Schema (draft 2020-12) built from the keywords cobramcp's tool
// input schemas use, and says so when it cannot decide.
//
// Every tool call's arguments are validated against the tool's input
// schema. jsonschema-go's validator is general: it reflects over the value,
// collects annotations, wraps an error at each level and, on the fresh
// goroutine each call runs on, grows the stack as it recurses; on a call
// that runs a small command that was about a tenth of the server's CPU. A
// Checker walks the schema directly over the value's JSON types (nil, bool,
// float64, string, []any, map[string]any, as encoding/json decodes into
// any) and returns Valid, Invalid or Unknown. The caller skips the general
// validator only on Valid, and asks it for the error message otherwise, so
// the verdict that decides a call is always jsonschema-go's own or one that
// agrees with it.
//
// New refuses a schema with a keyword it does not evaluate (a $ref,
// patternProperties, if/then/else, unevaluated*, multipleOf, uniqueItems,
// prefixItems, contains, a $schema naming another draft...): its checker
// answers Unknown for every value. Annotations (title, description,
// default, examples, format, $comment...) do not affect validity and are
// ignored, as jsonschema-go ignores them.
package schemacheck
