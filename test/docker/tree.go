package docker

import (
	"github.com/docker/cli/cli"
	"github.com/docker/cli/cli/command"
	"github.com/docker/cli/cli/command/commands"
	"github.com/spf13/cobra"
)

// RepeatableTypes returns the Type() names of docker's custom flag values
// whose Set adds one value per occurrence (opts.FilterOpt, opts.MapOpts,
// opts.MountOpt, opts.NetworkOpt, swarmopts.ConfigOpt, SecretOpt, PortOpt,
// opts.UlimitOpt, opts.GpuOpts, service's placementPrefOpts, swarm's
// ExternalCAOption); opts.ListOpts ("list") is repeatable without it.
func RepeatableTypes() []string {
	return []string{"filter", "map", "mount", "network", "config", "secret", "port", "ulimit", "gpu-request", "pref", "external-ca"}
}

// New returns docker's root command as cmd/docker's newDockerCommand builds
// it: TraverseChildren, the global options of cli.SetupRootCommand as the
// root's local flags, -v/--version, and every command of
// commands.AddCommands. Plugins are not looked up. It panics if docker's
// CLI cannot be made, which needs no daemon.
func New() *cobra.Command {
	dockerCli, err := command.NewDockerCli()
	if err != nil {
		panic(err)
	}
	root := &cobra.Command{
		Use:                   "docker [OPTIONS] COMMAND [ARG...]",
		Short:                 "A self-sufficient runtime for containers",
		SilenceUsage:          true,
		SilenceErrors:         true,
		TraverseChildren:      true,
		DisableFlagsInUseLine: true,
		RunE:                  func(*cobra.Command, []string) error { return nil },
	}
	cli.SetupRootCommand(root)
	root.Flags().BoolP("version", "v", false, "Print version information and quit")
	commands.AddCommands(root, dockerCli)
	return root
}
