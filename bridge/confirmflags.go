package bridge

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// Names of the confirmation flags.
const (
	flagConfirm            = "confirm"
	flagConfirmDestructive = "confirm-destructive"
)

// confirmFlags are the flags of mcp start and mcp stream that make a
// person confirm a call before it runs (toolset.Confirm).
type confirmFlags struct{}

// addConfirmFlags defines --confirm and --confirm-destructive on c.
func addConfirmFlags(c *cobra.Command) *confirmFlags {
	listFlag(c.Flags(), new([]string), flagConfirm, "ask the person, through the client (MCP elicitation), before a call of a tool matching these name patterns runs, showing its command line (glob syntax, e.g. 'CLINAME_delete_*'; repeatable; env CLIENV_MCP_CONFIRM); a client without elicitation is refused", false)
	c.Flags().Bool(flagConfirmDestructive, false, "ask the person likewise before a call of any tool annotated mcp.destructiveHint (env CLIENV_MCP_CONFIRM_DESTRUCTIVE)")
	return &confirmFlags{}
}

// read returns what the flags of c ask for, each one not set on the command
// line read from its variable (<ROOT>_MCP_CONFIRM, ..._CONFIRM_DESTRUCTIVE)
// of the served CLI, checked against the tools v serves.
func (*confirmFlags) read(o *Options, c *cobra.Command, v *toolset.Served) (toolset.Confirm, error) {
	cf, err := readConfirm(c, serverName(o, c), os.LookupEnv)
	if err != nil {
		return toolset.Confirm{}, err
	}
	return checkConfirm(cf, v)
}

// checkConfirm returns cf when every pattern of it matches a tool v serves.
func checkConfirm(cf toolset.Confirm, v *toolset.Served) (toolset.Confirm, error) {
	if err := v.CheckConfirm(cf); err != nil {
		return toolset.Confirm{}, fmt.Errorf("--%s: %w", flagConfirm, err)
	}
	return cf, nil
}

func readConfirm(c *cobra.Command, root string, lookup func(string) (string, bool)) (toolset.Confirm, error) {
	fs := c.Flags()
	var cf toolset.Confirm
	cf.Tools, _ = fs.GetStringSlice(flagConfirm)
	if v, _, fromEnv := flagEnv(fs, root, flagConfirm, lookup); fromEnv {
		cf.Tools = splitList(v)
	}
	cf.Destructive, _ = fs.GetBool(flagConfirmDestructive)
	if v, from, fromEnv := flagEnv(fs, root, flagConfirmDestructive, lookup); fromEnv {
		b, err := parseEnvBool(from, v)
		if err != nil {
			return toolset.Confirm{}, err
		}
		cf.Destructive = b
	}
	return cf, nil
}
