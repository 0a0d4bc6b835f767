package flagschema

import (
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// Every pattern a generated schema holds has words, so that no message
// about a value quotes a regular expression.
func TestPatternWordsCoverGeneratedPatterns(t *testing.T) {
	kinds := []string{"duration", "ip", "ipMask", "ipNet", "bytesHex", "bytesBase64",
		"durationSlice", "ipSlice", "ipNetSlice", "stringToString", "stringToInt", "stringToInt64"}
	for _, kind := range kinds {
		k, _ := Lookup(kind)
		s, _ := k.typeSchema()
		var patterns []string
		var walk func(s *jsonschema.Schema)
		walk = func(s *jsonschema.Schema) {
			if s == nil {
				return
			}
			if s.Pattern != "" {
				patterns = append(patterns, s.Pattern)
			}
			walk(s.Items)
			walk(s.PropertyNames)
			walk(s.AdditionalProperties)
			for _, a := range s.AnyOf {
				walk(a)
			}
		}
		walk(s)
		if len(patterns) == 0 {
			t.Errorf("%s: no pattern", kind)
		}
		for _, p := range patterns {
			w, ok := PatternWords(p)
			if !ok || w == "" || strings.ContainsAny(w, "^$") {
				t.Errorf("%s: pattern %q has no words (%q)", kind, p, w)
			}
		}
	}
	if w, ok := PatternWords(`^[a-z]+$`); ok {
		t.Errorf("an annotation's pattern has words: %q", w)
	}
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.Duration("d", 0, "")
	if s, _ := For(fs.Lookup("d")); s.Pattern == "" {
		t.Fatal("no duration pattern")
	} else if w, _ := PatternWords(s.Pattern); w != "a Go duration such as 30s, 5m, 1h30m" {
		t.Errorf("duration: %q", w)
	}
}
