package serve

import "testing"

func TestMendCodes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"SSE event", "event: message\nid: 1_0\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":0,\"message\":\"duplicate \\\"initialize\\\" received\"}}\n\n",
			"event: message\nid: 1_0\ndata: {\"error\":{\"code\":-32600,\"message\":\"duplicate \\\"initialize\\\" received\"},\"id\":2,\"jsonrpc\":\"2.0\"}\n\n"},
		{"JSON body", `{"jsonrpc":"2.0","id":"a","error":{"code":0,"message":"method \"x\" is invalid during session initialization"}}`,
			`{"error":{"code":-32600,"message":"method \"x\" is invalid during session initialization"},"id":"a","jsonrpc":"2.0"}`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":0,"message":"boom"}}]`,
			`[{"jsonrpc":"2.0","id":1,"result":{}},{"error":{"code":-32603,"message":"boom"},"id":2,"jsonrpc":"2.0"}]`},
		{"coded error unchanged", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}`},
		{"the marker inside a result unchanged", `{"jsonrpc":"2.0","id":1,"result":{"x":{"error":{"code":0,"message":"m"}}}}`, `{"jsonrpc":"2.0","id":1,"result":{"x":{"error":{"code":0,"message":"m"}}}}`},
		{"not JSON unchanged", `data: {"error":{"code":0,`, `data: {"error":{"code":0,`},
	}
	for _, tt := range tests {
		if got := string(mendCodes([]byte(tt.in))); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
