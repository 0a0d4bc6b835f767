package mycli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// logEpochUnix is the time of log line 0 (2024-01-01T00:00:00Z); line n is written n seconds
// later. The log's "now" is one day after it, which is what --since counts back from.
const logEpochUnix = 1704067200

const logDay = 86400 // lines (seconds) between logEpoch and the log's "now"

// followInterval is how often `logs --follow` writes a new line.
const followInterval = 100 * time.Millisecond

// logOptions are the flags of `logs`.
type logOptions struct {
	bytes      int64
	lines      int
	follow     bool
	previous   bool
	timestamps bool
	prefix     bool
	since      time.Duration
	sinceTime  time.Time
}

// LogLine appends log line n of pod to b, as `mycli logs POD` prints it (with --prefix, without
// --timestamps or --previous). Tests use it to check any line of a large output.
func LogLine(b []byte, pod string, n int64) []byte {
	return appendLogLine(b, pod, n, logOptions{prefix: true})
}

// appendLogLine appends line n of pod's log to b.
func appendLogLine(b []byte, pod string, n int64, o logOptions) []byte {
	if o.prefix {
		b = append(b, '[')
		b = append(b, pod...)
		b = append(b, "] "...)
	}
	if o.timestamps {
		b = time.Unix(logEpochUnix+n, 0).UTC().AppendFormat(b, time.RFC3339)
		b = append(b, ' ')
	}
	b = append(b, "line "...)
	var num [20]byte
	digits := strconv.AppendInt(num[:0], n, 10)
	for i := len(digits); i < 10; i++ {
		b = append(b, '0')
	}
	b = append(b, digits...)
	if o.previous {
		b = append(b, ` level=error msg="previous container terminated" exitCode=137`...)
	} else {
		b = append(b, ` level=info msg="served request" path=/healthz status=200`...)
	}
	return append(b, '\n')
}

func newLogsCmd(a *app) *cobra.Command {
	var o logOptions
	cmd := &cobra.Command{
		Use:   "logs POD",
		Short: "Print the logs of a pod",
		Long: `Print the (generated, deterministic) log of a pod: one numbered line per second.

By default the last 20 lines of the day are printed. --lines N prints N lines; --bytes N prints
exactly N bytes (the last line may be cut) and wins over --lines; any size works, 100 MB takes a
fraction of a second. --since and --since-time choose the first line. --follow then keeps adding a
line every 100ms until the command is interrupted.`,
		Example: `  mycli logs web-7f9c4d-abc12
  mycli logs web-7f9c4d-abc12 --lines 1000 --timestamps
  mycli logs web-7f9c4d-abc12 --bytes 104857600 > /dev/null
  mycli logs web-7f9c4d-abc12 --since 1h --follow`,
		Args:        cobra.ExactArgs(1),
		GroupID:     GroupTroubleshooting,
		Annotations: readOnly(annTitle, "Print pod logs"),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case o.bytes < 0:
				return fmt.Errorf("invalid --bytes %d: must not be negative", o.bytes)
			case o.lines < 0:
				return fmt.Errorf("invalid --lines %d: must not be negative", o.lines)
			case o.since < 0:
				return fmt.Errorf("invalid --since %s: must not be negative", o.since)
			}
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			pod := args[0]
			if s.pod(a.namespace, pod) < 0 {
				return notFound("pod", a.namespace, pod)
			}
			return writeLogs(cmd, pod, o)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.bytes, "bytes", 0, "print exactly this many bytes (0: use --lines)")
	f.IntVar(&o.lines, "lines", 20, "number of lines to print")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing new lines until interrupted")
	f.BoolVarP(&o.previous, "previous", "p", false, "print the log of the previous, terminated container")
	f.BoolVar(&o.timestamps, "timestamps", false, "start each line with its RFC 3339 timestamp")
	f.BoolVar(&o.prefix, "prefix", true, "start each line with [POD] (--prefix=false to omit)")
	f.DurationVar(&o.since, "since", 0, "start with the line written this long ago, e.g. 1h (0: the last --lines lines)")
	f.TimeVar(&o.sinceTime, "since-time", time.Time{}, []string{time.RFC3339}, "start with the line written at this RFC 3339 time")
	cmd.MarkFlagsMutuallyExclusive("follow", "previous")
	cmd.MarkFlagsMutuallyExclusive("since", "since-time")
	return cmd
}

