package toolset_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/toolset"
)

// groupsTree has one command per kind of cobra flag group, the way
// kubectl and gh use them.
func groupsTree() *cobra.Command {
	root := &cobra.Command{Use: "kc"}
	run := func(*cobra.Command, []string) error { return nil }
	del := &cobra.Command{Use: "delete", RunE: run}
	del.Flags().Bool("all", false, "all of them")
	del.Flags().StringP("selector", "l", "", "label selector")
	del.Flags().String("field-selector", "", "field selector")
	del.MarkFlagsMutuallyExclusive("all", "selector", "field-selector")
	create := &cobra.Command{Use: "create", RunE: run}
	create.Flags().StringP("filename", "f", "", "file")
	create.Flags().StringP("kustomize", "k", "", "kustomization dir")
	create.MarkFlagsOneRequired("filename", "kustomize")
	create.MarkFlagsMutuallyExclusive("filename", "kustomize")
	login := &cobra.Command{Use: "login", RunE: run}
	login.Flags().String("username", "", "user")
	login.Flags().String("password", "", "password")
	login.MarkFlagsRequiredTogether("username", "password")
	root.AddCommand(del, create, login)
	return root
}

// TestOpenAIStrictRealTrees: `mcp tools --format openai --strict` carries
// the docker-, etcdctl- and kubectl-like trees without loss; their flag
// groups are restated in the flags object's description, naming every
// flag, and reported as Restated.
func TestOpenAIStrictRealTrees(t *testing.T) {
	etcd := &toolset.Config{Selectors: []toolset.Selector{{HiddenFlag: func(*pflag.Flag) bool { return true }}}}
	trees := []struct {
		name     string
		root     *cobra.Command
		cfg      *toolset.Config
		restated map[string]string // tool -> a sentence its flags description holds
	}{
		{"docker", dockerTree(&dockerSeen{}), nil, nil},
		{"etcdctl", etcdctlTree(), etcd, nil},
		{"groups", groupsTree(), nil, map[string]string{
			"kc_delete": `At most one of "all", "selector", "field-selector" may be set.`,
			"kc_create": `At most one of "filename", "kustomize" may be set. At least one of "filename", "kustomize" must be set.`,
			"kc_login":  `Either all or none of "password", "username" may be set.`,
		}},
	}
	for _, tr := range trees {
		t.Run(tr.name, func(t *testing.T) {
			ts := mustTools(t, tr.root, tr.cfg)
			out, warns, err := dialect.Export(dialect.OpenAI, fullView(ts).Tools(), dialect.Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), `"strict": false`) {
				t.Errorf("a tool is not strict:\n%s", out)
			}
			got := map[string]int{}
			for _, w := range warns {
				if w.Kind != dialect.Restated {
					t.Errorf("loss %v", w)
				}
				got[w.Tool]++
			}
			for tool, sentence := range tr.restated {
				if got[tool] != 1 {
					t.Errorf("%s: %d restated warnings, want 1", tool, got[tool])
				}
				if d := flagsDescription(t, out, tool); !strings.Contains(d, sentence) {
					t.Errorf("%s: the flags description %q does not say %q", tool, d, sentence)
				}
			}
			if len(got) != len(tr.restated) {
				t.Errorf("restated in %v, want %v", got, tr.restated)
			}
		})
	}
}

// flagsDescription returns the description of tool's flags object in an
// OpenAI export (an optional object: the non-null anyOf branch).
func flagsDescription(t *testing.T, out []byte, tool string) string {
	t.Helper()
	var fns []struct {
		Function struct {
			Name       string
			Parameters struct {
				Properties struct {
					Flags struct {
						AnyOf []struct{ Description string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out, &fns); err != nil {
		t.Fatal(err)
	}
	for _, f := range fns {
		if f.Function.Name == tool {
			for _, b := range f.Function.Parameters.Properties.Flags.AnyOf {
				if b.Description != "" {
					return b.Description
				}
			}
		}
	}
	return ""
}
