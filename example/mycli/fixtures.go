package mycli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// FloodLine is the 64-byte line `mycli flood` repeats.
const FloodLine = "flood 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRS\n"

func newSleepCmd() *cobra.Command {
	var (
		forD, childFor    time.Duration
		spawn, ignoreTerm bool
	)
	cmd := &cobra.Command{
		Use:   "sleep --for DURATION",
		Short: "Sleep (fixture for timeouts, cancellation and process groups)",
		Long: `Sleep for --for, then print "slept DURATION".

With --spawn it first starts a grandchild "mycli sleep --for D" (D is --child-for, default
--for), in the same process group, sharing stdout and stderr when they are files, and prints the
grandchild's pid alone on the first line of stdout; it does not wait for the grandchild.
With --ignore-term both ignore SIGTERM, so only SIGKILL stops them.`,
		Example: `  mycli sleep --for 30s --spawn --ignore-term`,
		Args:    cobra.NoArgs,
		GroupID: GroupTesting,
		RunE: func(cmd *cobra.Command, args []string) error {
			if forD < 0 || childFor < 0 {
				return errors.New("durations must not be negative")
			}
			if ignoreTerm {
				signal.Ignore(syscall.SIGTERM)
			}
			if spawn {
				exe, err := os.Executable()
				if err != nil {
					return fmt.Errorf("spawn: %w", err)
				}
				if !cmd.Flags().Changed("child-for") {
					childFor = forD
				}
				argv := []string{"sleep", "--for", childFor.String()}
				if ignoreTerm {
					argv = append(argv, "--ignore-term")
				}
				child := exec.Command(exe, argv...)
				child.Stdout = fileOrNil(cmd.OutOrStdout())
				child.Stderr = fileOrNil(cmd.ErrOrStderr())
				if err := child.Start(); err != nil {
					return fmt.Errorf("spawn: %w", err)
				}
				if _, err := fmt.Fprintf(cmd.OutOrStdout(), "%d\n", child.Process.Pid); err != nil {
					return err
				}
				_ = child.Process.Release()
			}
			timer := time.NewTimer(forD)
			defer timer.Stop()
			select {
			case <-cmd.Context().Done():
				return fmt.Errorf("sleep interrupted: %w", cmd.Context().Err())
			case <-timer.C:
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "slept %s\n", forD)
			return err
		},
	}
	f := cmd.Flags()
	f.DurationVar(&forD, "for", time.Second, "how long to sleep")
	f.DurationVar(&childFor, "child-for", 0, "how long the --spawn grandchild sleeps (default: --for)")
	f.BoolVar(&spawn, "spawn", false, "start a sleeping grandchild first and print its pid")
	f.BoolVar(&ignoreTerm, "ignore-term", false, "ignore SIGTERM (the grandchild too)")
	return cmd
}

// fileOrNil returns w when it is an *os.File, else nil (the child's output is discarded): a
// child given any other writer would need Wait, and sleep does not wait.
func fileOrNil(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok {
		return f
	}
	return nil
}

func newFloodCmd() *cobra.Command {
	var (
		n      int64
		stderr bool
	)
	cmd := &cobra.Command{
		Use:     "flood --bytes N",
		Short:   "Write N bytes fast (fixture for output limits)",
		Long:    "Write exactly --bytes bytes, FloodLine repeated (the last copy may be cut), to stdout or, with --stderr, to stderr.",
		Example: `  mycli flood --bytes 10485760 --stderr`,
		Args:    cobra.NoArgs,
		GroupID: GroupTesting,
		RunE: func(cmd *cobra.Command, args []string) error {
			if n < 0 {
				return fmt.Errorf("invalid --bytes %d: must not be negative", n)
			}
			out := cmd.OutOrStdout()
			if stderr {
				out = cmd.ErrOrStderr()
			}
			chunk := []byte(strings.Repeat(FloodLine, (1<<20)/len(FloodLine)))
			for left := n; left > 0; {
				c := chunk[:min(int64(len(chunk)), left)]
				if _, err := out.Write(c); err != nil {
					return fmt.Errorf("flood: %w", err)
				}
				left -= int64(len(c))
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&n, "bytes", 1<<20, "number of bytes to write")
	cmd.Flags().BoolVar(&stderr, "stderr", false, "write to stderr instead of stdout")
	return cmd
}

func newFailCmd() *cobra.Command {
	var (
		code          int
		message, text string
	)
	cmd := &cobra.Command{
		Use:   "fail --code N",
		Short: "Exit with a chosen code (fixture for errors)",
		Long: `Print --stdout (if any) to stdout and --message to stderr, then fail with exit code --code
(an *ExitError).`,
		Example: `  mycli fail --code 3 --message "disk full" --stdout "partial result"`,
		Args:    cobra.NoArgs,
		GroupID: GroupTesting,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code < 1 || code > 255 {
				return fmt.Errorf("invalid --code %d: must be 1-255", code)
			}
			if text != "" {
				fmt.Fprintln(cmd.OutOrStdout(), text)
			}
			fmt.Fprintln(cmd.ErrOrStderr(), message)
			return &ExitError{Code: code}
		},
	}
	cmd.Flags().IntVar(&code, "code", 1, "exit code, 1-255")
	cmd.Flags().StringVar(&message, "message", "failing on purpose", "message printed to stderr")
	cmd.Flags().StringVar(&text, "stdout", "", "text printed to stdout before failing")
	return cmd
}

func newStrayPrintCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "stray-print",
		Short: "Print straight to the process's stdout and stderr (fixture)",
		Long: `Write one line to os.Stdout and one to os.Stderr directly, bypassing the command's
writers: whatever runs the command in-process cannot capture these lines, and they must not
corrupt a stdio transport.`,
		Args:    cobra.NoArgs,
		GroupID: GroupTesting,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(os.Stdout, "stray line on stdout")
			fmt.Fprintln(os.Stderr, "stray line on stderr")
			return nil
		},
	}
}

