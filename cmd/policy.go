package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Policy is what the person who starts the server decides it serves,
// whatever the CLI's author allowed: Toolset.WithPolicy applies it to the
// listing and to every call, from every entry point (mcp start, stream,
// tools, call, tool).
type Policy struct {
	// Tools, when non-empty, keeps only the tools whose names match one of
	// these patterns (path.Match syntax). A pattern that matches no tool is
	// an error.
	Tools []string
	// ExcludeTools removes the tools whose names match one of these
	// patterns; exclusion wins over Tools. A pattern that matches no tool
	// is an error.
	ExcludeTools []string
	// ReadOnly keeps only the commands annotated mcp.readOnlyHint "true".
	ReadOnly bool
	// Pins fix flags for every call: a pinned flag leaves every listed
	// schema, a call that sets it is refused, and its value is passed like
	// any other flag. A pin whose flag no served tool takes is an error.
	Pins []Pin
	// ToolMode chooses the shape of the listing; "" means ToolModeFull.
	ToolMode ToolMode
	// Expanded lists each tool in full (every flag in its schema, its whole
	// help) instead of the compact form, which states the flags shared by
	// every tool once, in the server instructions. Calls are validated the
	// same way either way.
	Expanded bool
}

// IsZero reports whether p changes nothing.
func (p Policy) IsZero() bool {
	return len(p.Tools) == 0 && len(p.ExcludeTools) == 0 && !p.ReadOnly && len(p.Pins) == 0 && (p.ToolMode == "" || p.ToolMode == ToolModeFull) && !p.Expanded
}

// Pin is one flag fixed for every call.
type Pin struct {
	Flag  string // the flag's long name
	Value string // its value as it would be written on the command line
	// From says where the pin came from, for messages: "--set" or
	// "before mcp start".
	From string
}

// ToolMode is the shape of the tool listing.
type ToolMode string

// The tool modes.
const (
	// ToolModeFull lists one tool per command.
	ToolModeFull ToolMode = "full"
	// ToolModeSearch lists a handful of tools (search, describe, run) that
	// reach every served command.
	ToolModeSearch ToolMode = "search"
	// ToolModeAuto is search when the full listing is large (more than
	// AutoSearchTools tools or AutoSearchBytes bytes), full otherwise.
	ToolModeAuto ToolMode = "auto"
)

// The thresholds above which ToolModeAuto chooses search: VS Code takes at
// most 128 tools and Windsurf 100; 200 KB of definitions is about 50,000
// tokens of a model's context.
const (
	AutoSearchTools = 100
	AutoSearchBytes = 200_000
)

// ParseToolMode reads a --tool-mode value.
func ParseToolMode(s string) (ToolMode, error) {
	switch m := ToolMode(strings.ToLower(strings.TrimSpace(s))); m {
	case ToolModeFull, ToolModeSearch, ToolModeAuto:
		return m, nil
	}
	return "", fmt.Errorf("tool mode %q: want full, search or auto", s)
}

// Names of the policy flags.
const (
	flagTools        = "tools"
	flagExcludeTools = "exclude-tools"
	flagReadOnly     = "read-only"
	flagSet          = "set"
	flagToolMode     = "tool-mode"
	flagExpanded     = "expanded"
)

// policyFlags defines the policy flags on one sub-command.
type policyFlags struct{}

