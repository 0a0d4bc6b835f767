package realcli

import (
	"testing"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestOpenAIStrict: every tree, kubectl's included, exports to OpenAI
// strict mode without loss (`mcp tools --format openai --strict`): every
// function strict, map flags as {key, value} pairs; mycli's flag groups
// are restated in words, which is no loss (kubectl's tree as reflected
// has none).
func TestOpenAIStrict(t *testing.T) {
	for _, tr := range Trees {
		t.Run(tr.Name, func(t *testing.T) {
			ts, err := toolset.New(tr.New(), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, warns, err := dialect.Export(dialect.OpenAI, fullView(ts).Tools(), dialect.Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			restated := 0
			for _, w := range warns {
				if w.Kind == dialect.Restated {
					restated++
				}
			}
			if tr.Name == "mycli" && restated == 0 {
				t.Errorf("no flag group restated in %d warnings", len(warns))
			}
		})
	}
}
