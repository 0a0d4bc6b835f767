package toolset

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxNameLen is the longest tool name produced. MCP allows 128 characters,
// but Claude Desktop and OpenAI reject a whole tool list holding a longer
// name than 64.
const maxNameLen = 64

var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`) })

// Tool is one command of the tree as defined: its name, its definition
// (Definition) and how to run it. What a server lists for it, which a
// view's pins and listing shape change, is the tool as listed
// (Served.Tools).
type Tool struct {
	// Name is the tool's name.
	Name string
	// Command is the command the tool runs.
	Command *cobra.Command
	// Path is the command path below the root ("get", "pods").
	Path []string
	// Flags holds the served flags, local and inherited, by the names a
	// call gives them; a flag not in it cannot be set by a call. An
	// ancestor's flag read under TraverseChildren may be a copy: without
	// its shorthand when the command uses that shorthand, named
	// "ANCESTOR.NAME" when the command has a flag of its name.
	Flags *pflag.FlagSet
	// Timeout bounds a call; negative means no bound.
	Timeout time.Duration

	noParse    bool              // the command has DisableFlagParsing
	stopsAtArg bool              // the command's flags stop at its first positional arg (SetInterspersed(false))
	line       exec.CommandLine  // how its argv is written
	arity      arity             // the count of args (and argsAfterDash) cmd.Args accepts
	expanded   *mcp.Tool         // the definition (Definition); its input schema validates every call
	compact    *mcp.Tool         // the compact form, as a view lists it without pins unless Listing.Expanded
	groupText  []string          // the sentences stating the flag groups
	unlisted   map[string]string // the shared flags the compact listing leaves out of its schema, name to JSON type

	// traversed maps the name of each served flag that belongs to an
	// ancestor, read by cobra before the sub-command's name under
	// TraverseChildren, to the number of Path elements it goes after.
	traversed map[string]int
	// writtenAs maps a served name to the flag's own long name where they
	// differ (an ancestor's flag served under an alias; see addAlias).
	writtenAs map[string]string

	check *validator // the input schema, resolved at the first call
}

// problem is a command or flag left out, or an annotation ignored on a
// command that is served, with the reason.
type problem struct {
	Command string // the command's full path
	Tool    string // the tool name, when one was derived
	Flag    string // the flag's name, when the problem is a flag's
	Err     error
}

func (p problem) String() string {
	s := p.Command
	if p.Tool != "" {
		s += " (tool " + p.Tool + ")"
	}
	if p.Flag != "" {
		s += " flag --" + p.Flag
	}
	return s + ": " + p.Err.Error()
}

// outputSchema is the fixed output schema of every tool.
func outputSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"stdout":   {Type: "string", Description: "what the command wrote to standard output"},
			"stderr":   {Type: "string", Description: "what the command wrote to standard error"},
			"exitCode": {Type: "integer", Description: "the command's exit code; -1 when it was ended by a signal or did not start"},
			"timedOut": {Type: "boolean", Description: "true when the call's timeout ended the command; absent otherwise"},
		},
		PropertyOrder: []string{"stdout", "stderr", "exitCode", "timedOut"},
		Required:      []string{"stdout", "stderr", "exitCode"},
	}
}

// walker reflects one tree.
type walker struct {
	cfg      *Config
	root     *cobra.Command
	tools    []*Tool
	problems []problem
	flags    map[*pflag.Flag]flagEntry   // one schema per flag, shared by every tool that serves it
	served   map[*pflag.Flag]*pflag.Flag // the flag served in place of each of the tree's (see servedFlag)
	output   *jsonschema.Schema          // the output schema, shared by every tool (as the flags' are)
}

// outputSchema is the output schema of the walk's tools, made once.
func (w *walker) outputSchema() *jsonschema.Schema {
	if w.output == nil {
		w.output = outputSchema()
	}
	return w.output
}

func (w *walker) problem(c *cobra.Command, tool, flag string, err error) {
	p := problem{Command: c.CommandPath(), Tool: tool, Flag: flag, Err: err}
	w.problems = append(w.problems, p)
	w.cfg.Logger.Warn("left out of the MCP tools", "command", p.Command, "tool", tool, "flag", flag, "reason", err)
}

// annotationProblem reports an annotation of c that the walk ignored (an
// unknown mcp.* key, a value that is not a boolean, an Ophis key overridden
// by ours); c is served all the same.
func (w *walker) annotationProblem(c *cobra.Command, tool string, err error) {
	p := problem{Command: c.CommandPath(), Tool: tool, Err: err}
	w.problems = append(w.problems, p)
	w.cfg.Logger.Warn("annotation ignored", "command", p.Command, "tool", tool, "reason", err)
}

func (w *walker) walk(c *cobra.Command) {
	if c.Annotations[toolmeta.AnnotationGroup] != "" || isCobraDefault(c) {
		return
	}
	if c.Hidden || c.Deprecated != "" {
		return
	}
	if c.Runnable() {
		if sel, ok := w.selector(c); ok {
			if t, err := w.safeTool(c, sel); err != nil {
				w.problem(c, "", "", err)
			} else {
				w.tools = append(w.tools, t)
			}
		}
	}
	for _, sub := range c.Commands() {
		w.walk(sub)
	}
}

// isCobraDefault reports whether c is cobra's own help or completion
// command, which cobra adds to the root.
func isCobraDefault(c *cobra.Command) bool {
	if c.Parent() == nil || c.Parent().HasParent() {
		return false
	}
	switch c.Name() {
	case "help":
		return c.Short == "Help about any command"
	case "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return c.Name() != "completion" || strings.HasPrefix(c.Short, "Generate the autocompletion script")
	}
	return false
}

func (w *walker) selector(c *cobra.Command) (Selector, bool) {
	if len(w.cfg.Selectors) == 0 {
		return Selector{}, true
	}
	for _, s := range w.cfg.Selectors {
		if s.Cmd == nil || s.Cmd(c) {
			return s, true
		}
	}
	return Selector{}, false
}

// safeTool is tool with a panic turned into an error: cobra and pflag panic
// on a broken command (a shorthand used by a local and an inherited flag),
// which must cost that command, not every tool.
func (w *walker) safeTool(c *cobra.Command, sel Selector) (t *Tool, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("reflecting the command panicked: %v", r)
		}
	}()
	return w.tool(c, sel)
}

// tool builds the tool for c with the flags that sel serves, in named
// steps: its path, its timeout, its flags, its input schema, then the MCP
// definition.
func (w *walker) tool(c *cobra.Command, sel Selector) (*Tool, error) {
	name := w.toolName(c)
	t := &Tool{Command: c, noParse: c.DisableFlagParsing}
	if rp := relPath(c); rp != "" {
		t.Path = strings.Split(rp, " ")
	}
	if err := w.checkPath(t, c); err != nil {
		return nil, err
	}
	timeout, err := w.toolTimeout(c)
	if err != nil {
		return nil, err
	}
	t.Timeout = timeout

	t.Flags = pflag.NewFlagSet(name, pflag.ContinueOnError)
	flagsSchema := newFlagsSchema()
	if err := w.selectFlags(t, c, sel, flagsSchema); err != nil {
		return nil, err
	}
	groupText := addFlagGroups(flagsSchema, t.Flags)

	t.arity = probeArity(c)
	t.stopsAtArg = !c.DisableFlagParsing && flagsStopAtFirstArg(c)
	t.line = exec.CommandLine{
		Name:               c.CommandPath(),
		Path:               t.Path,
		Flags:              t.Flags,
		Traversed:          t.traversed,
		FlagNames:          t.writtenAs,
		NoParse:            t.noParse,
		SubCommand:         subCommandOf(c),
		TraverseSubCommand: traverseSubCommand(c),
		StopsAtFirstArg:    t.stopsAtArg,
	}
	afterDash := afterDashSchema(c, t.arity, t.dashIsArg())
	args := argsSchema(c, t.arity, afterDash != nil, t.dashIsArg())

	t.groupText = groupText
	ann, ignored := annotations(c)
	for _, err := range ignored {
		w.annotationProblem(c, name, err)
	}
	def := &mcp.Tool{
		Name:         name,
		Description:  description(c, groupText),
		InputSchema:  inputSchema(flagsSchema, args, afterDash),
		OutputSchema: w.outputSchema(),
		Annotations:  ann,
	}
	if def.Annotations != nil {
		def.Title = def.Annotations.Title
	}
	def.Meta = w.meta(c, name)
	t.Name, t.expanded, t.compact = name, def, def
	t.check = newValidator(t.inputSchema())
	return t, nil
}

// checkPath refuses a command its own path does not find: the child finds
// its command by these names, and a name that another command earlier in
// its parent's list has as its name or alias would run that command
// instead.
func (w *walker) checkPath(t *Tool, c *cobra.Command) error {
	if found, _, err := w.root.Find(t.Path); err != nil || found != c {
		other := "an error"
		if found != nil {
			other = found.CommandPath()
		}
		return fmt.Errorf("its command line %q finds %s, not this command (a name or alias used twice)", strings.Join(t.Path, " "), other)
	}
	return nil
}

// toolTimeout is the config's timeout, or the command's mcp.timeout annotation.
func (w *walker) toolTimeout(c *cobra.Command) (time.Duration, error) {
	v, ok := c.Annotations[toolmeta.AnnotationTimeout]
	if !ok {
		return w.cfg.Timeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("annotation %s=%q: %w", toolmeta.AnnotationTimeout, v, err)
	}
	return d, nil
}

// inputSchema assembles a tool's input schema from its flags schema, its
// args schema (nil when the command takes no args) and its argsAfterDash
// schema (nil unless the command's usage shows " -- "). It is the single
// source of truth for validating a call; the one rule it cannot state,
// the count of args and argsAfterDash together, is checked by the call
// path from the same probe.
func inputSchema(flagsSchema, args, afterDash *jsonschema.Schema) *jsonschema.Schema {
	input := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		PropertyOrder:        []string{"flags", "args"},
	}
	if afterDash != nil {
		input.PropertyOrder = append(input.PropertyOrder, "argsAfterDash")
		input.Properties["argsAfterDash"] = afterDash
	}
	if len(flagsSchema.Properties) > 0 {
		input.Properties["flags"] = flagsSchema
		if len(flagsSchema.Required) > 0 {
			input.Required = []string{"flags"}
		}
	}
	if args != nil {
		input.Properties["args"] = args
		if args.MinItems != nil && *args.MinItems > 0 {
			input.Required = append(input.Required, "args")
		}
	}
	return input
}

// inputSchema is the tool's expanded input schema, as built by the walk:
// every served flag, whatever the listing shows.
func (t *Tool) inputSchema() *jsonschema.Schema {
	return t.expanded.InputSchema.(*jsonschema.Schema)
}

// Definition returns the tool as defined: every served flag in its input
// schema (the shared flags too, and the flags a view may pin), the
// command's whole help as its description, and an output schema that
// describes its fields. A call of a view with no pin on the tool is
// validated against this input schema, whatever the listing shows; with
// pins, against this schema less the pinned flags. What a server lists for
// the tool is Served.Tools. The caller must not modify it.
func (t *Tool) Definition() *mcp.Tool { return t.expanded }