// addPolicyFlags defines the policy flags on c. defaultMode is the
// --tool-mode when neither the flag nor its variable is set.
func addPolicyFlags(c *cobra.Command, defaultMode ToolMode) *policyFlags {
	fl := c.Flags()
	fl.StringSlice(flagTools, nil, "serve only the tools matching these name patterns (glob syntax, e.g. 'CLINAME_get_*'; env CLIENV_MCP_TOOLS)")
	fl.StringSlice(flagExcludeTools, nil, "do not serve the tools matching these name patterns; wins over --tools (env CLIENV_MCP_EXCLUDE_TOOLS)")
	fl.Bool(flagReadOnly, false, "serve only the commands annotated mcp.readOnlyHint; nothing else is listed or callable (env CLIENV_MCP_READ_ONLY)")
	fl.StringArray(flagSet, nil, "pin a flag for every call, FLAG=VALUE (repeatable): it leaves the schemas and a call cannot change it (env CLIENV_MCP_SET=FLAG=VALUE,...; \\, for a comma in a value)")
	fl.Bool(flagExpanded, false, "list every tool in full: every flag in its schema and its whole help, instead of stating the shared flags once in the server instructions (env CLIENV_MCP_EXPANDED)")
	fl.String(flagToolMode, string(defaultMode), "tool listing: full (one tool per command), search (search, describe and run tools) or auto (search above "+strconv.Itoa(AutoSearchTools)+" tools or "+strconv.Itoa(AutoSearchBytes/1000)+" KB; env CLIENV_MCP_TOOL_MODE)")
	return &policyFlags{}
}