// writeLogs writes pod's log to the command's stdout in 1 MiB chunks.
func writeLogs(cmd *cobra.Command, pod string, o logOptions) error {
	first := int64(logDay - o.lines + 1)
	switch {
	case o.since > 0:
		first = logDay - int64(o.since/time.Second) + 1
	case !o.sinceTime.IsZero():
		first = o.sinceTime.Unix() - logEpochUnix + 1
	case o.bytes > 0:
		first = 1
	}
	first = max(first, 1)
	w := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<20)
	line := make([]byte, 0, 256)
	n := first
	if o.bytes > 0 {
		for left := o.bytes; left > 0; n++ {
			line = appendLogLine(line[:0], pod, n, o)
			if int64(len(line)) > left {
				line = line[:left]
			}
			if _, err := w.Write(line); err != nil {
				return fmt.Errorf("write logs: %w", err)
			}
			left -= int64(len(line))
		}
	} else {
		for end := n + int64(o.lines); n < end; n++ {
			if _, err := w.Write(appendLogLine(line[:0], pod, n, o)); err != nil {
				return fmt.Errorf("write logs: %w", err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write logs: %w", err)
	}
	if !o.follow {
		return nil
	}
	ctx := cmd.Context()
	tick := time.NewTicker(followInterval)
	defer tick.Stop()
	for ; ; n++ {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if _, err := cmd.OutOrStdout().Write(appendLogLine(line[:0], pod, n, o)); err != nil {
			return fmt.Errorf("write logs: %w", err)
		}
	}
}

func newExecCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "exec POD -- COMMAND [ARGS...]",
		Short: "Run a command in a pod (prints the raw arguments it received)",
		Long: `exec parses no flags at all (DisableFlagParsing): it prints the raw arguments it received,
as one JSON array on one line, exactly as cobra passed them; "--" is kept.`,
		Example:            `  mycli exec web-7f9c4d-abc12 -- ls -l /`,
		DisableFlagParsing: true,
		GroupID:            GroupTroubleshooting,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return errors.New("exec needs a POD and a COMMAND")
			}
			data, err := json.Marshal(orEmpty(args))
			if err != nil {
				return fmt.Errorf("encode args: %w", err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", data)
			return err
		},
	}
}

