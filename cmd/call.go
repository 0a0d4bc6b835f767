package cmd

import "github.com/spf13/cobra"

// newCallCmd is a placeholder until its issue lands.
func newCallCmd(o *Options) *cobra.Command { return nil }
