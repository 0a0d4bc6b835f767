package bridge

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/clientcfg"
)

// secretVars names the environment variables that hold the HTTP server's
// own secrets, which the calls' processes must not see: the default token
// variable of the CLI named server and the one named by --token-env, and
// every <ROOT>_MCP_* variable (see mcpVars).
func secretVars(server string, f *streamFlags) []string {
	vars := []string{tokenEnv(server)}
	if f.tokenEnv != "" && f.tokenEnv != vars[0] {
		vars = append(vars, f.tokenEnv)
	}
	return append(vars, mcpVars(server, "")...)
}

// mcpVars returns the toolset.ServerOptions.HideEnv entries that hide the
// server's own settings from the calls' processes: every variable
// <ROOT>_MCP_* of the served CLI named server (its pins in <ROOT>_MCP_SET,
// its policy, its token) and of the program named root when it differs
// (cobramcp's own for `cobramcp start -- kubectl`; "" for none). They
// configure the server, not the commands it runs.
func mcpVars(server, root string) []string {
	vars := []string{envPrefix(server) + "_MCP_*"}
	if root != "" && envPrefix(root) != envPrefix(server) {
		vars = append(vars, envPrefix(root)+"_MCP_*")
	}
	return vars
}

// hiddenVars is mcpVars for the command c of the mcp group.
func hiddenVars(o *Options, c *cobra.Command) []string {
	return mcpVars(serverName(o, c), c.Root().Name())
}

// entrySecrets names what of an enable command line puts a secret into the
// client's configuration file: --env values (an API key), pins given to
// mcp start with --set (a path, a token), and their variable
// <ROOT>_MCP_SET. nil: none.
func entrySecrets(envs, startArgs []string) []string {
	var out []string
	if len(envs) > 0 {
		out = append(out, "--env")
	}
	for _, a := range startArgs {
		if a == "--" {
			break
		}
		if a == "--"+flagSet || strings.HasPrefix(a, "--"+flagSet+"=") {
			out = append(out, "--"+flagSet)
			break
		}
	}
	return out
}

// tightenedNote says that the configuration file, open to others, was
// (or, in a dry run, would be) made private because the entry holds a
// secret; "" when it was not.
func tightenedNote(ch *clientcfg.Change, secrets []string, dryRun bool) string {
	if ch.Tightened == 0 {
		return ""
	}
	now := ch.Tightened &^ 0o077
	verb := "are now"
	if dryRun {
		verb = "would be"
	}
	return fmt.Sprintf("%s was mode %04o, open to others, and the entry holds a secret (%s): it and its backup %s mode %04o.",
		ch.Path, uint32(ch.Tightened), strings.Join(secrets, ", "), verb, uint32(now))
}
