package bridge_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/bridge"
)

// mcpFlags returns every long name and every shorthand that the flags of
// the mcp commands use (cobra's -h/--help included), read from the group
// itself, so that a flag added to an mcp command later is in the table.
// cobra's help flag (--help, -h) is left out: a CLI whose root takes its
// name or shorthand for another flag panics or fails in cobra on every
// command.
func mcpFlags(t *testing.T) (names, shorts []string) {
	t.Helper()
	root := &cobra.Command{Use: "bare"}
	root.AddCommand(bridge.Command(nil))
	seenName, seenShort := map[string]bool{}, map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		visit := func(f *pflag.Flag) {
			if !seenName[f.Name] && f.Name != "help" {
				seenName[f.Name] = true
				names = append(names, f.Name)
			}
			if f.Shorthand != "" && f.Shorthand != "h" && !seenShort[f.Shorthand] {
				seenShort[f.Shorthand] = true
				shorts = append(shorts, f.Shorthand)
			}
		}
		c.LocalFlags().VisitAll(visit)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	mcp, _, err := root.Find([]string{"mcp"})
	if err != nil {
		t.Fatal(err)
	}
	walk(mcp)
	sort.Strings(names)
	sort.Strings(shorts)
	if len(names) < 30 || !slices.Contains(shorts, "o") || !slices.Contains(names, "output") {
		t.Fatalf("the mcp commands' flags were not all read: %q %q", names, shorts)
	}
	return names, shorts
}

// cliRoot is a CLI adopting the bridge in one line, whose root defines the
// persistent flags of define, with one runnable command.
func cliRoot(define func(*pflag.FlagSet)) *cobra.Command {
	root := &cobra.Command{Use: "cli", SilenceUsage: true, SilenceErrors: true}
	define(root.PersistentFlags())
	root.AddCommand(&cobra.Command{Use: "get NAME", Short: "Get a thing", Args: cobra.ExactArgs(1), Run: func(*cobra.Command, []string) {}})
	root.AddCommand(bridge.Command(nil))
	return root
}

// runCLI runs args on a fresh root; a panic is an error.
func runCLI(root *cobra.Command, args ...string) (out, errOut string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var o, e bytes.Buffer
	root.SetOut(&o)
	root.SetErr(&e)
	root.SetArgs(args)
	err = root.Execute()
	return o.String(), e.String(), err
}

// TestMCPFlagsFitTheCLI adopts the bridge on roots whose persistent flags
// take every long name and every shorthand the mcp commands use (one
// root for each, under another name for a shorthand, and one with all of
// them), and runs the help of every mcp command, `mcp tools`, `mcp claude
// enable --dry-run` and `mcp start --help` on each: nothing panics. A
// shorthand the CLI uses under another name is the CLI's there (the mcp
// command's flag goes without it, and its usage says so); a long name is
// the mcp command's (cobra's rule for a command's own flag).
func TestMCPFlagsFitTheCLI(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	names, shorts := mcpFlags(t)
	type cliCase struct {
		name   string
		define func(*pflag.FlagSet)
		clash  map[string]string // shorthand: the CLI's flag that takes it
	}
	var cases []cliCase
	for _, n := range names {
		cases = append(cases, cliCase{name: "--" + n, define: func(fs *pflag.FlagSet) { fs.String(n, "", "the CLI's own --"+n) }})
	}
	for _, s := range shorts {
		cases = append(cases, cliCase{name: "-" + s, define: func(fs *pflag.FlagSet) { fs.StringP("cli-"+s, s, "", "the CLI's own -"+s) }, clash: map[string]string{s: "cli-" + s}})
	}
	// The example CLI's root: the mcp command's --output/-o, the same
	// flag by name, wins on mcp tools.
	cases = append(cases, cliCase{name: "-o/--output", define: func(fs *pflag.FlagSet) { fs.StringP("output", "o", "", "output format") }})
	all := cliCase{name: "all", clash: map[string]string{}, define: func(fs *pflag.FlagSet) {
		for _, n := range names {
			fs.String(n, "", "the CLI's own --"+n)
		}
		for _, s := range shorts {
			fs.StringP("cli-"+s, s, "", "the CLI's own -"+s)
		}
	}}
	for _, s := range shorts {
		all.clash[s] = "cli-" + s
	}
	cases = append(cases, all)

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The help of every mcp command.
			var paths [][]string
			var walk func(c *cobra.Command, path []string)
			walk = func(c *cobra.Command, path []string) {
				paths = append(paths, path)
				for _, s := range c.Commands() {
					walk(s, append(slices.Clone(path), s.Name()))
				}
			}
			mcp, _, _ := cliRoot(tc.define).Find([]string{"mcp"})
			walk(mcp, []string{"mcp"})
			for _, p := range paths {
				out, errOut, err := runCLI(cliRoot(tc.define), append(slices.Clone(p), "--help")...)
				if err != nil {
					t.Errorf("%s --help: %v %s", strings.Join(p, " "), err, errOut)
					continue
				}
				if !strings.Contains(out, "cli "+strings.Join(p, " ")) || strings.Contains(out, "CLINAME") {
					t.Errorf("%s --help does not name the CLI:\n%s", strings.Join(p, " "), out)
				}
			}
			// mcp tools prints the tools, by the flag that is the mcp
			// command's.
			out, errOut, err := runCLI(cliRoot(tc.define), "mcp", "tools", "--output", "-")
			if err != nil || !json.Valid([]byte(out)) || !strings.Contains(out, `"cli_get"`) {
				t.Errorf("mcp tools --output -: %v %s\n%.300s", err, errOut, out)
			}
			help, _, _ := runCLI(cliRoot(tc.define), "mcp", "tools", "--help")
			if cli, ok := tc.clash["o"]; ok {
				// -o is the CLI's: mcp tools -o sets it, and the help of
				// mcp tools says so.
				root := cliRoot(tc.define)
				if _, errOut, err := runCLI(root, "mcp", "tools", "-o", "x", "--output", "-"); err != nil {
					t.Errorf("mcp tools -o x: %v %s", err, errOut)
				} else if got := root.PersistentFlags().Lookup(cli).Value.String(); got != "x" {
					t.Errorf("mcp tools -o x: the CLI's --%s is %q, want x", cli, got)
				}
				if !regexp.MustCompile(`(?m)^\s+--output string .*\(-o is cli's --` + cli + `\)`).MatchString(help) {
					t.Errorf("mcp tools --help does not say -o is the CLI's:\n%s", help)
				}
			} else {
				out, errOut, err := runCLI(cliRoot(tc.define), "mcp", "tools", "-o", "-")
				if err != nil || !strings.Contains(out, `"cli_get"`) {
					t.Errorf("mcp tools -o -: %v %s\n%.300s", err, errOut, out)
				}
				if !regexp.MustCompile(`(?m)^\s+-o, --output string`).MatchString(help) {
					t.Errorf("mcp tools --help lost -o:\n%s", help)
				}
			}
			out, errOut, err = runCLI(cliRoot(tc.define), "mcp", "claude", "enable", "--dry-run")
			if err != nil || !strings.Contains(out, `"cli"`) {
				t.Errorf("mcp claude enable --dry-run: %v %s\n%s", err, errOut, out)
			}
			if _, errOut, err := runCLI(cliRoot(tc.define), "__complete", "mcp", "tools", "--"); err != nil {
				t.Errorf("__complete mcp tools --: %v %s", err, errOut)
			}
		})
	}
}

