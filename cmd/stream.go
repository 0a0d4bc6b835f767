package cmd

import "github.com/spf13/cobra"

// newStreamCmd is a placeholder until its issue lands.
func newStreamCmd(o *Options) *cobra.Command { return nil }
