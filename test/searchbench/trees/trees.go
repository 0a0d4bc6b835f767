// Package trees builds the command trees of real CLIs in-process, from
// their Go modules at the versions pinned in go.mod, and snapshots them as
// JSON (the files under ../testdata/trees) for the search evaluation, so
// that the evaluation reads the CLIs' own words without building them.
// k3d needs a docker/cli older than crane's and gh's: its tree is built in
// the module ../k3dtree.
package trees

import (
	"io"
	"os"

	"github.com/cli/cli/v2/pkg/cmd/factory"
	ghroot "github.com/cli/cli/v2/pkg/cmd/root"
	"github.com/google/go-containerregistry/cmd/crane/cmd"
	"github.com/spf13/cobra"
	etcd "go.etcd.io/etcd/etcdctl/v3/ctlv3/command"
	helm "helm.sh/helm/v4/pkg/cmd"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/logs"
	kubectl "k8s.io/kubectl/pkg/cmd"
	kindcmd "sigs.k8s.io/kind/pkg/cmd"
	kind "sigs.k8s.io/kind/pkg/cmd/kind"
	kindlog "sigs.k8s.io/kind/pkg/log"
	kustomize "sigs.k8s.io/kustomize/kustomize/v5/commands"
)

// CLI is one real CLI: its name, the module it comes from and a function
// building its root command.
type CLI struct {
	Name   string
	Module string // the module path whose pinned version go.mod holds
	Root   func() (*cobra.Command, error)
}

// CLIs are the CLIs snapshotted.
func CLIs() []CLI {
	return []CLI{
		{"kubectl", "k8s.io/kubectl", kubectlRoot},
		{"gh", "github.com/cli/cli/v2", ghRoot},
		{"helm", "helm.sh/helm/v4", helmRoot},
		{"kind", "sigs.k8s.io/kind", kindRoot},
		{"crane", "github.com/google/go-containerregistry", craneRoot},
		{"etcdctl", "go.etcd.io/etcd/etcdctl/v3", etcdctlRoot},
		{"kustomize", "sigs.k8s.io/kustomize/kustomize/v5", kustomizeRoot},
	}
}

// kubectlRoot is the tree the kubectl binary runs, as test/realcli builds
// it (klog's flags on the root, "_" in flag names normalized to "-").
func kubectlRoot() (*cobra.Command, error) {
	root := kubectl.NewKubectlCommand(kubectl.KubectlOptions{
		IOStreams: genericiooptions.IOStreams{In: os.Stdin, Out: io.Discard, ErrOut: io.Discard},
		Arguments: []string{"kubectl"},
	})
	root.SetGlobalNormalizationFunc(cliflag.WordSepNormalizeFunc)
	logs.AddFlags(root.PersistentFlags())
	return root, nil
}

// ghRoot is gh's root as its factory builds it; the caller points
// GH_CONFIG_DIR at an empty directory so that no user's aliases or
// extensions enter the tree.
func ghRoot() (*cobra.Command, error) {
	return ghroot.NewCmdRoot(factory.New("2.90.0", ""), "2.90.0", "")
}

func helmRoot() (*cobra.Command, error) {
	return helm.NewRootCmd(io.Discard, nil, func(bool) {})
}

func kindRoot() (*cobra.Command, error) {
	return kind.NewCommand(kindlog.NoopLogger{}, kindcmd.IOStreams{In: os.Stdin, Out: io.Discard, ErrOut: io.Discard}), nil
}

// craneRoot is crane's root as its main builds it.
func craneRoot() (*cobra.Command, error) {
	return cmd.New("crane", "Crane is a tool for managing container images", nil), nil
}

// etcdctlRoot rebuilds etcdctl's root, whose variable is unexported in
// ctlv3: the same command, groups and subcommands (the global flags, all
// hidden in etcdctl, are left out).
func etcdctlRoot() (*cobra.Command, error) {
	root := &cobra.Command{
		Use:        "etcdctl",
		Short:      "A simple command line client for etcd3.",
		SuggestFor: []string{"etcdctl"},
	}
	root.AddGroup(etcd.NewKVGroup(), etcd.NewClusterMaintenanceGroup(), etcd.NewConcurrencyGroup(),
		etcd.NewAuthenticationGroup(), etcd.NewUtilityGroup())
	root.AddCommand(
		etcd.NewGetCommand(), etcd.NewPutCommand(), etcd.NewDelCommand(), etcd.NewTxnCommand(),
		etcd.NewCompactionCommand(), etcd.NewAlarmCommand(), etcd.NewDefragCommand(), etcd.NewEndpointCommand(),
		etcd.NewMoveLeaderCommand(), etcd.NewWatchCommand(), etcd.NewVersionCommand(), etcd.NewLeaseCommand(),
		etcd.NewMemberCommand(), etcd.NewSnapshotCommand(), etcd.NewMakeMirrorCommand(), etcd.NewLockCommand(),
		etcd.NewElectCommand(), etcd.NewAuthCommand(), etcd.NewUserCommand(), etcd.NewRoleCommand(),
		etcd.NewCheckCommand(), etcd.NewCompletionCommand(), etcd.NewDowngradeCommand(), etcd.NewOptionsCommand(root),
	)
	etcd.SetHelpCmdGroup(root)
	return root, nil
}

func kustomizeRoot() (*cobra.Command, error) { return kustomize.NewDefaultCommand(), nil }
