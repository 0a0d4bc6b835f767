package toolset_test

import (
	"encoding/json"

	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/toolset"
)

type execResult = toolset.Result

// resultText is the text of a result's content.
var resultText = mcptest.Text

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

type pflagFlag = pflag.Flag

// connect connects a client to srv over in-memory transports.
var connect = mcptest.Connect

// exportJSON renders v as `mcp tools` writes it (the golden files are in
// that form).
var exportJSON = jsonvalue.Marshal
