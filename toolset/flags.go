package toolset

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// Flag selection: which of a command's flags a tool serves, and the
// "flags" schema built from them.

// flagEntry is a flag's schema, checked once.
type flagEntry struct {
	schema     *jsonschema.Schema
	annotation error // the annotation was rejected
	invalid    error // the schema does not resolve or its default does not validate
}

// flagSchema returns f's schema, building and checking it at first use.
func (w *walker) flagSchema(f *pflag.Flag) flagEntry {
	if e, ok := w.flags[f]; ok {
		return e
	}
	var e flagEntry
	e.schema, e.annotation = flagschema.For(f)
	if note := flagschema.Completed(f); note != "" {
		w.cfg.Logger.Info("jsonschema annotation without a type, completed", "flag", f.Name, "how", note)
	}
	if _, err := e.schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		e.invalid = err
	}
	if w.flags == nil {
		w.flags = map[*pflag.Flag]flagEntry{}
	}
	w.flags[f] = e
	return e
}

// servedFlag returns the flag the tools serve in place of the adopter's f:
// f itself, or, when its value's type is one of Config.RepeatableTypes,
// one copy of it (the same for every tool, so identity comparisons such as
// the shared flags' still hold) carrying flagschema.AnnotationRepeatable.
// The copy shares f's Value; f is not changed.
func (w *walker) servedFlag(f *pflag.Flag) *pflag.Flag {
	if s, ok := w.served[f]; ok {
		return s
	}
	s := f
	if f.Value != nil && slices.Contains(w.cfg.RepeatableTypes, f.Value.Type()) && !flagschema.Repeatable(f) {
		cp := *f
		cp.Annotations = maps.Clone(f.Annotations)
		if cp.Annotations == nil {
			cp.Annotations = map[string][]string{}
		}
		cp.Annotations[flagschema.AnnotationRepeatable] = []string{"true"}
		if flagschema.Repeatable(&cp) {
			s = &cp
		}
	}
	if w.served == nil {
		w.served = map[*pflag.Flag]*pflag.Flag{}
	}
	w.served[f] = s
	return s
}

// newFlagsSchema is the empty "flags" object schema.
func newFlagsSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		Description:          "The command's flags by long name. A flag left out keeps its default.",
	}
}

// selectFlags fills t.Flags and the flags schema with the flags of c
// that sel serves: local flags first, then inherited ones, then (when the
// root has TraverseChildren) the ancestors' local flags; a name is served
// once. A command that parses its own flags serves only the ancestors'
// local flags: cobra's Traverse still parses those, before the command's
// name, whatever the command does with the words after it.
func (w *walker) selectFlags(t *Tool, c *cobra.Command, sel Selector, flagsSchema *jsonschema.Schema) error {
	name := t.Flags.Name()
	add := func(f *pflag.Flag, keep func(*pflag.Flag) bool) bool {
		if !servable(f, sel) {
			return false
		}
		if t.Flags.Lookup(f.Name) != nil || (keep != nil && !keep(f)) {
			return false
		}
		f = w.servedFlag(f)
		e := w.flagSchema(f)
		if e.annotation != nil {
			w.annotationProblem(c, name, fmt.Errorf("%w; the flag is served with the schema of its type", e.annotation))
		}
		if e.invalid != nil {
			w.problem(c, name, f.Name, fmt.Errorf("flag left out: its schema is invalid: %w", e.invalid))
			return false
		}
		t.Flags.AddFlag(withFreeShorthand(t.Flags, f))
		flagsSchema.Properties[f.Name] = e.schema
		return true
	}
	required := func(f *pflag.Flag) {
		if isRequired(f) {
			flagsSchema.Required = append(flagsSchema.Required, f.Name)
		}
	}
	if t.noParse {
		w.traversedFlags(t, c, sel, add, flagsSchema)
		if len(flagsSchema.Properties) > 0 {
			flagsSchema.Description = "Flags of the command's ancestors, by long name, which cobra reads before the command's name (TraverseChildren). A flag left out keeps its default. The command parses its own flags: those go in args."
		}
		return nil
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if add(f, sel.LocalFlag) {
			required(f)
		}
	})
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if add(f, sel.InheritedFlag) {
			required(f)
		}
	})
	w.traversedFlags(t, c, sel, add, flagsSchema)
	sort.Strings(flagsSchema.Required)
	return requiredFlagsServed(t, c)
}

