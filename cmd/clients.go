package cmd

import "github.com/spf13/cobra"

// newClientCmds is a placeholder until the client set-up issue lands.
func newClientCmds(o *Options) []*cobra.Command { return nil }
