package toolset

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Toolset is the reflection of one command tree: every tool it can
// serve, each as defined, and what its calls share (their limits and their
// count in flight). View makes the served view a server serves: the tools
// its policies leave, listed in one shape. A Toolset is safe for
// concurrent use.
type Toolset struct {
	cfg    Config
	root   *cobra.Command
	tools  []*Tool       // every tool of the tree, sorted by name
	shared []*pflag.Flag // the flags stated once (compact listing), sorted by name
	byName map[string]*Tool
	// longestName is the length of the longest tool name: a longer name
	// is no tool's, known without hashing it.
	longestName int
	problems    []problem
	scheds      *schedulers // the fair schedulers of the call slots, by Limits
	running     *inFlight
	lookups     lookupLimit // search mode's search, list and describe calls
	// executable is the binary calls run: Config.Executable, or
	// os.Executable() asked once (it reads a link on every call).
	executable func() (string, error)
}

// New reflects the tree of root into tools, without starting anything.
// Commands and flags that cannot be served are left out and reported
// to cfg.Logger (a warning each), as are annotations ignored; the rest load.
// A nil cfg means the defaults.
func New(root *cobra.Command, cfg *Config) (*Toolset, error) {
	if root == nil {
		return nil, errors.New("toolset: nil root command")
	}
	root = root.Root()
	c := withDefaults(cfg)
	w := &walker{cfg: &c, root: root}
	w.walk(root)

	ts := &Toolset{
		cfg:     c,
		root:    root,
		byName:  make(map[string]*Tool, len(w.tools)),
		scheds:  newSchedulers(c.MaxParallel),
		running: newInFlight(),
		lookups: newLookupLimit(),
		executable: sync.OnceValues(func() (string, error) {
			if c.Executable != "" {
				return c.Executable, nil
			}
			return os.Executable()
		}),
	}
	for _, t := range w.tools {
		if prev, dup := ts.byName[t.Name]; dup {
			w.problem(t.Command, t.Name, "", fmt.Errorf("tool name %q is already taken by %q", t.Name, prev.Command.CommandPath()))
			continue
		}
		if err := validateTool(t); err != nil {
			w.problem(t.Command, t.Name, "", err)
			continue
		}
		ts.byName[t.Name] = t
		ts.tools = append(ts.tools, t)
		ts.longestName = max(ts.longestName, len(t.Name))
	}
	sort.Slice(ts.tools, func(i, j int) bool { return ts.tools[i].Name < ts.tools[j].Name })
	ts.problems = w.problems
	ts.compact(w.served)
	return ts, nil
}

// allTools returns every tool of the tree (as defined) sorted by name.
func (ts *Toolset) allTools() []*Tool { return slices.Clone(ts.tools) }

// lookup returns the tool of the tree named name (as defined).
func (ts *Toolset) lookup(name string) (*Tool, bool) {
	t, ok := ts.byName[name]
	return t, ok
}

// problemList returns the commands and flags left out, and the annotations
// ignored on served commands (an unknown mcp.* key, a value that is not a
// boolean, an Ophis key overridden by ours), with their reasons.
func (ts *Toolset) problemList() []problem { return slices.Clone(ts.problems) }

// Root returns the root command of the tree reflected: the CLI's name,
// version and descriptions.
func (ts *Toolset) Root() *cobra.Command { return ts.root }

// validateTool applies the discovery-time rules to a tool before it is
// served: a valid name, an input schema of type object whose properties are
// all typed, and required naming only defined properties. Each flag's
// schema was resolved, and its default validated, when the walk built it;
// the whole input schema resolves at the tool's first call (see
// Tool.validator), and the tests resolve every tool of mycli and of a large
// generated tree.
func validateTool(t *Tool) error {
	if !validName().MatchString(t.Name) {
		return fmt.Errorf("tool name %q does not match %s", t.Name, validName())
	}
	in, ok := t.expanded.InputSchema.(*jsonschema.Schema)
	if !ok || in.Type != "object" {
		return errors.New(`input schema is not of type "object"`)
	}
	if err := checkProperties("/inputSchema", in); err != nil {
		return err
	}
	if flags := in.Properties["flags"]; flags != nil {
		if err := checkProperties("/inputSchema/properties/flags", flags); err != nil {
			return err
		}
		for name, p := range flags.Properties {
			if !flagschema.Typed(p) {
				return fmt.Errorf("flag %q has a schema without a type", name)
			}
		}
	}
	return nil
}

func checkProperties(at string, s *jsonschema.Schema) error {
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; !ok {
			return fmt.Errorf("%s: required lists %q, which is not a property", at, r)
		}
	}
	return nil
}

// selectTools returns the tools whose names match one of the patterns
// (path.Match syntax), or all tools when there is no pattern.
func (ts *Toolset) selectTools(patterns []string) ([]*Tool, error) {
	if len(patterns) == 0 {
		return ts.tools, nil
	}
	var out []*Tool
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("tool pattern %q: %w", p, err)
		}
	}
	used := make([]bool, len(patterns))
	for _, t := range ts.tools {
		for i, p := range patterns {
			if ok, _ := path.Match(p, t.Name); ok {
				used[i] = true
				out = append(out, t)
				break
			}
		}
	}
	var unused []string
	for i, u := range used {
		if !u {
			unused = append(unused, patterns[i])
		}
	}
	if len(unused) > 0 {
		return nil, fmt.Errorf("no tool matches %s%s", strings.Join(unused, ", "), ts.prefixHint(unused))
	}
	return out, nil
}

// prefixHint says, for patterns that match no tool but would with the
// tools' common prefix in front ("list" for "todo_list"), that the names
// begin with it.
func (ts *Toolset) prefixHint(patterns []string) string {
	prefix := ts.root.Name()
	if ts.cfg.ToolPrefix != "" {
		prefix = ts.cfg.ToolPrefix
	}
	prefix = toolName(prefix) + "_"
	var with []string
	for _, p := range patterns {
		if strings.HasPrefix(p, prefix) {
			continue
		}
		for _, t := range ts.tools {
			if ok, _ := path.Match(prefix+p, t.Name); ok {
				with = append(with, prefix+p)
				break
			}
		}
	}
	if len(with) == 0 {
		return ""
	}
	return fmt.Sprintf(" (tool names begin with %q: did you mean %s?)", prefix, strings.Join(with, ", "))
}
