// Command cobramcp is a small MCP client for any stdio MCP server, made to
// try out a CLI served by cobramcp:
//
//	cobramcp list -- mycli mcp start
//	cobramcp call mycli_get_pods '{"flags":{"namespace":"kube-system"}}' -- mycli mcp start
//	cobramcp demo -- mycli mcp start
//
// Everything before "--" is cobramcp's; everything after is the server's
// command line, started as a child process that speaks MCP on stdio.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

func main() {
	if err := newRoot(os.Stdout).Execute(); err != nil {
		os.Exit(1)
	}
}

func newRoot(out io.Writer) *cobra.Command {
	var timeout time.Duration
	root := &cobra.Command{
		Use:           "cobramcp",
		Short:         "A small MCP client for stdio servers",
		SilenceUsage:  true,
		SilenceErrors: false,
	}
	root.PersistentFlags().DurationVar(&timeout, "timeout", time.Minute, "how long the whole session may take")
	session := func(c *cobra.Command, args []string, f func(ctx context.Context, s *mcp.ClientSession, before []string) error) error {
		dash := c.ArgsLenAtDash()
		if dash < 0 || dash == len(args) {
			return errors.New("give the server's command after --, e.g. -- mycli mcp start")
		}
		ctx, cancel := context.WithTimeout(c.Context(), timeout)
		defer cancel()
		server := osexec.Command(args[dash], args[dash+1:]...)
		server.Stderr = os.Stderr
		client := mcp.NewClient(&mcp.Implementation{Name: "cobramcp", Version: "0.1.0"}, nil)
		s, err := client.Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
		if err != nil {
			return fmt.Errorf("connecting to %s: %w", strings.Join(args[dash:], " "), err)
		}
		defer s.Close()
		return f(ctx, s, args[:dash])
	}
	list := &cobra.Command{
		Use:   "list -- SERVER...",
		Short: "List the server's tools",
		RunE: func(c *cobra.Command, args []string) error {
			return session(c, args, func(ctx context.Context, s *mcp.ClientSession, _ []string) error {
				for t, err := range s.Tools(ctx, nil) {
					if err != nil {
						return err
					}
					fmt.Fprintf(out, "%-32s %s\n", t.Name, firstLine(t.Description))
				}
				return nil
			})
		},
	}
	call := &cobra.Command{
		Use:   "call TOOL [ARGUMENTS_JSON] -- SERVER...",
		Short: "Call one tool and print the result as JSON",
		RunE: func(c *cobra.Command, args []string) error {
			return session(c, args, func(ctx context.Context, s *mcp.ClientSession, before []string) error {
				if len(before) < 1 || len(before) > 2 {
					return errors.New("want TOOL and optionally ARGUMENTS_JSON before --")
				}
				raw := json.RawMessage("{}")
				if len(before) == 2 {
					raw = json.RawMessage(before[1])
				}
				res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: before[0], Arguments: raw})
				if err != nil {
					return err
				}
				b, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintln(out, string(b))
				if res.IsError {
					return errors.New("the tool call failed")
				}
				return nil
			})
		},
	}
	demo := &cobra.Command{
		Use:   "demo -- SERVER...",
		Short: "One session against a cobramcp server: list the tools and call a few",
		RunE: func(c *cobra.Command, args []string) error {
			return session(c, args, func(ctx context.Context, s *mcp.ClientSession, _ []string) error {
				return runDemo(ctx, s, out)
			})
		},
	}
	root.AddCommand(list, call, demo)
	return root
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// runDemo lists the tools and calls a few of them, showing what came back.
func runDemo(ctx context.Context, s *mcp.ClientSession, out io.Writer) error {
	init := s.InitializeResult()
	fmt.Fprintf(out, "== connected to %s %s (protocol %s)\n", init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion)
	var names []string
	for t, err := range s.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		names = append(names, t.Name)
		fmt.Fprintf(out, "   %-28s %s\n", t.Name, firstLine(t.Description))
	}
	fmt.Fprintf(out, "== %d tools\n", len(names))
	prefix := init.ServerInfo.Name + "_"
	calls := []struct{ what, tool, args string }{
		{"a plain call", "version", `{}`},
		{"flags by long name", "get_pods", `{"flags":{"namespace":"kube-system"}}`},
		{"structured output", "get_services", `{"flags":{"output":"json","namespace":"kube-system"}}`},
		{"a hostile arg stays an arg", "describe_pod", `{"args":["--namespace=kube-system"]}`},
		{"false turns off a default-true flag", "get_pods", `{"flags":{"headers":false}}`},
		{"bad input is refused, nothing runs", "scale_deployment", `{"flags":{"replicas":"three"},"args":["web"]}`},
		{"an unknown flag is refused", "get_pods", `{"flags":{"token":"x"}}`},
		{"large output keeps head and tail", "logs", `{"args":["web-7f9c4d-abc12"],"flags":{"bytes":3000000}}`},
	}
	for _, call := range calls {
		name := prefix + call.tool
		fmt.Fprintf(out, "\n== %s: %s %s\n", call.what, name, call.args)
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(call.args)})
		if err != nil {
			fmt.Fprintf(out, "   protocol error: %v\n", err)
			continue
		}
		text := ""
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				text += t.Text
			}
		}
		text = shorten(text)
		fmt.Fprintf(out, "   isError=%v\n%s\n", res.IsError, indent(text))
	}
	return nil
}

// shorten keeps a long text readable: around the server's own marker of
// left-out output if there is one, else its start and end.
func shorten(text string) string {
	const keep = 240
	if len(text) <= 3*keep {
		return text
	}
	if i := strings.Index(text, "[... cobramcp:"); i >= 0 {
		j := i + strings.IndexByte(text[i:], '\n')
		if j < i {
			j = len(text)
		}
		return "[demo: " + fmt.Sprint(i-keep) + " bytes not shown]\n" + text[i-keep:j+keep] + "\n[demo: rest not shown]"
	}
	return text[:keep] + fmt.Sprintf("\n[demo: %d bytes not shown]\n", len(text)-2*keep) + text[len(text)-keep:]
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "   | " + strings.ReplaceAll(s, "\n", "\n   | ")
}