// TestMCPFlagsFitUnderNormalization: a CLI that sets a global
// normalization function of its own (kubectl's main does) replaces the
// mcp commands' one: without a clash mcp tools -o - works as anywhere
// (with the CLI's normalization: --tool_mode), and with one the help of
// the group and of mcp start still fits the flags.
func TestMCPFlagsFitUnderNormalization(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	wordSep := func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
	}
	for _, before := range []bool{true, false} {
		newRoot := func(define func(*pflag.FlagSet)) *cobra.Command {
			root := &cobra.Command{Use: "cli", SilenceUsage: true, SilenceErrors: true}
			define(root.PersistentFlags())
			root.AddCommand(&cobra.Command{Use: "get NAME", Args: cobra.ExactArgs(1), Run: func(*cobra.Command, []string) {}})
			if before {
				root.SetGlobalNormalizationFunc(wordSep)
			}
			root.AddCommand(bridge.Command(nil))
			if !before {
				root.SetGlobalNormalizationFunc(wordSep)
			}
			return root
		}
		plain := func(fs *pflag.FlagSet) { fs.StringP("namespace", "n", "", "") }
		out, errOut, err := runCLI(newRoot(plain), "mcp", "tools", "-o", "-", "--tool_mode=full")
		if err != nil || !strings.Contains(out, `"cli_get"`) {
			t.Errorf("before=%v: mcp tools -o -: %v %s", before, err, errOut)
		}
		clash := func(fs *pflag.FlagSet) { fs.StringP("output-format", "o", "", "") }
		// There cobra merges the flags of the command it runs before the
		// mcp commands can fit them: the help of the group and of the
		// other commands fits them first.
		for _, args := range [][]string{{"mcp", "--help"}, {"mcp", "start", "--help"}, {"help", "mcp", "start"}} {
			out, errOut, err := runCLI(newRoot(clash), args...)
			if err != nil || !strings.Contains(out, "Usage:") {
				t.Errorf("before=%v: %q: %v %s", before, args, err, errOut)
			}
		}
	}
}

// TestMCPFlagsFitAParent: with Options.Parent (cobramcp's way), the
// commands hang from a program's root whose persistent flags are known
// when New runs, and may be added after: a shorthand the program's flag
// takes is the program's on them, and --mcp-log-level, which New puts on
// the parent, is no clash of its own.
func TestMCPFlagsFitAParent(t *testing.T) {
	for _, late := range []bool{false, true} {
		root := &cobra.Command{Use: "server", SilenceUsage: true, SilenceErrors: true}
		define := func() { root.PersistentFlags().StringP("origin", "o", "", "the program's own option") }
		if !late {
			define()
		}
		group := bridge.New(bridge.Options{Parent: root, Tree: newFake().source})
		root.AddCommand(group)
		if late {
			define()
		}
		out, errOut, err := runCLI(root, "tools", "-o", "x", "--output", "-", "--mcp-log-level", "error")
		if err != nil || !strings.Contains(out, `"fake_get"`) {
			t.Errorf("late=%v: tools -o x --output -: %v %s\n%.300s", late, err, errOut, out)
		}
		if got := root.PersistentFlags().Lookup("origin").Value.String(); got != "x" {
			t.Errorf("late=%v: -o set --origin to %q, want x", late, got)
		}
		help, _, err := runCLI(root, "tools", "--help")
		if err != nil || !strings.Contains(help, "(-o is server's --origin)") {
			t.Errorf("late=%v: tools --help: %v\n%s", late, err, help)
		}
	}
}
