package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Names of the policy flags.
const (
	flagTools        = "tools"
	flagExcludeTools = "exclude-tools"
	flagReadOnly     = "read-only"
	flagSet          = "set"
	flagToolMode     = "tool-mode"
	flagExpanded     = "expanded"
)

// settings is what a sub-command's policy flags ask for: the policy the
// library applies to listing and calls, and the shape of the listing.
type settings struct {
	toolset.Policy
	toolset.Listing
}

// setting is one policy flag and everything the command layer does with
// it: a new rule adds an entry here and its field to toolset.Policy or
// toolset.Listing, and nothing else in this package.
type setting struct {
	flag string
	lib  toolset.Setting // the library's name for it, in its errors
	// define adds the flag; mode is the sub-command's default tool mode.
	define func(fs *pflag.FlagSet, mode toolset.ToolMode)
	// read sets the setting from the flag, or from val, the value of its
	// environment variable (named in from as "$VAR"), when set is true.
	read func(s *settings, fs *pflag.FlagSet, val string, set bool, from string) error
	// args renders the setting as the flags that give it.
	args func(s *settings) []string
	// access says whether the setting chooses what is served (rather than
	// how it is listed): those are named when nothing is left to serve.
	access bool
}

// policySettings lists the policy flags.
func policySettings() []setting {
	return []setting{
		{
			flag: flagTools, lib: toolset.SettingTools, access: true,
			define: func(fs *pflag.FlagSet, _ toolset.ToolMode) {
				listFlag(fs, new([]string), flagTools, "serve only the tools matching these name patterns (glob syntax, e.g. 'CLINAME_get_*'; env CLIENV_MCP_TOOLS)", false)
			},
			read: func(s *settings, fs *pflag.FlagSet, val string, set bool, _ string) error {
				s.Tools, _ = fs.GetStringSlice(flagTools)
				if set {
					s.Tools = splitList(val)
				}
				return nil
			},
			args: func(s *settings) []string { return listArg(flagTools, s.Tools) },
		},
		{
			flag: flagExcludeTools, lib: toolset.SettingExcludeTools, access: true,
			define: func(fs *pflag.FlagSet, _ toolset.ToolMode) {
				listFlag(fs, new([]string), flagExcludeTools, "do not serve the tools matching these name patterns; wins over --tools (env CLIENV_MCP_EXCLUDE_TOOLS)", false)
			},
			read: func(s *settings, fs *pflag.FlagSet, val string, set bool, _ string) error {
				s.ExcludeTools, _ = fs.GetStringSlice(flagExcludeTools)
				if set {
					s.ExcludeTools = splitList(val)
				}
				return nil
			},
			args: func(s *settings) []string { return listArg(flagExcludeTools, s.ExcludeTools) },
		},
		{
			flag: flagReadOnly, lib: toolset.SettingReadOnly, access: true,
			define: func(fs *pflag.FlagSet, _ toolset.ToolMode) {
				fs.Bool(flagReadOnly, false, "serve only the commands annotated mcp.readOnlyHint; nothing else is listed or callable (env CLIENV_MCP_READ_ONLY)")
			},
			read: func(s *settings, fs *pflag.FlagSet, val string, set bool, from string) (err error) {
				s.ReadOnly, _ = fs.GetBool(flagReadOnly)
				if set {
					s.ReadOnly, err = parseEnvBool(from, val)
				}
				return err
			},
			args: func(s *settings) []string { return boolArg(flagReadOnly, s.ReadOnly) },
		},
		{
			flag: flagSet, lib: toolset.SettingPins,
			define: func(fs *pflag.FlagSet, _ toolset.ToolMode) {
				listFlag(fs, new([]string), flagSet, "pin a flag for every call, FLAG=VALUE (repeatable): it leaves the schemas and a call cannot change it (env CLIENV_MCP_SET=FLAG=VALUE,...; \\, for a comma in a value)", true)
			},
			read: readPins,
			args: func(s *settings) []string {
				var out []string
				for _, pin := range s.Pins {
					out = append(out, "--"+flagSet+"="+pin.Flag+"="+pin.Value)
				}
				return out
			},
		},
		{
			flag: flagToolMode, lib: toolset.SettingMode,
			define: func(fs *pflag.FlagSet, mode toolset.ToolMode) {
				fs.String(flagToolMode, string(mode), "tool listing: full (one tool per command), search (search, describe and run tools) or auto (search above "+strconv.Itoa(toolmeta.AutoSearchTools)+" tools or "+strconv.Itoa(toolmeta.AutoSearchBytes/1000)+" KB; env CLIENV_MCP_TOOL_MODE)")
			},
			read: func(s *settings, fs *pflag.FlagSet, val string, set bool, from string) (err error) {
				mode, _ := fs.GetString(flagToolMode)
				if set {
					mode = val
				}
				if s.Mode, err = parseToolMode(mode); err != nil {
					return fmt.Errorf("%s: %w", from, err)
				}
				return nil
			},
			args: func(s *settings) []string {
				if s.Mode == "" {
					return nil
				}
				return []string{"--" + flagToolMode + "=" + string(s.Mode)}
			},
		},
		{
			flag: flagExpanded,
			define: func(fs *pflag.FlagSet, _ toolset.ToolMode) {
				fs.Bool(flagExpanded, false, "list every tool in full: every flag in its schema and its whole help, instead of stating the shared flags once in the server instructions (env CLIENV_MCP_EXPANDED)")
			},
			read: func(s *settings, fs *pflag.FlagSet, val string, set bool, from string) (err error) {
				s.Expanded, _ = fs.GetBool(flagExpanded)
				if set {
					s.Expanded, err = parseEnvBool(from, val)
				}
				return err
			},
			args: func(s *settings) []string { return boolArg(flagExpanded, s.Expanded) },
		},
	}
}

