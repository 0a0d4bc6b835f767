package dialect

import (
	"regexp"
	"strings"
	"testing"
)

func TestNameRules(t *testing.T) {
	long := strings.Repeat("a", 70)
	tests := []struct {
		format  Format
		in      string
		want    string
		renamed bool
	}{
		{OpenAI, "mycli_get_pods", "mycli_get_pods", false},
		{OpenAI, "mycli-get-pods", "mycli-get-pods", false},
		{OpenAI, "mycli.get pods", "mycli_get_pods", true},
		{OpenAI, "héllo", "h_llo", true},
		{Canonical, "mycli-get", "mycli_get", true},
		{Anthropic, "9lives", "9lives", false},
		{Gemini, "9lives", "_9lives", true},
		{Gemini, "-x", "_-x", true},
		{Gemini, "_ok", "_ok", false},
		{ToolVault, "a:b", "a_b", true},
		{OpenAI, "", "_", true},
		{OpenAI, long, long[:55] + "_" + hash8(long), true},
	}
	for _, tt := range tests {
		r := &report{format: tt.format, tool: tt.in}
		got := nameRules()[tt.format].apply(tt.in, r)
		if got != tt.want {
			t.Errorf("%s: apply(%q) = %q, want %q", tt.format, tt.in, got, tt.want)
		}
		if (len(r.warns) > 0) != tt.renamed {
			t.Errorf("%s: apply(%q) warnings %v, renamed=%v", tt.format, tt.in, r.warns, tt.renamed)
		}
		if !ruleRE[tt.format].MatchString(got) {
			t.Errorf("%s: %q breaks the rule", tt.format, got)
		}
	}
}

// ruleRE restates each format's documented name rule (see rules_test.go).
var ruleRE = map[Format]*regexp.Regexp{
	Canonical: regexp.MustCompile(`^[a-zA-Z0-9_]{1,64}$`),
	OpenAI:    regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	Anthropic: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	Gemini:    regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`),
	ToolVault: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
}

// hash8 restates the suffix rule: 8 hex digits of FNV-1a 32 of the name.
func hash8(s string) string {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	const hex = "0123456789abcdef"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = hex[h&0xf]
		h >>= 4
	}
	return string(b[:])
}

func TestLongNamesStayApart(t *testing.T) {
	a := strings.Repeat("x", 60) + "_alpha"
	b := strings.Repeat("x", 60) + "_beta"
	r := &report{}
	na, nb := nameRules()[OpenAI].apply(a, r), nameRules()[OpenAI].apply(b, r)
	if na == nb || len(na) != 64 || len(nb) != 64 {
		t.Errorf("long names mapped to %q and %q", na, nb)
	}
}

func TestNameFor(t *testing.T) {
	tests := []struct {
		f    Format
		in   string
		want string
	}{
		{MCP, "mycli.version", "mycli.version"},
		{OpenAI, "mycli.version", "mycli_version"},
		{Canonical, "mycli_port-forward", "mycli_port_forward"},
		{Gemini, "9lives", "_9lives"},
		{"unknown", "a.b", "a.b"},
	}
	for _, tt := range tests {
		if got := NameFor(tt.f, tt.in); got != tt.want {
			t.Errorf("NameFor(%s, %q) = %q, want %q", tt.f, tt.in, got, tt.want)
		}
	}
}
