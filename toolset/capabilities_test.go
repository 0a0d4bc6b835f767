package toolset_test

import (
	"testing"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestCapabilitiesAreWhatTheServerDoes checks that initialize advertises
// the tools and nothing the server never does: its tool list never changes
// while it runs (no notifications/tools/list_changed), and it sends no log
// messages (no logging capability).
func TestCapabilitiesAreWhatTheServerDoes(t *testing.T) {
	ts := mustTools(t, testTree(), nil)
	srv := fullView(ts).NewServer(toolset.ServerOptions{})
	cs := connect(t, srv)
	caps := cs.InitializeResult().Capabilities
	if caps.Tools == nil {
		t.Fatal("the tools capability is missing")
	}
	if caps.Tools.ListChanged {
		t.Error("tools.listChanged is advertised, but the tool list never changes")
	}
	if caps.Logging != nil {
		t.Error("logging is advertised, but the server sends no log messages")
	}
	if caps.Prompts != nil || caps.Resources != nil || caps.Completions != nil {
		t.Errorf("advertises capabilities it does not serve: %+v", caps)
	}
}
