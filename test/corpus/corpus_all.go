//go:build corpusall

package corpus

import (
	"io"
	"os"

	"github.com/cli/cli/v2/pkg/cmd/factory"
	ghroot "github.com/cli/cli/v2/pkg/cmd/root"
	"github.com/spf13/cobra"
	helmcmd "helm.sh/helm/v4/pkg/cmd"
	kindcmd "sigs.k8s.io/kind/pkg/cmd"
	"sigs.k8s.io/kind/pkg/cmd/kind"
	"sigs.k8s.io/kind/pkg/log"
)

// heavy are the CLIs whose dependencies take minutes to build.
var heavy = []CLI{
	{Name: "kind", Version: "v0.33.0", Main: "sigs.k8s.io/kind",
		Root: func() *cobra.Command {
			return kind.NewCommand(log.NoopLogger{}, kindcmd.IOStreams{In: os.Stdin, Out: io.Discard, ErrOut: io.Discard})
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
		}},
}
