package bridge

import "testing"

// The variables of a CLI are named after it, with the characters a
// variable name cannot hold made '_'.
func TestPolicyEnvNames(t *testing.T) {
	tests := []struct{ root, flag, want string }{
		{"kubectl-foo", "exclude-tools", "KUBECTL_FOO_MCP_EXCLUDE_TOOLS"},
		{"mycli", "timeout", "MYCLI_MCP_TIMEOUT"},
		{"my.cli", "max-parallel", "MY_CLI_MCP_MAX_PARALLEL"},
	}
	for _, tt := range tests {
		if got := policyEnv(tt.root, tt.flag); got != tt.want {
			t.Errorf("policyEnv(%q, %q) = %s, want %s", tt.root, tt.flag, got, tt.want)
		}
	}
}

func TestTokenEnv(t *testing.T) {
	tests := []struct{ root, want string }{
		{"mycli", "MYCLI_MCP_TOKEN"},
		{"kubectl-foo", "KUBECTL_FOO_MCP_TOKEN"},
		{"My.Tool2", "MY_TOOL2_MCP_TOKEN"},
	}
	for _, tt := range tests {
		if got := tokenEnv(tt.root); got != tt.want {
			t.Errorf("tokenEnv(%q) = %q, want %q", tt.root, got, tt.want)
		}
	}
}
