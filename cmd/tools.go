package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

// DefaultToolsFile is where `mcp tools` writes by default (Ophis-compatible).
const DefaultToolsFile = "mcp-tools.json"

func newToolsCmd(o *Options) *cobra.Command {
	var output string
	c := &cobra.Command{
		Use:   "tools",
		Short: "Export the tool definitions as JSON",
		Long: "Write the tools exactly as tools/list returns them, sorted by name, to " + DefaultToolsFile + "\n" +
			"(or --output FILE; '-' for stdout). The output is deterministic, so a diff shows what changed.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ts, err := o.Load(c)
			if err != nil {
				return err
			}
			b, err := MarshalJSON(ts.Tools())
			if err != nil {
				return fmt.Errorf("encoding tools: %w", err)
			}
			return writeOutput(c, output, b)
		},
	}
	c.Flags().StringVarP(&output, "output", "o", DefaultToolsFile, "file to write, '-' for stdout")
	return c
}

// MarshalJSON renders v as the exports do: indented, without HTML
// escaping, ending in a newline.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeOutput writes b to the file named out, or to c's stdout for "-".
// A file is replaced atomically.
func writeOutput(c *cobra.Command, out string, b []byte) error {
	if out == "-" {
		_, err := c.OutOrStdout().Write(b)
		return err
	}
	dir := filepath.Dir(out)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(out)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	fmt.Fprintf(c.ErrOrStderr(), "wrote %s\n", out)
	return nil
}
