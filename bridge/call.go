package bridge

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// The --format values of `mcp call`.
const (
	callFormatMCP       = "mcp"
	callFormatToolVault = "toolvault"
)

// maxCallInput bounds the arguments read from stdin.
const maxCallInput = 64 << 20

func newCallCmd(o *Options) *cobra.Command {
	var format string
	var pf *policyFlags
	c := &cobra.Command{
		Use:   "call NAME [ARGS|-]",
		Short: "Run one tool call without a client and print its result as JSON",
		Long: "Run one call of the tool NAME through the same path as the server (validation, argv,\n" +
			"limits) and print the result as JSON on stdout.\n\n" +
			"ARGS is the MCP arguments object, {\"flags\": {...}, \"args\": [...]}, or the list form\n" +
			"[{\"name\": ..., \"value\": ...}], where each name is a flag name, or \"args\" for the\n" +
			"positional args, or \"argsAfterDash\" for the words after \"--\" of a command whose usage\n" +
			"shows \" -- \" (exec POD -- COMMAND). ARGS is read from stdin when it is absent or '-' (unless stdin is a\n" +
			"terminal); empty means {}.\n\n" +
			"--format mcp (the default) prints the MCP CallToolResult. --format toolvault prints the\n" +
			"toolvault response {\"result\": {\"command\", \"payload\"}, \"isError\"}: showText for text\n" +
			"output, showData for output that is a JSON object or array, showImage {mediaType, data}\n" +
			"for an image, logMessage for what the command wrote on stderr, and composite (a list\n" +
			"of commands) when there is more than one; a failed call is showText of its message.\n\n" +
			"The exit status is non-zero when the call failed (isError).",
		Example: "  CLINAME mcp call CLINAME_version\n" +
			"  CLINAME mcp call CLINAME_get_pods '{\"flags\": {\"output\": \"json\"}}'\n" +
			"  echo '[{\"name\": \"output\", \"value\": \"json\"}]' | CLINAME mcp call CLINAME_get_pods --format toolvault",
		Args: toolNameArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			format = strings.ToLower(strings.TrimSpace(format))
			if format != callFormatMCP && format != callFormatToolVault {
				return fmt.Errorf("--format %q: want %s or %s", format, callFormatMCP, callFormatToolVault)
			}
			var raw []byte
			if len(args) == 2 && args[1] != "-" {
				raw = []byte(args[1])
			} else {
				var err error
				if raw, err = readCallInput(c.InOrStdin()); err != nil {
					return err
				}
			}
			c.SilenceUsage = true
			ts, err := pf.load(o, c)
			if err != nil {
				return err
			}
			name := args[0]
			res, err := runCall(c, ts, name, raw)
			if err != nil {
				return err
			}
			var v any = res
			if format == callFormatToolVault {
				v = toolVaultResponse(res)
			}
			return printResult(c, name, v, res)
		},
	}
	c.Flags().StringVar(&format, "format", callFormatMCP, "result format: mcp (the CallToolResult) or toolvault (the toolvault response envelope)")
	pf = addPolicyFlags(c, toolset.ToolModeFull)
	addLimitFlags(c)
	return c
}

// printResult prints v, the rendering of res, on c's stdout, and returns
// an error naming the failure when the call failed.
func printResult(c *cobra.Command, name string, v any, res *mcp.CallToolResult) error {
	b, err := jsonvalue.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding the result: %w", err)
	}
	if _, err := c.OutOrStdout().Write(b); err != nil {
		return err
	}
	if res.IsError {
		// A refusal already starts with the tool's name.
		return fmt.Errorf("%s: the call failed: %s", name, strings.TrimPrefix(failure(res), name+": "))
	}
	return nil
}

// toolNameArgs checks the positional args of mcp call (max 2: NAME and
// ARGS) and mcp tool (max 1: NAME), with messages that say what is
// missing or in excess rather than cobra's counts.
func toolNameArgs(max int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		lists := "`" + c.Parent().CommandPath() + " tools -o -` lists the tools"
		switch {
		case len(args) == 0:
			return fmt.Errorf("missing the tool NAME (usage: %s); %s", c.UseLine(), lists)
		case len(args) > max && max > 1:
			return fmt.Errorf("%d arguments after %s, want NAME and at most one ARGS: quote the JSON arguments as one word ('{\"flags\": {...}}'), or pass them on stdin", len(args), c.CommandPath())
		case len(args) > max:
			return fmt.Errorf("%d arguments after %s, want only the tool NAME: the arguments are read as JSON on stdin", len(args), c.CommandPath())
		}
		return nil
	}
}

