package dialect_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/dialect"
)

func TestNormalizeTags(t *testing.T) {
	many := make([]string, 25)
	for i := range many {
		many[i] = fmt.Sprintf("t%d", i)
	}
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nil", nil, []string{}},
		{"lower and trim", []string{"  Kubernetes "}, []string{"kubernetes"}},
		{"white space runs", []string{"read \t only\nmode"}, []string{"read-only-mode"}},
		{"allowed characters", []string{"a_b.c-d", "v1.2!", "ünï#cødé"}, []string{"a_b.c-d", "v1.2", "ncd"}},
		{"empties dropped", []string{"", "   ", "!!!", "ok"}, []string{"ok"}},
		{"duplicates after normalising", []string{"Ops", "ops", " OPS ", "dev", "ops"}, []string{"ops", "dev"}},
		{"cut to 64", []string{strings.Repeat("ab", 40)}, []string{strings.Repeat("ab", 32)}},
		{"at most 20", many, many[:20]},
		{"duplicates do not count", append([]string{"t0", "t0", "t0"}, many...), many[:20]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dialect.NormalizeTags(tt.in)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || got == nil {
				t.Errorf("NormalizeTags(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestToolID(t *testing.T) {
	tests := []struct {
		ns, name, want string
	}{
		{"", "get_pods", "get_pods"},
		{"mycli", "get_pods", "mycli:get_pods"},
	}
	for _, tt := range tests {
		if got := dialect.ToolID(tt.ns, tt.name); got != tt.want {
			t.Errorf("ToolID(%q, %q) = %q, want %q", tt.ns, tt.name, got, tt.want)
		}
		ns, name, err := dialect.ParseToolID(tt.want)
		if err != nil || ns != tt.ns || name != tt.name {
			t.Errorf("ParseToolID(%q) = %q, %q, %v", tt.want, ns, name, err)
		}
	}
}

func TestParseToolIDErrors(t *testing.T) {
	for _, id := range []string{"", ":x", "x:", "a:b:c", ":"} {
		if _, _, err := dialect.ParseToolID(id); err == nil {
			t.Errorf("ParseToolID(%q) accepted", id)
		}
	}
}
