package cmd

import "github.com/spf13/cobra"

// secretVars names the environment variables that hold the HTTP server's
// own secrets, which the calls' processes must not see: the default token
// variable of the CLI and the one named by --token-env.
func secretVars(c *cobra.Command, f *streamFlags) []string {
	vars := []string{TokenEnv(c.Root().Name())}
	if f.tokenEnv != "" && f.tokenEnv != vars[0] {
		vars = append(vars, f.tokenEnv)
	}
	return vars
}
