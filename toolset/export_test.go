package toolset_test

import (
	"bytes"
	"flag"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/toolset"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// myTree is mycli with the mcp group added, as example/main.go builds it.
func myTree() *toolset.Toolset {
	root := mycli.New()
	root.AddCommand(bridge.Command(nil))
	ts, err := toolset.New(root, nil)
	if err != nil {
		panic(err)
	}
	return ts
}

// TestGoldenMycliExport compares mycli's full export with the golden file.
// Run `go test ./bridge -run Golden -update` to accept a change.
func TestGoldenMycliExport(t *testing.T) {
	ts := myTree()
	got, err := exportJSON(fullView(ts).Tools())
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("..", "testdata", "mycli-tools.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("export differs from %s; run `go test ./toolset -run Golden -update` and review the diff", golden)
	}
	again, _ := exportJSON(fullView(myTree()).Tools())
	if !bytes.Equal(got, again) {
		t.Error("export is not deterministic")
	}
	// The expanded listing, as with Listing.Expanded.
	expanded, err := exportJSON(expandedWith(nil).Tools())
	if err != nil {
		t.Fatal(err)
	}
	// Without pins, the expanded listing is the tools as defined.
	var defs []*mcp.Tool
	for _, tl := range ts.List() {
		defs = append(defs, tl.Definition())
	}
	if alt, _ := exportJSON(defs); !bytes.Equal(alt, expanded) {
		t.Error("the tools' definitions differ from the listing with Listing.Expanded")
	}
	goldenExpanded := filepath.Join("..", "testdata", "mycli-tools-expanded.json")
	if *update {
		if err := os.WriteFile(goldenExpanded, expanded, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(goldenExpanded); err != nil || !bytes.Equal(expanded, want) {
		t.Errorf("expanded export differs from %s (%v); run `go test ./toolset -run Golden -update` and review the diff", goldenExpanded, err)
	}
}

// TestEveryToolIsValid checks the discovery rules on every mycli tool: a
// name in the pattern and unique, a schema that resolves, of type object,
// and every default valid against its own schema.
func TestEveryToolIsValid(t *testing.T) {
	ts := myTree()
	if len(ts.Problems()) != 0 {
		t.Errorf("problems: %v", ts.Problems())
	}
	pattern := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	seen := map[string]bool{}
	for _, tool := range ts.List() {
		name := tool.Name
		if !pattern.MatchString(name) || seen[name] {
			t.Errorf("bad or duplicate name %q", name)
		}
		seen[name] = true
		in := toolset.Compact(tool).InputSchema.(*jsonschema.Schema)
		if in.Type != "object" {
			t.Errorf("%s: input type %q", name, in.Type)
		}
		if _, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if flags := in.Properties["flags"]; flags != nil {
			for fname, p := range flags.Properties {
				if len(p.Default) == 0 {
					continue
				}
				r, err := p.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
				if err != nil {
					t.Errorf("%s --%s: %v", name, fname, err)
					continue
				}
				var v any
				if err := jsonUnmarshal(p.Default, &v); err != nil {
					t.Fatal(err)
				}
				if err := r.Validate(v); err != nil {
					t.Errorf("%s --%s: default %s invalid: %v", name, fname, p.Default, err)
				}
			}
		}
	}
	for _, want := range []string{"mycli_show-helpers", "mycli_get_pods", "mycli_delete_pod", "mycli_version"} {
		if !seen[want] {
			t.Errorf("missing tool %s", want)
		}
	}
	for _, not := range []string{"mycli_mcp_start", "mycli_mcp_tools", "mycli_help", "mycli_completion_bash", "mycli_debug-dump"} {
		if seen[not] {
			t.Errorf("tool %s should be left out", not)
		}
	}
}
