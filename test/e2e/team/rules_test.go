package teame2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/toolset"
)

// Each kind of rule, over the wire.
func TestRuleKinds(t *testing.T) {
	s := start(t, setup{
		access: `{"rules": [
			{"subject": "bob", "tools": ["mycli_get_*", "mycli_echo"], "exclude-tools": "mycli_get_services"},
			{"group": "dev", "scope": "mycli.write", "tools": ["mycli_version"]},
			{"group": "dev", "set-claim": {"str": "email"}, "tools": ["mycli_echo"]},
			{"scope": "mycli.read", "read-only": true}
		]}`,
		// The command line applies to everyone on top of the rules.
		policies: []toolset.Policy{{ExcludeTools: []string{"mycli_get_deployments"}}},
	})
	ctx := context.Background()
	list := func(token string) []string {
		t.Helper()
		l, err := s.mustConnect(t, token).ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return toolNames(l)
	}
	bob := list("bob")
	if !slices.Contains(bob, "mycli_get_pods") || !slices.Contains(bob, "mycli_echo") ||
		slices.Contains(bob, "mycli_get_services") || slices.Contains(bob, "mycli_get_deployments") || slices.Contains(bob, "mycli_delete_pod") {
		t.Errorf("bob (subject, tools, exclude-tools, and the command line's exclusion): %v", bob)
	}
	// dave is in dev without the write scope: rule 2 needs both, rule 3
	// pins --str to his email, which his token lacks: refused.
	if _, err := s.connect(t, "dave"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("dave, whose token lacks the claim his rule pins: %v", err)
	}
	alice := list("alice")
	if slices.Contains(alice, "mycli_delete_pod") || !slices.Contains(alice, "mycli_echo") || slices.Contains(alice, "mycli_get_deployments") {
		t.Errorf("alice (read-only): %v", alice)
	}
}

// set-claim pins the claim's value, per caller: two callers of one rule
// get their own values, each call its caller's, with their sessions open
// at once on the rule's one server; the audit line hides the value.
func TestSetClaimPerCaller(t *testing.T) {
	s := start(t, setup{access: `{"rules": [{"set-claim": {"str": "sub"}, "tools": ["mycli_echo"]}]}`})
	ctx := context.Background()
	sessions := map[string]*mcp.ClientSession{}
	for _, who := range []string{"bob", "carol"} {
		sessions[who] = s.mustConnect(t, who)
	}
	for _, who := range []string{"bob", "carol", "bob", "carol"} {
		res, err := sessions[who].CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", who, err, text(res))
		}
		if !strings.Contains(text(res), `"str":"`+who+`"`) {
			t.Errorf("%s's echo: %s", who, text(res))
		}
	}
	lines := s.auditLines(t)
	if len(lines) != 4 {
		t.Fatalf("%d audit lines, want 4", len(lines))
	}
	for _, l := range lines {
		if argv := fmt.Sprint(l["argv"]); !strings.Contains(argv, "--str=***") || strings.Contains(argv, "bob") || strings.Contains(argv, "carol") {
			t.Errorf("%s's audit argv %s; want the claim's value hidden", l["subject"], argv)
		}
	}
}
