package corpus

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unsafe" // go:linkname, for the roots that mains keep unexported

	crane "github.com/google/go-containerregistry/cmd/crane/cmd"
	kbcli "sigs.k8s.io/kubebuilder/v4/pkg/cli"
	cfgv3 "sigs.k8s.io/kubebuilder/v4/pkg/config/v3"
	kbplugin "sigs.k8s.io/kubebuilder/v4/pkg/plugin"
	kustomizecommonv2 "sigs.k8s.io/kubebuilder/v4/pkg/plugins/common/kustomize/v2"
	"sigs.k8s.io/kubebuilder/v4/pkg/plugins/golang"
	deployimagev1alpha1 "sigs.k8s.io/kubebuilder/v4/pkg/plugins/golang/deploy-image/v1alpha1"
	golangv4 "sigs.k8s.io/kubebuilder/v4/pkg/plugins/golang/v4"
	autoupdatev1alpha "sigs.k8s.io/kubebuilder/v4/pkg/plugins/optional/autoupdate/v1alpha"
	grafanav1alpha "sigs.k8s.io/kubebuilder/v4/pkg/plugins/optional/grafana/v1alpha"
	helmv1alpha "sigs.k8s.io/kubebuilder/v4/pkg/plugins/optional/helm/v1alpha" //nolint:staticcheck // kubebuilder's main registers it
	helmv2alpha "sigs.k8s.io/kubebuilder/v4/pkg/plugins/optional/helm/v2alpha"

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
	// kubebuilder's root lets unknown flags through (its plugins add
	// flags), and create api has required flags.
	{Name: "kubebuilder", Version: "v4.16.0", Main: "sigs.k8s.io/kubebuilder/v4",
		Root: kubebuilderRoot,
		Calls: []Call{
			{Tool: "kubebuilder_version", Arguments: `{}`, Argv: []string{"version"}},
			{Tool: "kubebuilder_create_api", Arguments: `{"flags":{"kind":"Captain","version":"v1","group":"crew"}}`, Argv: []string{"create", "api", "--group=crew", "--kind=Captain", "--version=v1"}},
		}},
}

// kubebuilderRoot returns kubebuilder's tree as its main
// (internal/cli/cmd.Run) builds it, with the same plugins.
func kubebuilderRoot() *cobra.Command {
	gov4Bundle, _ := kbplugin.NewBundleWithOptions(kbplugin.WithName(golang.DefaultNameQualifier),
		kbplugin.WithVersion(kbplugin.Version{Number: 4}),
		kbplugin.WithPlugins(kustomizecommonv2.Plugin{}, golangv4.Plugin{}),
		kbplugin.WithDescription("Default scaffold (go/v4 + kustomize/v2)"),
	)
	c, err := kbcli.New(
		kbcli.WithCommandName("kubebuilder"),
		// Its main passes its build's version (a package of its own,
		// internal): a version adds the version command.
		kbcli.WithVersion("v4.16.0"),
		kbcli.WithCliVersion("4.16.0"),
		kbcli.WithPlugins(
			golangv4.Plugin{},
			gov4Bundle,
			&kustomizecommonv2.Plugin{},
			&deployimagev1alpha1.Plugin{},
			&grafanav1alpha.Plugin{},
			&helmv1alpha.Plugin{},
			&helmv2alpha.Plugin{},
			&autoupdatev1alpha.Plugin{},
		),
		kbcli.WithDefaultPlugins(cfgv3.Version, gov4Bundle),
		kbcli.WithDefaultProjectVersion(cfgv3.Version),
		kbcli.WithCompletion(),
	)
	if err != nil {
		panic(err)
	}
	// The root is unexported (kbcli.CLI's cmd).
	f := reflect.ValueOf(c).Elem().FieldByName("cmd")
	return *(**cobra.Command)(unsafe.Pointer(f.UnsafeAddr()))
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