// traversedFlags serves, when the root has TraverseChildren, the local
// (non-persistent) flags of c's ancestors: cobra's Traverse parses each
// ancestor's flags from the words before the next sub-command's name
// (docker's global options are local flags of its root), so the call
// path writes them there. cobra checks neither their required mark nor
// their groups on c, and neither does the tool. An ancestor's flag whose
// name the command has too is served under another name (see addAlias),
// never merged; when that name is taken as well it is reported and left
// out.
func (w *walker) traversedFlags(t *Tool, c *cobra.Command, sel Selector, add func(*pflag.Flag, func(*pflag.Flag) bool) bool, flagsSchema *jsonschema.Schema) {
	if !c.Root().TraverseChildren {
		return
	}
	var ancestors []*cobra.Command
	for p := c.Parent(); p != nil; p = p.Parent() {
		ancestors = append([]*cobra.Command{p}, ancestors...)
	}
	taken := func(name string) bool {
		return t.Flags.Lookup(name) != nil || c.LocalFlags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil
	}
	for depth, a := range ancestors {
		a.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if !servable(f, sel) || sel.InheritedFlag != nil && !sel.InheritedFlag(f) {
				return
			}
			if t.traversed == nil {
				t.traversed = map[string]int{}
			}
			if !taken(f.Name) {
				if add(f, sel.InheritedFlag) {
					t.traversed[f.Name] = depth
				}
				return
			}
			alias := a.Name() + "." + f.Name
			if taken(alias) {
				w.problem(c, t.Flags.Name(), f.Name, fmt.Errorf("flag of %q (TraverseChildren) left out: the command or a served flag already has that name, and %q too", a.CommandPath(), alias))
				return
			}
			if w.addAlias(t, f, alias, a, flagsSchema) {
				t.traversed[alias] = depth
				if t.writtenAs == nil {
					t.writtenAs = map[string]string{}
				}
				t.writtenAs[alias] = f.Name
			}
		})
	}
}

// addAlias serves the ancestor a's flag f, whose name the command has for
// a flag of its own, as alias (a's name, ".", f's name): docker's
// "service create" has its own --host, and docker's --host, read by
// cobra's Traverse before "service", is served as "docker.host" and
// written --host=VALUE before the sub-command's name. Its schema is f's,
// its description saying whose flag it is.
func (w *walker) addAlias(t *Tool, f *pflag.Flag, alias string, a *cobra.Command, flagsSchema *jsonschema.Schema) bool {
	f = w.servedFlag(f)
	e := w.flagSchema(f)
	if e.invalid != nil {
		w.problem(t.Command, t.Flags.Name(), f.Name, fmt.Errorf("flag of %q (TraverseChildren) left out: its schema is invalid: %w", a.CommandPath(), e.invalid))
		return false
	}
	cp := *f
	cp.Name, cp.Shorthand = alias, ""
	t.Flags.AddFlag(&cp)
	s := *e.schema
	s.Description = fmt.Sprintf("The --%s of %q, given before the sub-command (this command has a --%s of its own): %s", f.Name, a.CommandPath(), f.Name, e.schema.Description)
	flagsSchema.Properties[alias] = &s
	return true
}

// withFreeShorthand returns f, or a copy of it without its shorthand when
// fs already has a flag with that shorthand: under TraverseChildren an
// ancestor's flag (docker's -c/--context) and the command's own (run's
// -c/--cpu-shares) are parsed by different flag sets, so both exist, but
// one FlagSet cannot hold both shorthands (pflag panics). The argv writes
// every flag by its long name, so the tool never needs the shorthand; the
// copy shares f's Value, and so its type and default.
func withFreeShorthand(fs *pflag.FlagSet, f *pflag.Flag) *pflag.Flag {
	if f.Shorthand == "" || fs.ShorthandLookup(f.Shorthand) == nil {
		return f
	}
	cp := *f
	cp.Shorthand = ""
	return &cp
}

// servable reports whether a flag may be served at all: deprecated flags,
// help and the flags cobra adds itself are not, nor hidden flags unless
// the selector's HiddenFlag serves them.
func servable(f *pflag.Flag, sel Selector) bool {
	if f.Hidden && (sel.HiddenFlag == nil || !sel.HiddenFlag(f)) {
		return false
	}
	return f.Deprecated == "" && f.Name != "help" && len(f.Annotations[cobra.FlagSetByCobraAnnotation]) == 0
}

// requiredFlagsServed refuses a command with a required flag that is not
// served: every call would fail inside the command.
func requiredFlagsServed(t *Tool, c *cobra.Command) error {
	var missing []string
	visit := func(f *pflag.Flag) {
		if isRequired(f) && t.Flags.Lookup(f.Name) == nil && !slices.Contains(missing, f.Name) {
			missing = append(missing, f.Name)
		}
	}
	c.LocalFlags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	if len(missing) > 0 {
		return fmt.Errorf("required flag %s is not served (hidden, deprecated, excluded by a selector or with an invalid schema), so no call could succeed", flagList(missing))
	}
	return nil
}

// isRequired reports whether cobra marks f required.
func isRequired(f *pflag.Flag) bool {
	v := f.Annotations[cobra.BashCompOneRequiredFlag]
	return len(v) > 0 && v[0] == "true"
}