func newPortForwardCmd(a *app) *cobra.Command {
	var (
		bindAddress     net.IP
		tlsCert, tlsKey string
	)
	cmd := &cobra.Command{
		Use:   "port-forward POD [[LOCAL:]REMOTE ...]",
		Short: "Forward local ports to a pod (offline: prints the forwards and returns)",
		Example: `  mycli port-forward web-7f9c4d-abc12 8080:80 8443:443
  mycli port-forward web-7f9c4d-abc12 --bind-address 0.0.0.0 --tls-cert c.pem --tls-key k.pem`,
		Args:        cobra.MinimumNArgs(1),
		GroupID:     GroupTroubleshooting,
		Annotations: readOnly(),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			if s.pod(a.namespace, args[0]) < 0 {
				return notFound("pod", a.namespace, args[0])
			}
			specs := args[1:]
			if len(specs) == 0 {
				specs = []string{"8080:80"}
			}
			scheme := ""
			if tlsCert != "" {
				scheme = "https://"
				fmt.Fprintf(cmd.OutOrStdout(), "Serving TLS with certificate %s and key %s\n", tlsCert, tlsKey)
			}
			for _, spec := range specs {
				local, remote, ok := strings.Cut(spec, ":")
				if !ok {
					remote = local
				}
				for _, p := range []string{local, remote} {
					if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
						return fmt.Errorf("invalid port %q in %q: want 1-65535", p, spec)
					}
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Forwarding from %s%s -> %s\n", scheme, net.JoinHostPort(bindAddress.String(), local), remote)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IPVar(&bindAddress, "bind-address", net.IPv4(127, 0, 0, 1), "local IP address to listen on")
	f.StringVar(&tlsCert, "tls-cert", "", "serve TLS locally with this certificate file (needs --tls-key)")
	f.StringVar(&tlsKey, "tls-key", "", "key file of --tls-cert")
	cmd.MarkFlagsRequiredTogether("tls-cert", "tls-key")
	return cmd
}

func newTopNodesCmd(a *app) *cobra.Command {
	var (
		sortBy string
		minCPU float64
	)
	cmd := &cobra.Command{
		Use:         "top_nodes",
		Short:       "Show the CPU and memory use of the nodes",
		Args:        cobra.NoArgs,
		GroupID:     GroupTroubleshooting,
		Annotations: readOnly(annTitle, "Node resource usage"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			var nodes []Node
			for _, n := range s.Nodes {
				if float64(n.CPUPercent) >= minCPU {
					nodes = append(nodes, n)
				}
			}
			switch sortBy {
			case "name":
				slices.SortStableFunc(nodes, func(x, y Node) int { return strings.Compare(x.Name, y.Name) })
			case "cpu":
				slices.SortStableFunc(nodes, func(x, y Node) int { return y.CPUMilli - x.CPUMilli })
			case "memory":
				slices.SortStableFunc(nodes, func(x, y Node) int { return y.MemoryMiB - x.MemoryMiB })
			default:
				return fmt.Errorf("invalid --sort-by %q: must be name, cpu or memory", sortBy)
			}
			names := make([]string, len(nodes))
			for i, n := range nodes {
				names[i] = "node/" + n.Name
			}
			return a.print(cmd, printer{
				value: listOf[Node]{Kind: "NodeMetricsList", Items: orEmpty(nodes)},
				names: names,
				table: func(w io.Writer) {
					fmt.Fprintln(w, "NAME\tCPU(cores)\tCPU%\tMEMORY(bytes)\tMEMORY%")
					for _, n := range nodes {
						fmt.Fprintf(w, "%s\t%dm\t%d%%\t%dMi\t%d%%\n", n.Name, n.CPUMilli, n.CPUPercent, n.MemoryMiB, n.MemPercent)
					}
				},
			})
		},
	}
	cmd.Flags().StringVar(&sortBy, "sort-by", "name", "sort by name, cpu or memory")
	cmd.Flags().Float64Var(&minCPU, "min-cpu-percent", 0, "only show nodes using at least this CPU percentage, e.g. 12.5")
	return cmd
}

// helper is one credential helper listed by show-helpers.
type helper struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	Purpose string `json:"purpose"`
}

func newShowHelpersCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:         "show-helpers",
		Short:       "List the credential helpers mycli knows",
		Long:        `List the exec credential helpers mycli knows. (Its name contains "help": it is a real command, not help.)`,
		Args:        cobra.NoArgs,
		Annotations: readOnly(),
		RunE: func(cmd *cobra.Command, args []string) error {
			helpers := []helper{
				{Name: "exec", Command: "mycli-credential-exec", Purpose: "run a program that prints a token"},
				{Name: "oidc", Command: "mycli-credential-oidc", Purpose: "log in with OpenID Connect"},
				{Name: "static", Command: "", Purpose: "read a token from the kubeconfig"},
			}
			names := make([]string, len(helpers))
			for i, h := range helpers {
				names[i] = "helper/" + h.Name
			}
			return a.print(cmd, printer{
				value: listOf[helper]{Kind: "HelperList", Items: helpers},
				names: names,
				table: func(w io.Writer) {
					fmt.Fprintln(w, "NAME\tCOMMAND\tPURPOSE")
					for _, h := range helpers {
						fmt.Fprintf(w, "%s\t%s\t%s\n", h.Name, h.Command, h.Purpose)
					}
				},
			})
		},
	}
}

func newDebugDumpCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:    "debug-dump",
		Short:  "Print the whole state as JSON (hidden)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			data, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				return fmt.Errorf("encode state: %w", err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", data)
			return err
		},
	}
}

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Short:       "Print the version of mycli",
		Args:        cobra.NoArgs,
		Annotations: readOnly(annTitle, "mycli version"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.print(cmd, printer{
				value: map[string]string{"version": Version},
				names: []string{Version},
				table: func(w io.Writer) { fmt.Fprintf(w, "mycli version %s\n", Version) },
			})
		},
	}
}
