// Command customtypes is a test fixture: kubectl-style help (string
// defaults quoted, no types) with custom flag types that take any string, refuse
// long values, or wrap strconv errors, beside pflag's own integer and float
// types at their limits: what guessing a type from a default could get wrong.
package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const helpTemplate = `{{with (or .Long .Short)}}{{.}}{{end}}

Usage:
  {{if .Runnable}}{{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}
{{if .HasAvailableLocalFlags}}
Options:
{{kflags .LocalFlags}}{{end}}
`

func kflags(fs *pflag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		def := f.DefValue
		if f.Value.Type() == "string" {
			def = "'" + def + "'"
		}
		fmt.Fprintf(&b, "    --%s=%s:\n\t%s\n\n", f.Name, def, f.Usage)
	})
	return b.String()
}

// anyValue takes any string (a port number or a service name, a version).
type anyValue struct{ s, typ string }

func (v *anyValue) String() string     { return v.s }
func (v *anyValue) Set(s string) error { v.s = s; return nil }
func (v *anyValue) Type() string       { return v.typ }

// keyToValue takes one KEY=VALUE an occurrence, as crane's does.
type keyToValue struct{ kv []string }

func (v *keyToValue) String() string { return strings.Join(v.kv, ",") }
func (v *keyToValue) Set(s string) error {
	if !strings.Contains(s, "=") {
		return fmt.Errorf("%s must be formatted as key=value", s)
	}
	v.kv = append(v.kv, s)
	return nil
}
func (v *keyToValue) Type() string { return "keyToValue" }

// argsSlice takes one value an occurrence, as helm's
// postRendererArgsSlice does.
type argsSlice struct{ v []string }

func (v *argsSlice) String() string     { return "[" + strings.Join(v.v, ",") + "]" }
func (v *argsSlice) Set(s string) error { v.v = append(v.v, s); return nil }
func (v *argsSlice) Type() string       { return "argsSlice" }

// waitStrategy takes one of helm's wait strategies, or true/false.
type waitStrategy struct{ s string }

func (v *waitStrategy) String() string { return v.s }
func (v *waitStrategy) Set(s string) error {
	switch s {
	case "true", "false", "watcher", "legacy", "hookOnly":
		v.s = s
		return nil
	}
	return fmt.Errorf("invalid wait strategy %q", s)
}
func (v *waitStrategy) Type() string { return "WaitStrategy" }

// ifname takes a network interface name: at most 15 bytes (IFNAMSIZ-1).
type ifname string

func (v *ifname) String() string { return string(*v) }
func (v *ifname) Set(s string) error {
	if len(s) > 15 {
		return fmt.Errorf("interface name %q is longer than 15 bytes", s)
	}
	*v = ifname(s)
	return nil
}
func (v *ifname) Type() string { return "ifname" }

// level is klog's verbosity: base 10 only.
type level int32

func (l *level) String() string { return strconv.Itoa(int(*l)) }
func (l *level) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 32)
	*l = level(n)
	return err
}
func (l *level) Type() string { return "Level" }

// uidOrName takes a numeric user id or a user name.
type uidOrName string

var userName = regexp.MustCompile(`^[a-z_][a-z0-9_-]*$`)

func (v *uidOrName) String() string { return string(*v) }
func (v *uidOrName) Set(s string) error {
	_, err := strconv.Atoi(s)
	if err != nil && !userName.MatchString(s) {
		return fmt.Errorf("user %q is neither an id nor a name: %w", s, err)
	}
	*v = uidOrName(s)
	return nil
}
func (v *uidOrName) Type() string { return "user" }

func run(cmd *cobra.Command, args []string) error { return nil }

