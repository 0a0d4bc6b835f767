package exec_test

import (
	"slices"
	"testing"

	"github.com/cobramcp/cobramcp/internal/exec"
)

func TestWithoutEnv(t *testing.T) {
	env := []string{"PATH=/bin", "MYCLI_MCP_TOKEN=secret", "MYCLI_MCP_SET=a=b", "HOME=/h", "MYCLI=x"}
	for _, tt := range []struct {
		name string
		hide []string
		want []string
	}{
		{"nothing hidden", nil, env},
		{"one name", []string{"HOME"}, []string{"PATH=/bin", "MYCLI_MCP_TOKEN=secret", "MYCLI_MCP_SET=a=b", "MYCLI=x"}},
		{"a prefix", []string{"MYCLI_MCP_*"}, []string{"PATH=/bin", "HOME=/h", "MYCLI=x"}},
		{"a name is not a prefix", []string{"MYCLI"}, []string{"PATH=/bin", "MYCLI_MCP_TOKEN=secret", "MYCLI_MCP_SET=a=b", "HOME=/h"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := exec.WithoutEnv(env, tt.hide); !slices.Equal(got, tt.want) {
				t.Errorf("WithoutEnv(%q) = %q, want %q", tt.hide, got, tt.want)
			}
		})
	}
	if got := exec.WithoutEnv(nil, nil); got != nil {
		t.Errorf("nil with nothing to hide = %q, want nil (inherit)", got)
	}
	t.Setenv("COBRAMCP_TEST_HIDDEN", "1")
	if got := exec.WithoutEnv(nil, []string{"COBRAMCP_TEST_HIDDEN"}); got == nil || slices.ContainsFunc(got, func(kv string) bool { return kv == "COBRAMCP_TEST_HIDDEN=1" }) {
		t.Errorf("nil env: the current environment less the hidden variable, got %d entries", len(got))
	}
}
