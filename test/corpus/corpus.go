package corpus

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	_ "unsafe" // go:linkname, for the roots that mains keep unexported

	crane "github.com/google/go-containerregistry/cmd/crane/cmd"

	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/spf13/cobra"
	_ "github.com/spf13/cobra-cli/cmd"
	_ "go.etcd.io/etcd/etcdctl/v3/ctlv3"
)

// CLI is one real CLI of the corpus.
type CLI struct {
	Name    string // the binary's name, and so its root command's
	Version string // the pinned version
	// Main is the main package built, from this module (its pins merged
	// with cobramcp's) or, when Module is set, from that directory, a
	// module of its own that keeps the CLI's own pins (what `go install
	// Main@Version` gives a user, which the proxy here cannot list).
	Main   string
	Module string
	// Root returns the command tree as the CLI's main builds it.
	Root func() *cobra.Command
	// Env names the variables set to a new empty directory, for the
	// binary and the in-process tree alike (gh's GH_CONFIG_DIR).
	Env []string
	// Calls are offline calls made through the tools served from
	// outside, each compared with running the binary directly.
	Calls []Call
}

// Call is one offline tool call and the command line that it stands for.
type Call = corpustest.Call

//go:linkname etcdctlRoot go.etcd.io/etcd/etcdctl/v3/ctlv3.rootCmd
var etcdctlRoot *cobra.Command

//go:linkname cobraCLIRoot github.com/spf13/cobra-cli/cmd.rootCmd
var cobraCLIRoot *cobra.Command

// CLIs returns the CLIs of the corpus, cheapest to build first: the fast
// ones, then (with the build tag corpusall, as `make corpus` sets it) the
// ones whose dependencies take minutes to build, so that `go test
// -short` builds none of them.
func CLIs() []CLI { return append(slices.Clone(fast), heavy...) }

// fast are the CLIs that `go test -short` (make test) runs.
var fast = []CLI{
	{Name: "cobra-cli", Version: "v1.3.0", Main: "github.com/spf13/cobra-cli", Module: "cobracli",
		Root:  func() *cobra.Command { return cobraCLIRoot },
		Calls: []Call{{Tool: "cobra-cli_add", Arguments: `{}`, Argv: []string{"add"}}}},
	{Name: "crane", Version: "v0.22.1", Main: "github.com/google/go-containerregistry/cmd/crane",
		Root: func() *cobra.Command { return crane.Root },
		Calls: []Call{
			{Tool: "crane_version", Arguments: `{}`, Argv: []string{"version"}},
			{Tool: "crane_digest", Arguments: `{"flags":{"tarball":"$DIR/none.tar"}}`, Argv: []string{"digest", "--tarball=$DIR/none.tar"}},
		}},
	{Name: "etcdctl", Version: "v3.7.3", Main: "go.etcd.io/etcd/etcdctl/v3",
		Root:  func() *cobra.Command { return etcdctlRoot },
		Calls: []Call{{Tool: "etcdctl_version", Arguments: `{}`, Argv: []string{"version"}}}},
}

// Build builds the CLI's binary into dir (named after the CLI) and returns
// its path.
func (c *CLI) Build(ctx context.Context, dir string) (string, error) {
	out := filepath.Join(dir, c.Name)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, c.Main)
	cmd.Dir = c.Module
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s %s: %v\n%s", c.Name, c.Version, err, strings.TrimSpace(string(b)))
	}
	return out, nil
}
