package toolset_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestListingOnTheWire: the server registers the definitions with their
// schemas encoded once, and its tools/list answer is, byte for byte, that of
// a go-sdk server given the definitions of Tools as they are, in full and
// in search mode, with text that JSON escapes.
func TestListingOnTheWire(t *testing.T) {
	odd := &cobra.Command{Use: "odd"}
	leaf := &cobra.Command{Use: "esc <ARG>", Short: "a <b> & \"c\" \u2028 é", RunE: noop}
	leaf.Flags().String("sel", "a<b>&c", "select <things> & more\twith a tab")
	odd.AddCommand(leaf)
	for _, tt := range []struct {
		name string
		ts   *toolset.Toolset
		mode toolset.ToolMode
	}{
		{"mycli full", myTree(), toolset.ToolModeFull},
		{"escapes", mustTools(t, odd, nil), toolset.ToolModeFull},
		{"kubectl and helm, search", mustTools(t, realisticTree(), nil), toolset.ToolModeSearch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.ts.View(toolset.Listing{Mode: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			got := rawToolsList(t, v.NewServer(toolset.ServerOptions{}))
			plain := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
			for _, def := range v.Tools() {
				plain.AddTool(def, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
			}
			want := rawToolsList(t, plain)
			if len(got) != len(want) || len(got) != len(v.Tools()) {
				t.Fatalf("%d tools on the wire, %d from the plain server, %d in Tools", len(got), len(want), len(v.Tools()))
			}
			for i := range want {
				if string(got[i]) != string(want[i]) {
					t.Errorf("tool %d on the wire:\n%s\nwant\n%s", i, got[i], want[i])
				}
			}
		})
	}
}

// rawToolsList initializes a session with srv and returns the tools of its
// tools/list answer as the server wrote them.
func rawToolsList(t *testing.T, srv *mcp.Server) []json.RawMessage {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := func(id int64, method, params string) json.RawMessage {
		rid, err := jsonrpc.MakeID(float64(id))
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Write(ctx, &jsonrpc.Request{ID: rid, Method: method, Params: json.RawMessage(params)}); err != nil {
			t.Fatal(err)
		}
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok || resp.Error != nil {
			t.Fatalf("%s: %#v", method, msg)
		}
		return resp.Result
	}
	call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	if err := conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(call(2, "tools/list", `{}`), &res); err != nil {
		t.Fatal(err)
	}
	return res.Tools
}