// PolicyEnv returns the environment variable of the CLI named root that
// gives a policy setting when its flag is not set: PolicyEnv("kubectl",
// "exclude-tools") is "KUBECTL_MCP_EXCLUDE_TOOLS".
func PolicyEnv(root, flag string) string {
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
func (p *policyFlags) policy(o *Options, c *cobra.Command) (Policy, error) {
	group := o.group
	pol, err := readPolicy(c.Flags(), serverName(o, c), os.LookupEnv)
	if err != nil {
		return Policy{}, err
	}
	pre, err := flagsBeforeGroup(c, group)
	if err != nil {
		return Policy{}, err
	}
	pol.Pins = append(pre, pol.Pins...)
	return pol, checkPins(pol.Pins)
}

// readPolicy reads the policy flags of fs, and for each one not set on the
// command line its variable (PolicyEnv) through lookup.
func readPolicy(fs *pflag.FlagSet, root string, lookup func(string) (string, bool)) (Policy, error) {
	var pol Policy
	var err error
	env := func(flag string) (string, bool) {
		if fs.Changed(flag) || lookup == nil {
			return "", false
		}
		v, ok := lookup(PolicyEnv(root, flag))
		return v, ok && strings.TrimSpace(v) != ""
	}
	pol.Tools, _ = fs.GetStringSlice(flagTools)
	if v, ok := env(flagTools); ok {
		pol.Tools = splitList(v)
	}
	pol.ExcludeTools, _ = fs.GetStringSlice(flagExcludeTools)
	if v, ok := env(flagExcludeTools); ok {
		pol.ExcludeTools = splitList(v)
	}
	pol.ReadOnly, _ = fs.GetBool(flagReadOnly)
	if v, ok := env(flagReadOnly); ok {
		if pol.ReadOnly, err = strconv.ParseBool(strings.TrimSpace(v)); err != nil {
			return Policy{}, fmt.Errorf("$%s=%q: want true or false", PolicyEnv(root, flagReadOnly), v)
		}
	}
	pol.Expanded, _ = fs.GetBool(flagExpanded)
	if v, ok := env(flagExpanded); ok {
		if pol.Expanded, err = strconv.ParseBool(strings.TrimSpace(v)); err != nil {
			return Policy{}, fmt.Errorf("$%s=%q: want true or false", PolicyEnv(root, flagExpanded), v)
		}
	}
	mode, _ := fs.GetString(flagToolMode)
	modeFrom := "--" + flagToolMode
	if v, ok := env(flagToolMode); ok {
		mode, modeFrom = v, "$"+PolicyEnv(root, flagToolMode)
	}
	if pol.ToolMode, err = ParseToolMode(mode); err != nil {
		return Policy{}, fmt.Errorf("%s: %w", modeFrom, err)
	}
	sets, _ := fs.GetStringArray(flagSet)
	from := "--" + flagSet
	if v, ok := env(flagSet); ok {
		sets, from = splitPins(v), "$"+PolicyEnv(root, flagSet)
	}
	for _, s := range sets {
		name, value, ok := strings.Cut(s, "=")
		name = strings.TrimPrefix(strings.TrimSpace(name), "--")
		if !ok || name == "" {
			if from != "--"+flagSet {
				return Policy{}, fmt.Errorf("%s: %q: want FLAG=VALUE,FLAG=VALUE,... (\\, for a comma in a value), e.g. namespace=staging", from, s)
			}
			return Policy{}, fmt.Errorf("--set %q: want FLAG=VALUE, e.g. --set namespace=staging", s)
		}
		pol.Pins = append(pol.Pins, Pin{Flag: name, Value: value, From: from})
	}
	return pol, checkPins(pol.Pins)
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
func checkPins(pins []Pin) error {
	seen := map[string]string{}
	for _, pin := range pins {
		if from, dup := seen[pin.Flag]; dup {
			return fmt.Errorf("flag --%s is pinned twice (%s and %s)", pin.Flag, from, pin.From)
		}
		seen[pin.Flag] = pin.From
	}
	return nil
}

// Args renders p as the flags of mcp start (or mcp tool) that give it.
func (p Policy) Args() []string {
	var out []string
	if len(p.Tools) > 0 {
		out = append(out, "--"+flagTools+"="+strings.Join(p.Tools, ","))
	}
	if len(p.ExcludeTools) > 0 {
		out = append(out, "--"+flagExcludeTools+"="+strings.Join(p.ExcludeTools, ","))
	}
	if p.ReadOnly {
		out = append(out, "--"+flagReadOnly)
	}
	for _, pin := range p.Pins {
		out = append(out, "--"+flagSet+"="+pin.Flag+"="+pin.Value)
	}
	if p.ToolMode != "" {
		out = append(out, "--"+flagToolMode+"="+string(p.ToolMode))
	}
	if p.Expanded {
		out = append(out, "--"+flagExpanded)
	}
	return out
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
func flagsBeforeGroup(c, group *cobra.Command) ([]Pin, error) {
	if group == nil || !group.HasParent() {
		return nil, nil
	}
	var pins []Pin
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
			pins = append(pins, Pin{Flag: f.Name, Value: v, From: "before " + c.CommandPath()})
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
func (p *policyFlags) load(o *Options, c *cobra.Command) (Toolset, error) {
	return p.loadExpanded(o, c, false)
}

// loadExpanded is load, with the expanded listing when expanded is true
// (for the exports that have no server instructions to state the shared
// flags in).
func (p *policyFlags) loadExpanded(o *Options, c *cobra.Command, expanded bool) (Toolset, error) {
	pol, err := p.policy(o, c)
	if err != nil {
		return nil, err
	}
	pol.Expanded = pol.Expanded || expanded
	ts, err := o.Load(c)
	if err != nil {
		return nil, err
	}
	return withPolicy(o, c, ts, pol)
}

// withPolicy is ts.WithPolicy(pol), its error saying which of the
// settings it names came from a variable rather than a flag: "--tools: no
// tool matches x (from $MYCLI_MCP_TOOLS=x)" for a user who passed no
// --tools.
func withPolicy(o *Options, c *cobra.Command, ts Toolset, pol Policy) (Toolset, error) {
	v, err := ts.WithPolicy(pol)
	if err == nil {
		return v, nil
	}
	var from []string
	for _, f := range []string{flagTools, flagExcludeTools, flagReadOnly} {
		if c.Flags().Changed(f) || !strings.Contains(err.Error(), "--"+f) {
			continue
		}
		name := PolicyEnv(serverName(o, c), f)
		if val, ok := os.LookupEnv(name); ok && strings.TrimSpace(val) != "" {
			from = append(from, "$"+name+"="+val)
		}
	}
	if len(from) == 0 {
		return nil, err
	}
	return nil, fmt.Errorf("%w (from %s)", err, strings.Join(from, ", "))
}
