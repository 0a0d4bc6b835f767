package flagschema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// suiteGroup is one group of the JSON Schema Test Suite: a schema and
// instances with their expected validity.
type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string `json:"description"`
		Data        any    `json:"data"`
		Valid       bool   `json:"valid"`
	} `json:"tests"`
}

// refusals are the reasons For may give for refusing a suite schema; any
// other error is a failure.
var refusals = []string{
	"recursive $ref",
	"external $ref",
	"only the root may have an $id",
	"is not supported",   // $dynamicRef, $dynamicAnchor
	"want a JSON object", // boolean schemas
	"a default does not validate",
}

// TestSuite runs the official test suite through annotations: whatever For
// accepts must validate exactly as the original schema does.
func TestSuite(t *testing.T) {
	for _, dir := range []string{"draft7", "draft2020-12"} {
		files, err := filepath.Glob(filepath.Join("testdata", "suite", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no suite files in %s: %v", dir, err)
		}
		var accepted, refused int
		for _, file := range files {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var groups []suiteGroup
			if err := json.Unmarshal(raw, &groups); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, g := range groups {
				name := dir + "/" + strings.TrimSuffix(filepath.Base(file), ".json") + "/" + g.Description
				schema := string(g.Schema)
				if dir == "draft7" && strings.HasPrefix(strings.TrimSpace(schema), "{") && !strings.Contains(schema, `"$schema"`) {
					schema = `{"$schema":"http://json-schema.org/draft-07/schema#",` + strings.TrimPrefix(strings.TrimSpace(schema), "{")
					schema = strings.Replace(schema, `#",}`, `#"}`, 1) // an empty schema
				}
				fs := pflag.NewFlagSet("suite", pflag.ContinueOnError)
				fs.String("x", "", "")
				if err := fs.SetAnnotation("x", Annotation, []string{schema}); err != nil {
					t.Fatal(err)
				}
				s, err := For(fs.Lookup("x"))
				if err != nil {
					if !knownRefusal(err.Error()) {
						t.Errorf("%s: refused: %v", name, err)
					}
					t.Logf("%s: %v", name, err)
					refused++
					continue
				}
				accepted++
				rs, err := s.Resolve(nil)
				if err != nil {
					t.Errorf("%s: result does not resolve: %v", name, err)
					continue
				}
				out, _ := json.Marshal(s)
				if hasRef(t, out) {
					t.Errorf("%s: result keeps a $ref: %s", name, out)
				}
				for _, tc := range g.Tests {
					err := rs.Validate(tc.Data)
					if (err == nil) != tc.Valid {
						t.Errorf("%s / %s: valid = %v, want %v (%v)\nschema %s\nresult %s", name, tc.Description, err == nil, tc.Valid, err, schema, out)
					}
				}
			}
		}
		t.Logf("%s: %d schemas accepted, %d refused", dir, accepted, refused)
		if accepted == 0 {
			t.Errorf("%s: no schema accepted", dir)
		}
	}
}

func knownRefusal(msg string) bool {
	for _, r := range refusals {
		if strings.Contains(msg, r) {
			return true
		}
	}
	return false
}

// hasRef reports whether a schema in JSON has a "$ref" keyword (not a
// property named "$ref", nor an instance containing one).
func hasRef(t *testing.T, raw []byte) bool {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	var walk func(v any, ptr string) (any, error)
	walk = func(v any, ptr string) (any, error) {
		if m, ok := v.(map[string]any); ok {
			if _, ok := m["$ref"]; ok {
				found = true
			}
			return v, children(m, ptr, walk)
		}
		return v, nil
	}
	_, _ = walk(doc, "")
	return found
}