func newEnvGetCmd() *cobra.Command {
	return &cobra.Command{
		Use:         "env-get NAME",
		Short:       "Print an environment variable (fixture for environments)",
		Long:        "Print the value of the environment variable NAME; exit code 2 when it is not set.",
		Args:        cobra.ExactArgs(1),
		GroupID:     GroupTesting,
		Annotations: readOnly(),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, ok := os.LookupEnv(args[0])
			if !ok {
				return &ExitError{Code: 2, Err: fmt.Errorf("environment variable %s is not set", args[0])}
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), v)
			return err
		},
	}
}

// EchoResult is what `mycli echo` prints, as JSON.
type EchoResult struct {
	// Args are the positional arguments.
	Args []string `json:"args"`
	// ArgsLenAtDash is cobra's ArgsLenAtDash: how many args came before "--", or -1.
	ArgsLenAtDash int `json:"argsLenAtDash"`
	// Flags holds every flag that was set (local or inherited), by name, as typed JSON: numbers
	// for numeric flags, booleans, string lists for slices and arrays, objects for maps, and
	// strings for the rest (durations in Go syntax, IPs, times in RFC 3339).
	Flags map[string]any `json:"flags"`
}

func newEchoCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "echo [ARGS...]",
		Short: "Print the args and flags received, as JSON (fixture for argument passing)",
		Long: `Print {"args": [...], "argsLenAtDash": N, "flags": {...}} (see EchoResult): the positional
arguments and every flag that was set, typed. It has no argument validator (Args is nil) and a
flag of each pflag type.`,
		Example:     `  mycli echo --str x --int 3 --bool-true=false --map a=1,b=2 -- --not-a-flag`,
		GroupID:     GroupTesting,
		Annotations: readOnly(),
		RunE: func(cmd *cobra.Command, args []string) error {
			res := EchoResult{Args: orEmpty(args), ArgsLenAtDash: cmd.ArgsLenAtDash(), Flags: map[string]any{}}
			var err error
			cmd.Flags().Visit(func(f *pflag.Flag) {
				v, ferr := flagJSON(cmd.Flags(), f)
				if ferr != nil && err == nil {
					err = ferr
				}
				res.Flags[f.Name] = v
			})
			if err != nil {
				return err
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(res); err != nil {
				return fmt.Errorf("encode echo: %w", err)
			}
			return w.Flush()
		},
	}
	f := cmd.Flags()
	f.String("str", "", "a string")
	f.Int("int", 0, "an int")
	f.Int64("int64", 0, "an int64")
	f.Uint("uint", 0, "a uint")
	f.Float64("float", 0, "a float64")
	f.Bool("bool", false, "a bool")
	f.Bool("bool-true", true, "a bool whose default is true")
	f.CountP("count", "c", "a count (-ccc)")
	f.Duration("duration", 0, "a duration")
	f.StringSlice("slice", nil, "a string slice (comma-separated or repeated)")
	f.StringArray("array", nil, "a string array (repeated; commas are kept)")
	f.StringToString("map", nil, "a string-to-string map, k=v,k=v")
	f.IP("ip", nil, "an IP address")
	f.Time("time", time.Time{}, []string{time.RFC3339}, "an RFC 3339 time")
	f.String("opt", "", `a string with an optional value: --opt alone means "implied"`)
	f.Lookup("opt").NoOptDefVal = "implied"
	return cmd
}

// flagJSON returns the value of a set flag as typed JSON.
func flagJSON(fs *pflag.FlagSet, f *pflag.Flag) (any, error) {
	switch t := f.Value.Type(); t {
	case "bool":
		return strconv.ParseBool(f.Value.String())
	case "int", "int8", "int16", "int32", "int64", "count":
		return strconv.ParseInt(f.Value.String(), 10, 64)
	case "uint", "uint8", "uint16", "uint32", "uint64":
		return strconv.ParseUint(f.Value.String(), 10, 64)
	case "float32", "float64":
		return strconv.ParseFloat(f.Value.String(), 64)
	case "stringToString":
		return fs.GetStringToString(f.Name)
	default:
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			return orEmpty(sv.GetSlice()), nil
		}
		return f.Value.String(), nil
	}
}
