package cmd

import "github.com/spf13/cobra"

// newToolCmd is a placeholder until its issue lands.
func newToolCmd(o *Options) *cobra.Command { return nil }