// readCallInput reads a call's arguments from r, at most maxCallInput
// bytes. A character device (a terminal, /dev/null) gives no arguments,
// so that a call typed at a terminal does not wait for its input.
func readCallInput(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return nil, nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(r, maxCallInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading the arguments from stdin: %w", err)
	}
	if len(b) > maxCallInput {
		return nil, fmt.Errorf("reading the arguments from stdin: more than %d bytes", maxCallInput)
	}
	return b, nil
}

// runCall runs one call of the tool name with the arguments raw (an MCP
// arguments object, or the list form) through ts.Call, and waits until its
// process group is gone. SIGINT and SIGTERM cancel the call. Arguments
// that cannot be read become a failed result, as the server makes them; the
// error is for an unknown tool or a failure outside the call.
func runCall(c *cobra.Command, ts *toolset.Served, name string, raw []byte) (*mcp.CallToolResult, error) {
	arguments, err := callArguments(findTool(ts, name), raw)
	if err != nil {
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s: %v. Nothing was run.", name, err)}},
			IsError: true,
		}, nil
	}
	ctx := c.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := ts.Call(ctx, name, arguments)
	var left *toolset.LeftOutError
	if errors.As(err, &left) {
		// Its user started it: say which settings leave the tool out.
		return nil, fmt.Errorf("tool %q is not served: the server's policy (%s) leaves it out", left.Tool, describePolicies(left.Policies))
	}
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, fmt.Errorf("%s: the call returned no result", name)
	}
	return res, nil
}

// findTool returns the tool of ts named name, or nil.
func findTool(ts *toolset.Served, name string) *mcp.Tool {
	for _, t := range ts.Tools() {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// callArguments turns the input of a call into the MCP arguments object.
// Empty input is {}. An object is passed on as it is (the call path
// validates it). A list [{"name": ..., "value": ...}] becomes
// {"flags": {name: value...}, "args": value-of-"args", "argsAfterDash":
// value-of-"argsAfterDash"}: "args" and "argsAfterDash" name the positional
// args, unless the tool has no such property and a flag of that name.
// An item without a value sets its flag to null, which means "not set".
func callArguments(t *mcp.Tool, raw []byte) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage("{}"), nil
	}
	if raw[0] != '[' {
		return json.RawMessage(raw), nil
	}
	var list []struct {
		Name  *string         `json:"name"`
		Value json.RawMessage `json:"value"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("the arguments list must be [{\"name\": ..., \"value\": ...}]: %v", err)
	}
	if dec.More() {
		return nil, errors.New("the arguments list must be [{\"name\": ..., \"value\": ...}]: text after the list")
	}
	top, flagNames := schemaKeys(t)
	// "args" and "argsAfterDash" name the positional args, unless the tool
	// has no such property and a flag of that name.
	positional := func(name string) bool {
		return (name == "args" || name == "argsAfterDash") && !(t != nil && !top[name] && flagNames[name])
	}
	flags := map[string]json.RawMessage{}
	out := map[string]json.RawMessage{}
	for i, it := range list {
		if it.Name == nil || *it.Name == "" {
			return nil, fmt.Errorf("item %d of the arguments list has no \"name\"", i)
		}
		name := *it.Name
		value := it.Value
		if len(value) == 0 {
			value = json.RawMessage("null")
		}
		if positional(name) {
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("%q appears twice in the arguments list", name)
			}
			out[name] = value
			continue
		}
		if _, dup := flags[name]; dup {
			return nil, fmt.Errorf("%q appears twice in the arguments list", name)
		}
		flags[name] = value
	}
	if len(flags) > 0 {
		b, err := json.Marshal(flags)
		if err != nil {
			return nil, err
		}
		out["flags"] = b
	}
	return json.Marshal(out)
}

// schemaKeys returns the top-level property names of t's input schema and
// the property names of its "flags" object.
func schemaKeys(t *mcp.Tool) (top, flags map[string]bool) {
	top, flags = map[string]bool{}, map[string]bool{}
	if t == nil || t.InputSchema == nil {
		return top, flags
	}
	b, err := json.Marshal(t.InputSchema)
	if err != nil {
		return top, flags
	}
	var s struct {
		Properties map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"properties"`
	}
	if json.Unmarshal(b, &s) != nil {
		return top, flags
	}
	for k, p := range s.Properties {
		top[k] = true
		if k == "flags" {
			for f := range p.Properties {
				flags[f] = true
			}
		}
	}
	return top, flags
}

