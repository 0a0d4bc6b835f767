package realcli

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/cobramcp/cobramcp/test/wirelist"
	"github.com/cobramcp/cobramcp/toolset"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSearchRealKubectl asks search mode what a person asks of kubectl,
// on kubectl's real tree (its own names, descriptions and examples, which
// nobody in this project wrote): the command meant is the first result,
// or among the first three where two are right.
func TestSearchRealKubectl(t *testing.T) {
	ts, err := toolset.New(Kubectl(), nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{Mode: toolset.ToolModeSearch})
	if err != nil {
		t.Fatal(err)
	}
	full, _ := json.Marshal(fullView(ts).Tools())
	small, err := wirelist.Bytes(v.NewServer(toolset.ServerOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kubectl: %d tools; tools/list %d bytes full, %d bytes in search mode (the whole response)", len(fullView(ts).Tools()), len(full), small)
	if small > 4096 {
		t.Errorf("search mode's tools/list response is %d bytes, over 4 KB", small)
	}
	// kubectl has its own describe and run: search mode's names are none
	// of kubectl's tool names.
	for _, st := range v.Tools() {
		if _, clash := lookup(fullView(ts), st.Name); clash {
			t.Errorf("search mode's %s is also a kubectl tool in full mode", st.Name)
		}
	}
	if _, ok := lookup(fullView(ts), "kubectl_run"); !ok {
		t.Error("kubectl_run (kubectl run) is not a full-mode tool: the check above checks nothing")
	}
	if a, err := ts.View(toolset.Listing{Mode: toolset.ToolModeAuto}); err != nil {
		t.Errorf("auto on kubectl: %v", err)
	} else if !slices.Equal(toolNames(a.Tools()), toolNames(v.Tools())) {
		t.Errorf("auto on kubectl's %d tools lists %v, want search mode's tools %v", len(fullView(ts).Tools()), toolNames(a.Tools()), toolNames(v.Tools()))
	}
	tests := []struct {
		query, want string
		within      int
	}{
		{"list pods in a namespace", "kubectl_get", 1},
		{"roll back a deployment", "kubectl_rollout_undo", 1},
		{"show logs of a container", "kubectl_logs", 1},
		{"switch context", "kubectl_config_use-context", 1},
		{"scale a deployment to 3 replicas", "kubectl_scale", 1},
		{"delete a pod", "kubectl_delete", 1},
		{"forward a local port to a pod", "kubectl_port-forward", 1},
		{"cpu usage of nodes", "kubectl_top_node", 1},
		{"run a command in a container", "kubectl_exec", 1},
		{"create a secret from literal values", "kubectl_create_secret_generic", 1},
		{"apply a manifest file", "kubectl_apply", 1},
		{"drain a node", "kubectl_drain", 1},
		{"mark a node unschedulable", "kubectl_cordon", 1},
		{"restart a deployment", "kubectl_rollout_restart", 1},
		{"copy files from a pod", "kubectl_cp", 1},
		{"add a label to a pod", "kubectl_label", 1},
	}
	for _, tt := range tests {
		q, _ := json.Marshal(map[string]any{"query": tt.query, "limit": 5})
		res, err := v.Call(context.Background(), "kubectl_search_commands", q)
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %+v", tt.query, err, res)
		}
		var out struct{ Results []struct{ Command string } }
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range out.Results {
			got = append(got, r.Command)
		}
		ok := false
		for i := 0; i < tt.within && i < len(got); i++ {
			ok = ok || got[i] == tt.want
		}
		if !ok {
			t.Errorf("%q: want %s within %d, got %v", tt.query, tt.want, tt.within, got)
		}
	}
}
