package bridge

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/internal/jsonvalue"
)

func newToolCmd(o *Options) *cobra.Command {
	var schema bool
	var pf *policyFlags
	c := &cobra.Command{
		Use:   "tool NAME [--schema]",
		Short: "Act as one external tool: print its schema, or run it with JSON arguments from stdin",
		Long: "Act as the tool NAME for agents that discover tools as executables (see\n" +
			"`tools --format external`, which writes one script per tool that runs this command).\n\n" +
			"--schema prints the tool's canonical schema, {\"name\", \"description\", \"parameters\"}.\n\n" +
			"Otherwise the arguments are read as JSON on stdin, the MCP arguments object\n" +
			"{\"flags\": {...}, \"args\": [...], \"argsAfterDash\": [...]} or the list form\n" +
			"[{\"name\": ..., \"value\": ...}] (\"args\" and \"argsAfterDash\" name the positional args)\n" +
			"(empty stdin, or a terminal, means {}), the call runs exactly as the server runs it,\n" +
			"and the result is printed as JSON on stdout:\n\n" +
			"  {\"stdout\": \"...\", \"stderr\": \"...\", \"exitCode\": 0}     the command ran\n" +
			"  {..., \"exitCode\": -1, \"timedOut\": true}               its timeout ended it\n" +
			"  {\"stdout\": \"\", ..., \"image\": {\"mediaType\", \"data\"}}  it printed an image (base64)\n" +
			"  {\"error\": \"...\"}                                      nothing ran (bad input, unknown tool)\n\n" +
			"The exit status is non-zero when the call failed: input refused, or the command failed.",
		Example: "  CLINAME mcp tool CLINAME_get_pods --schema\n" +
			"  echo '{\"flags\": {\"output\": \"json\"}}' | CLINAME mcp tool CLINAME_get_pods",
		Args: toolNameArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			c.SilenceUsage = true
			name := args[0]
			// The canonical schema has no server instructions beside it
			// to state the shared flags in: it is the expanded one.
			ts, err := pf.loadExpanded(o, c, schema)
			if err != nil {
				return err
			}
			if schema {
				return printSchema(c, ts, name)
			}
			raw, err := readCallInput(c.InOrStdin())
			if err != nil {
				return refuse(c, err.Error())
			}
			res, err := runCall(c, ts, name, raw)
			if err != nil {
				return refuse(c, err.Error())
			}
			out, ok := structuredOutput(res)
			if !ok {
				return refuse(c, failure(res))
			}
			v := toolResult{Stdout: out.Stdout, Stderr: out.Stderr, ExitCode: out.ExitCode, TimedOut: out.TimedOut}
			if imgs := imageCommands(res); len(imgs) > 0 {
				img := imgs[0].Payload.(tvImage)
				v.Stdout, v.Image = "", &img
			}
			return printResult(c, name, v, res)
		},
	}
	c.Flags().BoolVar(&schema, "schema", false, "print the tool's canonical schema {name, description, parameters} and exit")
	pf = addPolicyFlags(c, toolset.ToolModeFull)
	addLimitFlags(c)
	return c
}

// toolResult is what `mcp tool` prints for a call that ran.
type toolResult struct {
	Stdout   string   `json:"stdout"`
	Stderr   string   `json:"stderr"`
	ExitCode int      `json:"exitCode"`
	TimedOut bool     `json:"timedOut,omitempty"`
	Image    *tvImage `json:"image,omitempty"`
}

// refuse prints {"error": msg} on c's stdout and returns msg as an error,
// for a call that did not run.
func refuse(c *cobra.Command, msg string) error {
	b, err := jsonvalue.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	if err != nil {
		return fmt.Errorf("encoding the result: %w", err)
	}
	if _, err := c.OutOrStdout().Write(b); err != nil {
		return err
	}
	return errors.New(msg)
}

// printSchema prints the canonical schema of the tool name, and the
// warnings of its translation on stderr.
func printSchema(c *cobra.Command, ts *toolset.Served, name string) error {
	t := findTool(ts, name)
	if t == nil {
		return fmt.Errorf("unknown tool %q", name)
	}
	doc, err := exportDialect(c.ErrOrStderr(), []*mcp.Tool{t}, ts.Toolset().Root(), dialect.Canonical, false)
	if err != nil {
		return err
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(doc, &entries); err != nil || len(entries) != 1 {
		return fmt.Errorf("%s: reading its canonical schema: want one entry, got %s", name, doc)
	}
	b, err := jsonvalue.Marshal(entries[0])
	if err != nil {
		return fmt.Errorf("encoding the schema: %w", err)
	}
	_, err = c.OutOrStdout().Write(b)
	return err
}
