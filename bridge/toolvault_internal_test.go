package bridge

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
)

// TestToolVaultContentOnly: a result without the toolset's structured
// content (a tool of another server, which `mcp call` never gets from the
// toolset, whose results always carry it) is read part by part from its
// content.
func TestToolVaultContentOnly(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	b64 := base64.StdEncoding.EncodeToString(png)
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.ImageContent{Data: png, MIMEType: "image/png"},
		&mcp.TextContent{Text: "a chart"},
		&mcp.TextContent{Text: `{"n": 1}`},
	}}
	want := `{"result":{"command":"composite","payload":[` +
		`{"command":"showImage","payload":{"mediaType":"image/png","data":"` + b64 + `"}},` +
		`{"command":"showText","payload":"a chart"},` +
		`{"command":"showData","payload":{"n":1}}]},"isError":false}`
	b, err := jsonvalue.Marshal(toolVaultResponse(res))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, b); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("toolvault response:\n%s\nwant\n%s", got.String(), want)
	}
}
