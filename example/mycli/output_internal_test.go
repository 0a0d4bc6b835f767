package mycli

import (
	"strings"
	"testing"
)

func TestToYAML(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"scalar", "web", "web\n"},
		{"null", nil, "null\n"},
		{"empty list", []string{}, "[]\n"},
		{"map", map[string]any{"b": 1, "a": "x"}, "a: x\nb: 1\n"},
		{"quoted strings", map[string]string{"t": "true", "e": "", "c": "a: b", "x": "1.25", "n": "no", "u": "ünï", "q": `say "hi"`},
			"c: \"a: b\"\ne: \"\"\n\"n\": \"no\"\nq: \"say \\\"hi\\\"\"\nt: \"true\"\nu: \"ünï\"\nx: \"1.25\"\n"},
		{"nested", map[string]any{"items": []any{map[string]any{"name": "p", "labels": map[string]string{"app": "web"}}, "s"}, "empty": map[string]any{}},
			"empty: {}\nitems:\n  - labels:\n      app: web\n    name: p\n  - s\n"},
		{"list of lists", []any{[]any{1, 2}, []any{}}, "- - 1\n  - 2\n- []\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toYAML(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("toYAML(%v) =\n%s\nwant\n%s", tt.in, got, tt.want)
			}
		})
	}
	if _, err := toYAML(func() {}); err == nil || !strings.Contains(err.Error(), "yaml") {
		t.Errorf("toYAML(func) err = %v, want an encode error", err)
	}
}

func TestParseSelector(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "frontend"}
	tests := []struct {
		sel  string
		want bool
	}{
		{"", true},
		{"app=web", true},
		{"app==web", true},
		{"app=api", false},
		{"app!=api", true},
		{"app!=web", false},
		{"tier", true},
		{"env", false},
		{"!env", true},
		{"!tier", false},
		{"app=web, tier=frontend", true},
		{"app=web,tier=backend", false},
	}
	for _, tt := range tests {
		reqs, err := parseSelector(tt.sel)
		if err != nil {
			t.Fatalf("parseSelector(%q): %v", tt.sel, err)
		}
		if got := matches(reqs, labels); got != tt.want {
			t.Errorf("%q matches %v = %v, want %v", tt.sel, labels, got, tt.want)
		}
	}
	for _, bad := range []string{"=x", "a=b,,c", "!"} {
		if _, err := parseSelector(bad); err == nil {
			t.Errorf("parseSelector(%q): no error", bad)
		}
	}
}