// structuredOutput returns the {stdout, stderr, exitCode} of a call that
// ran, and false when res has none (a call refused before it ran, or a
// search-mode answer).
func structuredOutput(res *mcp.CallToolResult) (toolset.Output, bool) {
	o, ok := res.StructuredContent.(toolset.Output)
	return o, ok
}

// resultText joins the text content of res, one block per line.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// failure says in one line why the call res failed.
func failure(res *mcp.CallToolResult) string {
	if o, ok := structuredOutput(res); ok {
		if o.TimedOut {
			// bridge's last stderr line says after how long.
			if s := lastLine(o.Stderr); strings.Contains(s, "timed out") {
				return strings.TrimPrefix(s, "cobramcp: ")
			}
			return "the command timed out"
		}
		if o.ExitCode != 0 {
			return fmt.Sprintf("the command exited with code %d", o.ExitCode)
		}
		if s := lastLine(o.Stderr); s != "" {
			return s
		}
		return "the command failed"
	}
	if s := strings.TrimSpace(resultText(res)); s != "" {
		return s
	}
	return "isError is set"
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// tvCommand is one command of the toolvault tool protocol: showText
// (payload: a string), showData (payload: JSON), showImage (payload:
// tvImage), logMessage (payload: a string) or composite (payload:
// a list of commands).
type tvCommand struct {
	Command string `json:"command"`
	Payload any    `json:"payload"`
}

// tvImage is the payload of a showImage command.
type tvImage struct {
	MediaType string `json:"mediaType"`
	Data      string `json:"data"` // base64
}

// tvResponse is the toolvault tool-call response envelope.
type tvResponse struct {
	Result  tvCommand `json:"result"`
	IsError bool      `json:"isError"`
}

// toolVaultResponse renders res in the toolvault response envelope.
//
// A failed call is showText of its message (the text an MCP client shows).
// Otherwise each part of the output becomes a command: an image is
// showImage, stdout that is a JSON object or array is showData, other
// stdout is showText, stderr is logMessage. One part is the result
// itself; several are a composite, in that order. A result without the
// bridge's structured content is read part by part from its content.
func toolVaultResponse(res *mcp.CallToolResult) tvResponse {
	return tvResponse{Result: toolVaultResult(res), IsError: res.IsError}
}

func toolVaultResult(res *mcp.CallToolResult) tvCommand {
	if res.IsError {
		return tvCommand{Command: "showText", Payload: resultText(res)}
	}
	var parts []tvCommand
	if o, ok := structuredOutput(res); ok {
		images := imageCommands(res)
		switch {
		case len(images) > 0:
			parts = append(parts, images...)
		case o.Stdout != "":
			parts = append(parts, textOrData(o.Stdout))
		}
		if o.Stderr != "" {
			parts = append(parts, tvCommand{Command: "logMessage", Payload: o.Stderr})
		}
	} else {
		for _, c := range res.Content {
			switch c := c.(type) {
			case *mcp.TextContent:
				parts = append(parts, textOrData(c.Text))
			case *mcp.ImageContent:
				parts = append(parts, showImage(c))
			default:
				// Audio, resources and other content have no toolvault
				// command; their JSON is shown as data.
				if b, err := json.Marshal(c); err == nil {
					parts = append(parts, tvCommand{Command: "showData", Payload: json.RawMessage(b)})
				}
			}
		}
	}
	switch len(parts) {
	case 0:
		return tvCommand{Command: "showText", Payload: ""}
	case 1:
		return parts[0]
	}
	return tvCommand{Command: "composite", Payload: parts}
}

// imageCommands returns a showImage command per image in res's content.
func imageCommands(res *mcp.CallToolResult) []tvCommand {
	var out []tvCommand
	for _, c := range res.Content {
		if img, ok := c.(*mcp.ImageContent); ok {
			out = append(out, showImage(img))
		}
	}
	return out
}

func showImage(img *mcp.ImageContent) tvCommand {
	return tvCommand{Command: "showImage", Payload: tvImage{
		MediaType: img.MIMEType,
		Data:      base64.StdEncoding.EncodeToString(img.Data),
	}}
}

// textOrData is showData when s is a JSON object or array, else showText.
func textOrData(s string) tvCommand {
	t := strings.TrimSpace(s)
	if t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return tvCommand{Command: "showData", Payload: json.RawMessage(t)}
	}
	return tvCommand{Command: "showText", Payload: s}
}

// describePolicies names the settings of each policy that choose what is
// served, as flags with their values, one policy after the other.
func describePolicies(ps []toolset.Policy) string {
	var out []string
	for _, p := range ps {
		if d := (settings{Policy: p}).describe(); d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, "; ")
}
