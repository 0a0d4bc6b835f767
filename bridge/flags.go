package bridge

import (
	"fmt"
	"slices"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/flagschema"
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
	if _, err := e.schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		e.invalid = err
	}
	if w.flags == nil {
		w.flags = map[*pflag.Flag]flagEntry{}
	}
	w.flags[f] = e
	return e
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
// that sel serves: local flags first, then inherited ones; a name is
// served once. A command that parses its own flags serves none.
func (w *walker) selectFlags(t *Tool, c *cobra.Command, sel Selector, flagsSchema *jsonschema.Schema) error {
	if t.noParse {
		return nil
	}
	name := t.Flags.Name()
	add := func(f *pflag.Flag, keep func(*pflag.Flag) bool) {
		if !servable(f) {
			return
		}
		if t.Flags.Lookup(f.Name) != nil || (keep != nil && !keep(f)) {
			return
		}
		e := w.flagSchema(f)
		if e.annotation != nil {
			w.problem(c, name, f.Name, fmt.Errorf("jsonschema annotation rejected, using the generated schema: %w", e.annotation))
		}
		if e.invalid != nil {
			w.problem(c, name, f.Name, fmt.Errorf("flag left out: its schema is invalid: %w", e.invalid))
			return
		}
		t.Flags.AddFlag(f)
		flagsSchema.Properties[f.Name] = e.schema
		if isRequired(f) {
			flagsSchema.Required = append(flagsSchema.Required, f.Name)
		}
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) { add(f, sel.LocalFlag) })
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) { add(f, sel.InheritedFlag) })
	sort.Strings(flagsSchema.Required)
	return requiredFlagsServed(t, c)
}

// servable reports whether a flag may be served at all: hidden and
// deprecated flags, help and the flags cobra adds itself are not.
func servable(f *pflag.Flag) bool {
	return !f.Hidden && f.Deprecated == "" && f.Name != "help" && len(f.Annotations[cobra.FlagSetByCobraAnnotation]) == 0
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