func listArg(flag string, v []string) []string {
	if len(v) == 0 {
		return nil
	}
	return []string{"--" + flag + "=" + strings.Join(v, ",")}
}

func boolArg(flag string, v bool) []string {
	if !v {
		return nil
	}
	return []string{"--" + flag}
}

// parseEnvBool reads a boolean variable: true or false, as strconv reads
// them, or yes or no, as the annotations take them.
func parseEnvBool(from, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "y", "on":
		return true, nil
	case "no", "n", "off":
		return false, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false (or yes or no)", from, v)
	}
	return b, nil
}

// policyFlags defines the policy flags on one sub-command.
type policyFlags struct{}

// addPolicyFlags defines the policy flags on c. defaultMode is the
// --tool-mode when neither the flag nor its variable is set.
func addPolicyFlags(c *cobra.Command, defaultMode toolset.ToolMode) *policyFlags {
	for _, s := range policySettings() {
		s.define(c.Flags(), defaultMode)
	}
	return &policyFlags{}
}

// policyEnv returns the environment variable of the CLI named root that
// gives a policy setting when its flag is not set: policyEnv("kubectl",
// "exclude-tools") is "KUBECTL_MCP_EXCLUDE_TOOLS".
func policyEnv(root, flag string) string {
	return envPrefix(root) + "_MCP_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// envPrefix is root in upper case, with the characters that cannot be in a
// variable name replaced by '_'.
func envPrefix(root string) string {
	b := []byte(strings.ToUpper(root))
	for i, ch := range b {
		if !(ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// policy returns the policy that c's flags, the environment (the variables
// of the served CLI, serverName(o, c)) and the flags given to the CLI
// itself before the mcp group ask for.
func (p *policyFlags) policy(o *Options, c *cobra.Command) (settings, error) {
	group := o.group
	pol, err := readPolicy(c.Flags(), serverName(o, c), os.LookupEnv)
	if err != nil {
		return settings{}, err
	}
	pre, err := flagsBeforeGroup(c, group)
	if err != nil {
		return settings{}, err
	}
	pol.Pins = append(pre, pol.Pins...)
	return pol, checkPins(pol.Pins)
}

// readPolicy reads the policy flags of fs, and for each one not set on the
// command line its variable (policyEnv) through lookup.
func readPolicy(fs *pflag.FlagSet, root string, lookup func(string) (string, bool)) (settings, error) {
	var s settings
	for _, st := range policySettings() {
		val, from, set := flagEnv(fs, root, st.flag, lookup)
		if err := st.read(&s, fs, val, set, from); err != nil {
			return settings{}, err
		}
	}
	return s, checkPins(s.Pins)
}

// readPins reads the --set flags, or the value of <ROOT>_MCP_SET.
func readPins(s *settings, fs *pflag.FlagSet, val string, set bool, from string) error {
	sets, _ := fs.GetStringArray(flagSet)
	if set {
		sets = splitPins(val)
	}
	for _, item := range sets {
		name, value, ok := strings.Cut(item, "=")
		name = strings.TrimPrefix(strings.TrimSpace(name), "--")
		if !ok || name == "" {
			if set {
				return fmt.Errorf("%s: %q: want FLAG=VALUE,FLAG=VALUE,... (\\, for a comma in a value), e.g. namespace=staging", from, item)
			}
			return fmt.Errorf("--set %q: want FLAG=VALUE, e.g. --set namespace=staging", item)
		}
		s.Pins = append(s.Pins, toolset.Pin{Flag: name, Value: value, From: from})
	}
	return nil
}

// splitPins splits the value of <ROOT>_MCP_SET into its FLAG=VALUE items:
// separated by commas, as the other list variables, with "\," for a comma
// inside a value (selector=app=web\,tier=db); every other backslash is
// kept as written (C:\kube\config). Spaces before an item are dropped,
// as are empty items.
func splitPins(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if item := strings.TrimLeft(cur.String(), " \t\r\n"); strings.TrimSpace(item) != "" {
			out = append(out, item)
		}
		cur.Reset()
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			flush()
		default:
			cur.WriteByte(s[i])
		}
	}
	flush()
	return out
}

// checkPins refuses a flag pinned twice.
func checkPins(pins []toolset.Pin) error {
	seen := map[string]string{}
	for _, pin := range pins {
		if from, dup := seen[pin.Flag]; dup {
			return fmt.Errorf("flag --%s is pinned twice (%s and %s)", pin.Flag, from, pin.From)
		}
		seen[pin.Flag] = pin.From
	}
	return nil
}

// args renders s as the flags of mcp start (or mcp tool) that give it.
func (s settings) args() []string {
	var out []string
	for _, st := range policySettings() {
		out = append(out, st.args(&s)...)
	}
	return out
}

// describe names the settings of s that choose what is served, as flags
// with their values ("--tools a,b --read-only").
func (s settings) describe() string {
	var out []string
	for _, st := range policySettings() {
		if st.access {
			for _, a := range st.args(&s) {
				out = append(out, strings.Replace(a, "=", " ", 1))
			}
		}
	}
	return strings.Join(out, " ")
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// flagsBeforeGroup returns, as pins, the flags of the CLI itself (the
// persistent flags of the commands above the mcp group) that were given on
// the command line, as in `kubectl --namespace x mcp start`. cobra parses
// them into the CLI's own flags, which the calls, being new processes, would
// never see: they become pins so that they apply to every call. A flag
// whose value cannot be written back (a map) is refused with a message.
func flagsBeforeGroup(c, group *cobra.Command) ([]toolset.Pin, error) {
	if group == nil || !group.HasParent() {
		return nil, nil
	}
	var pins []toolset.Pin
	var errs []error
	seen := map[string]bool{}
	for a := group.Parent(); a != nil; a = a.Parent() {
		a.PersistentFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Changed || seen[f.Name] {
				return
			}
			seen[f.Name] = true
			v, err := pinValue(f)
			if err != nil {
				errs = append(errs, fmt.Errorf("--%s was given to %s itself, which would not apply it to the calls; %v", f.Name, c.Root().Name(), err))
				return
			}
			pins = append(pins, toolset.Pin{Flag: f.Name, Value: v, From: "before " + c.CommandPath()})
		})
	}
	return pins, errors.Join(errs...)
}

// pinValue writes a parsed flag's value back as a --set value.
func pinValue(f *pflag.Flag) (string, error) {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		b, err := json.Marshal(sv.GetSlice())
		return string(b), err
	}
	t := f.Value.Type()
	if strings.Contains(t, "To") || strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") {
		return "", fmt.Errorf("a %s cannot be pinned from there: give it as --set %s=VALUE after the sub-command", t, f.Name)
	}
	return f.Value.String(), nil
}