func main() {
	// echoall: a start-up check that fails on --cfg (a file) before cobra
	// and prints the whole command line.
	if l := os.Getenv("CUSTOMTYPES_ARGV"); l != "" {
		if f, err := os.OpenFile(l, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintln(f, strings.Join(os.Args[1:], " "))
			f.Close()
		}
	}
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "--cfg="); ok && v != "0" {
			if _, err := os.Stat(v); err != nil {
				fmt.Fprintf(os.Stderr, "error: bad --cfg in: %s\n", strings.Join(os.Args, " "))
				os.Exit(1)
			}
		}
	}
	root := &cobra.Command{Use: "customtypes", Short: "custom flag types", SilenceUsage: true}
	root.SetHelpTemplate(helpTemplate)
	cobra.AddTemplateFunc("kflags", kflags)

	t := &cobra.Command{Use: "types", Short: "flag types", RunE: run}
	f := t.Flags()
	f.String("name", "x", "a string: the help quotes it")
	f.Var(&anyValue{"8080", "portOrName"}, "port", "a port number or service name")
	f.Var(&anyValue{"1.0", "apiVersion"}, "api", "an API version")
	f.Float64("f0", 0, "a float64 defaulting to 0")
	f.Float32("f3", 3, "a float32 defaulting to 3")
	f.Uint("u", 0, "a uint defaulting to 0")
	f.Uint8("u8", 7, "a uint8")
	f.Int8("i8", 5, "an int8")
	f.Int32("i32", 2147483647, "an int32 at its max")
	f.Uint64("u64", 18446744073709551615, "a uint64 at its max")
	f.CountP("cnt", "c", "a count")
	var lv level
	f.Var(&lv, "lvl", "a klog level")
	var ifn ifname
	f.Var(&ifn, "iface", "a network interface name")
	f.Duration("d", 0, "a duration")
	u := uidOrName("0")
	f.Var(&u, "user", "a user id or name")

	e := &cobra.Command{Use: "echoall", Short: "early failure that echoes argv", RunE: run}
	g := e.Flags()
	g.String("name", "x", "a string: the help quotes it")
	g.Var(&anyValue{"", "path"}, "cfg", "a config file read before cobra")
	g.Var(&anyValue{"", "token"}, "tok", "a token")
	g.Int("n", 3, "an int")
	g.Float64("r", 0.5, "a float")

	e2 := &cobra.Command{Use: "echoall2", Short: "early failure on a flag with an integer default", RunE: run}
	h := e2.Flags()
	h.String("name", "x", "a string: the help quotes it")
	h.Var(&anyValue{"0", "path"}, "cfg", "a config file read before cobra; 0 for none")
	h.Var(&anyValue{"", "token"}, "tok", "a token")

	rq := &cobra.Command{Use: "req", Short: "a required flag of unknown type", RunE: run}
	k := rq.Flags()
	k.String("name", "x", "a string: the help quotes it")
	k.Var(&anyValue{"", "thing"}, "thing", "required")
	_ = rq.MarkFlagRequired("thing")
	k.Int("n", 3, "an int")
	k.StringSlice("sl", nil, "a slice")
	k.StringArray("ar", nil, "an array")

	// pflag's own help format, with a type word that is not pflag's.
	ps := &cobra.Command{Use: "pstyle", Short: "pflag-style help", RunE: run}
	ps.SetHelpTemplate(`{{.UsageString}}`)
	var ifn2 ifname
	ps.Flags().Var(&ifn2, "iface", "a network interface name")
	// crane's keyToValue: one KEY=VALUE an occurrence, refused in pflag's
	// words for a map.
	ps.Flags().Var(&keyToValue{}, "env", "New envvar to add")
	// helm's WaitStrategy: takes "true" too, and a value when given none.
	ws := &waitStrategy{"hookOnly"}
	ps.Flags().Var(ws, "wait", "wait until resources are ready")
	ps.Flags().Lookup("wait").NoOptDefVal = "watcher"
	// helm's postRendererArgsSlice: a custom type cobra offers again (its
	// name says Slice), one value an occurrence.
	ps.Flags().Var(&argsSlice{}, "arg", "an argument (can specify multiple)")
	// gh's pr create --head: a string whose usage names a placeholder and
	// writes its default in words.
	ps.Flags().String("head", "", "The `branch` that contains commits (default [current branch])")
	root.AddCommand(t, e, e2, rq, ps)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
