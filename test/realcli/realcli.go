package realcli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/logs"
	"k8s.io/kubectl/pkg/cmd"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/test/wirelist"
	"github.com/cobramcp/cobramcp/toolset"
)

// Tree is a named command tree to measure.
type Tree struct {
	Name string
	New  func() *cobra.Command // a fresh tree, the mcp group added
}

// Trees are the trees measured, smallest first.
var Trees = []Tree{
	{Name: "mycli", New: func() *cobra.Command {
		root := mycli.New()
		root.AddCommand(bridge.Command(nil))
		return root
	}},
	{Name: "kubectl", New: Kubectl},
}

// Kubectl returns kubectl's real command tree (k8s.io/kubectl), the mcp
// group added. Building it reads no cluster and no kubeconfig. The tree is
// the one the kubectl binary runs (./kubectl): component-base's cli.Run
// adds klog's flags (--v, --vmodule, --log-flush-frequency) to the root and
// normalizes "_" in flag names to "-" before it executes the command.
func Kubectl() *cobra.Command {
	root := cmd.NewKubectlCommand(cmd.KubectlOptions{
		IOStreams: genericiooptions.IOStreams{In: os.Stdin, Out: io.Discard, ErrOut: io.Discard},
		Arguments: []string{"kubectl"},
	})
	root.SetGlobalNormalizationFunc(cliflag.WordSepNormalizeFunc)
	logs.AddFlags(root.PersistentFlags())
	root.AddCommand(bridge.Command(nil))
	return root
}

// Figures are the sizes measured for one tree in one listing.
type Figures struct {
	Tree     string
	Tools    int // tools served
	List     int // bytes of the tools/list result {"tools":[...]}, compact JSON
	Baseline int // bytes of every served command's path and its flags' usage lines
	// Instructions is the bytes of the server instructions (at most 2 KB;
	// in the compact listing they state the shared flags).
	Instructions int
}

// PerTool is the bytes of tools/list per tool.
func (f Figures) PerTool() int {
	if f.Tools == 0 {
		return 0
	}
	return f.List / f.Tools
}

// OfBaseline is tools/list over the baseline.
func (f Figures) OfBaseline() float64 {
	if f.Baseline == 0 {
		return 0
	}
	return float64(f.List) / float64(f.Baseline)
}

// Measure reflects root and returns the figures of its listing l.
func Measure(name string, root *cobra.Command, l toolset.Listing) (Figures, error) {
	all, err := toolset.New(root, nil)
	if err != nil {
		return Figures{}, fmt.Errorf("%s: %w", name, err)
	}
	ts, err := all.View(l)
	if err != nil {
		return Figures{}, fmt.Errorf("%s: %w", name, err)
	}
	tools := ts.Tools()
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		return Figures{}, fmt.Errorf("%s: encoding tools/list: %w", name, err)
	}
	instructions, err := wirelist.Instructions(ts.NewServer(toolset.ServerOptions{}))
	if err != nil {
		return Figures{}, fmt.Errorf("%s: initialize: %w", name, err)
	}
	f := Figures{Tree: name, Tools: len(tools), List: len(b), Instructions: len(instructions)}
	for _, t := range ts.List() {
		f.Baseline += len(UsageLines(t.Command))
	}
	return f, nil
}

// UsageLines is the baseline text of one command: its path, then the usage
// line of every flag it accepts (local and inherited, hidden ones left out),
// as `CMD --help` prints them.
func UsageLines(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString(c.CommandPath())
	b.WriteByte('\n')
	fs := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	fs.AddFlagSet(c.LocalFlags())
	fs.AddFlagSet(c.InheritedFlags())
	b.WriteString(fs.FlagUsages())
	return b.String()
}

// Listing is one way of listing the tools.
type Listing struct {
	Name    string
	Listing toolset.Listing
}

// Listings are the listings measured: the default (compact) one, and the
// expanded one (every flag in every tool, whole help: the listing before
// issue 10, but for its shorter duration pattern).
var Listings = []Listing{
	{Name: "compact"},
	{Name: "expanded", Listing: toolset.Listing{Expanded: true}},
}