// load reflects c's tree with o.Load and applies the policy of p.
func (p *policyFlags) load(o *Options, c *cobra.Command) (*toolset.Served, error) {
	return p.loadExpanded(o, c, false)
}

// loadExpanded is load, with the expanded listing when expanded is true
// (for the exports that have no server instructions to state the shared
// flags in).
func (p *policyFlags) loadExpanded(o *Options, c *cobra.Command, expanded bool) (*toolset.Served, error) {
	pol, err := p.policy(o, c)
	if err != nil {
		return nil, err
	}
	pol.Expanded = pol.Expanded || expanded
	ts, err := o.load(c)
	if err != nil {
		return nil, err
	}
	return withPolicy(ts, pol, c.Flags(), serverName(o, c), os.LookupEnv)
}

// withPolicy is ts.View of the settings s, its error naming the flags of
// the settings at fault and saying which of them came from a variable
// rather than a flag: "--tools: no tool matches x (from
// $MYCLI_MCP_TOOLS=x)" for a user who passed no --tools.
//
// fs holds the flags as given, and lookup reads the variables of the
// served CLI (nil: none were read).
func withPolicy(ts *toolset.Toolset, s settings, fs *pflag.FlagSet, root string, lookup func(string) (string, bool)) (*toolset.Served, error) {
	v, err := ts.View(s.Listing, s.Policy)
	var pe *toolset.PolicyError
	if err == nil || !errors.As(err, &pe) {
		return v, err
	}
	var named []setting
	var msg error
	switch pe.Setting {
	case "":
		for _, st := range policySettings() {
			if st.access && len(st.args(&s)) > 0 {
				named = append(named, st)
			}
		}
		msg = &nothingServedError{msg: fmt.Sprintf("the policy (%s) leaves no tool to serve", s.describe()), err: pe}
	case toolset.SettingPins:
		return nil, pe.Err // it names the pin and where it came from
	default:
		for _, st := range policySettings() {
			if st.lib == pe.Setting {
				named = append(named, st)
				msg = fmt.Errorf("--%s: %w", st.flag, pe.Err)
			}
		}
		if msg == nil {
			return nil, err
		}
	}
	var from []string
	for _, st := range named {
		if val, name, fromEnv := flagEnv(fs, root, st.flag, lookup); fromEnv {
			from = append(from, name+"="+val)
		}
	}
	if len(from) == 0 {
		return nil, msg
	}
	return nil, fmt.Errorf("%w (from %s)", msg, strings.Join(from, ", "))
}

// A nothingServedError is the error of a policy that leaves nothing, in
// the flags' words; it wraps the library's, so that errors.Is finds
// toolset.ErrNothingServed and the *toolset.PolicyError, whose Active
// says which settings were in force.
type nothingServedError struct {
	msg string
	err error
}

func (e *nothingServedError) Error() string { return e.msg }
func (e *nothingServedError) Unwrap() error { return e.err }

// parseToolMode reads a tool mode written by a person: full, search or
// auto, in any case.
func parseToolMode(s string) (toolset.ToolMode, error) {
	switch m := toolset.ToolMode(strings.ToLower(strings.TrimSpace(s))); m {
	case toolset.ToolModeFull, toolset.ToolModeSearch, toolset.ToolModeAuto:
		return m, nil
	}
	return "", fmt.Errorf("tool mode %q: want full, search or auto", s)
}
