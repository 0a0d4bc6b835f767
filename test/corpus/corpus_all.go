//go:build corpusall

package corpus

import (
	"flag"
	"io"
	"os"
	"strings"

	"github.com/cli/cli/v2/pkg/cmd/factory"
	ghroot "github.com/cli/cli/v2/pkg/cmd/root"
	"github.com/spf13/cobra"
	helmcmd "helm.sh/helm/v4/pkg/cmd"
	kindcmd "sigs.k8s.io/kind/pkg/cmd"
	"sigs.k8s.io/kind/pkg/cmd/kind"
	"sigs.k8s.io/kind/pkg/log"
	kustomize "sigs.k8s.io/kustomize/kustomize/v5/commands"
)

// heavy are the CLIs whose dependencies take minutes to build.
var heavy = []CLI{
	{Name: "kind", Version: "v0.33.0", Main: "sigs.k8s.io/kind",
		Root: func() *cobra.Command {
			return kind.NewCommand(log.NoopLogger{}, kindcmd.IOStreams{In: os.Stdin, Out: io.Discard, ErrOut: io.Discard})
		},
		Calls: []Call{{Tool: "kind_version", Arguments: `{}`, Argv: []string{"version"}}}},
	{Name: "kustomize", Version: "v5.8.2", Main: "sigs.k8s.io/kustomize/kustomize/v5",
		Root: func() *cobra.Command {
			// Its main adds Go's flag.CommandLine to the root's flags:
			// in this test binary, the testing package's flags and the
			// test's own, which the kustomize binary does not have.
			root := kustomize.NewDefaultCommand()
			flag.VisitAll(func(g *flag.Flag) {
				if f := root.PersistentFlags().Lookup(g.Name); f != nil && (strings.HasPrefix(g.Name, "test.") || g.Name == "cli") {
					f.Hidden = true
				}
			})
			return root
		},
		Calls: []Call{
			{Tool: "kustomize_version", Arguments: `{}`, Argv: []string{"version"}},
			{Tool: "kustomize_build", Arguments: `{"args":["$DIR"]}`, Argv: []string{"build", "$DIR"}},
		}},
	{Name: "helm", Version: "v4.3.1", Main: "helm.sh/helm/v4/cmd/helm",
		Root: func() *cobra.Command {
			// As helm's main does, with no arguments. (Its defaults
			// are read from the environment when the package is
			// initialized: the binary and the tree see the same.)
			root, err := helmcmd.NewRootCmd(io.Discard, nil, func(bool) {})
			if err != nil {
				panic(err)
			}
			return root
		},
		Calls: []Call{
			{Tool: "helm_create", Arguments: `{"args":["$DIR/mychart"]}`, Argv: []string{"create", "$DIR/mychart"}},
			{Tool: "helm_template", Arguments: `{"args":["rel","$DIR/mychart"],"flags":{"set":["replicaCount=3"]}}`, Argv: []string{"template", "rel", "$DIR/mychart", "--set=replicaCount=3"}},
			{Tool: "helm_show_chart", Arguments: `{"args":["$DIR/mychart"]}`, Argv: []string{"show", "chart", "$DIR/mychart"}},
		}},
	{Name: "gh", Version: "v2.90.0", Main: "github.com/cli/cli/v2/cmd/gh", Env: []string{"GH_CONFIG_DIR"},
		Root: func() *cobra.Command {
			// As gh's main (internal/ghcmd) does; the version is "DEV"
			// in a binary built from another module, as in-process.
			root, err := ghroot.NewCmdRoot(factory.New("DEV", ""), "DEV", "")
			if err != nil {
				panic(err)
			}
			return root
		},
		Calls: []Call{
			{Tool: "gh_config_get", Arguments: `{"args":["git_protocol"]}`, Argv: []string{"config", "get", "git_protocol"}},
			{Tool: "gh_config_set", Arguments: `{"args":["editor","vim"]}`, Argv: []string{"config", "set", "editor", "vim"}},
			{Tool: "gh_alias_set", Arguments: `{"args":["pv","pr view"],"flags":{"clobber":true}}`, Argv: []string{"alias", "set", "--clobber", "pv", "pr view"}},
		}},
}
