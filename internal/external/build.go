package external

import (
	"encoding/csv"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// Build returns a cobra command tree that mirrors spec: the same commands,
// names, aliases, usage lines, arities and flags, each flag a real pflag
// flag of the type found (its default and optional value as the binary
// prints them). The commands do not run anything: they exist to be
// reflected, and calls run the binary itself (bridge.Config.Executable).
// A flag that cannot be built is left out and returned in the notes.
func Build(spec *Spec) (*cobra.Command, []string) {
	var notes []string
	root := buildCommand(spec.Root, &notes, "")
	root.Version = spec.Version
	root.TraverseChildren = spec.TraverseChildren
	matching := spec.Matching
	if matching == "" {
		matching = exec.MatchUnknown
	}
	annotate(root, exec.AnnotationMatching, matching)
	return root, notes
}

func buildCommand(s *Command, notes *[]string, parent string) *cobra.Command {
	c := &cobra.Command{
		Use:                s.Use,
		Aliases:            s.Aliases,
		Short:              s.Short,
		Long:               s.Long,
		Example:            s.Example,
		DisableFlagParsing: s.NoParse,
		// The use line is the help's: it holds "[flags]" where the
		// help's did.
		DisableFlagsInUseLine: s.NoFlagsInUse,
		Annotations:           s.Annotations,
	}
	if c.Use == "" {
		c.Use = s.Name
	}
	if c.Name() != s.Name {
		c.Use = s.Name + " " + c.Use
	}
	if s.Runnable {
		c.Run = func(*cobra.Command, []string) {}
		c.Args = arity(s.MinArgs, s.MaxArgs)
	}
	path := strings.TrimSpace(parent + " " + s.Name)
	for _, f := range s.Flags {
		fs := c.Flags()
		if f.Persistent {
			fs = c.PersistentFlags()
		}
		fl, err := NewFlag(f)
		if err != nil {
			*notes = append(*notes, fmt.Sprintf("%s --%s: left out: %v", path, f.Name, err))
			continue
		}
		if fs.Lookup(f.Name) != nil || f.Shorthand != "" && fs.ShorthandLookup(f.Shorthand) != nil {
			*notes = append(*notes, fmt.Sprintf("%s --%s: left out: defined twice", path, f.Name))
			continue
		}
		fs.AddFlag(fl)
	}
	for _, sub := range s.Commands {
		c.AddCommand(buildCommand(sub, notes, path))
	}
	keepSubCommands(c, s)
	return c
}

// leftOutName names the hidden sub-command that stands for those left out.
const leftOutName = "cobramcp-left-out"

// keepSubCommands keeps a command that has sub-commands in the CLI one that
// has sub-commands in the tree built, when none of them is in it (left out
// by the overlay, the depth limit or a help that hung): a hidden
// sub-command stands for them, so that the call path writes the command's
// positional args after "--", as for any command with sub-commands. From
// outside, cobra's EnablePrefixMatching and EnableCaseInsensitive cannot
// be seen: "sec", "SECRET-WIPE" or an alias given as the first arg of
// "show" could run "show secret-wipe". The command is marked
// exec.MatchUnknown: its sub-commands' names are not known, so any word
// could be one's.
func keepSubCommands(c *cobra.Command, s *Command) {
	if !s.HasCommands || c.HasSubCommands() {
		return
	}
	c.AddCommand(&cobra.Command{Use: leftOutName, Hidden: true, Short: "sub-commands left out", Run: func(*cobra.Command, []string) {}})
	annotate(c, exec.AnnotationMatching, exec.MatchUnknown)
}

// annotate sets one annotation of c, on a copy of the map the spec
// (and its overlay) gave it.
func annotate(c *cobra.Command, key, value string) {
	a := make(map[string]string, len(c.Annotations)+1)
	for k, v := range c.Annotations {
		a[k] = v
	}
	a[key] = value
	c.Annotations = a
}

// arity returns the cobra.PositionalArgs for min..max args (max -1: no
// upper bound).
func arity(min, max int) cobra.PositionalArgs {
	switch {
	case max == 0:
		return cobra.NoArgs
	case max < 0 && min == 0:
		return nil // not known: the bridge says the command does not declare it
	case max < 0:
		return cobra.MinimumNArgs(min)
	default:
		return cobra.RangeArgs(min, max)
	}
}

// NewFlag returns a pflag flag of f's type with f's name, shorthand, usage,
// default (as DefValue), optional value and annotations (required, schema).
func NewFlag(f *Flag) (*pflag.Flag, error) {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	if f.Repeatable {
		fs.Var(&repeatableValue{typ: f.Type}, f.Name, f.Usage)
	} else if err := define(fs, f.Type, f.Name, f.Usage); err != nil {
		return nil, err
	}
	fl := fs.Lookup(f.Name)
	fl.Shorthand = f.Shorthand
	if f.Default != "" && !zeroDefault(f.Type, f.Default) {
		if err := setDefault(fl, f.Default); err == nil {
			fl.DefValue = fl.Value.String()
		}
		// A default the value cannot take (a custom type's own syntax) is
		// shown as printed.
		if fl.DefValue != f.Default {
			fl.DefValue = f.Default
		}
	}
	if f.NoOptDefVal != "" {
		fl.NoOptDefVal = f.NoOptDefVal
	}
	fl.Changed = false
	if f.Required {
		setAnnotation(fl, cobra.BashCompOneRequiredFlag, "true")
	}
	if f.Schema != "" {
		setAnnotation(fl, flagschema.Annotation, f.Schema)
	}
	return fl, nil
}

func setAnnotation(fl *pflag.Flag, key, value string) {
	if fl.Annotations == nil {
		fl.Annotations = map[string][]string{}
	}
	fl.Annotations[key] = []string{value}
}

// define adds a flag of the pflag type typ to fs: of its kind
// (flagschema.Kind.Define), or for a type name pflag does not know (from
// the overlay) a value that takes any text and reports that name.
func define(fs *pflag.FlagSet, typ, name, usage string) error {
	if typ == "" {
		return errors.New("no type")
	}
	if k, ok := flagschema.Lookup(typ); ok && k.Define(fs, name, usage) {
		return nil
	}
	fs.Var(&textValue{typ: typ}, name, usage)
	return nil
}

// setDefault sets fl to the default text as pflag prints it: "[a,b]" for
// slices and maps, the value itself for the rest.
func setDefault(fl *pflag.Flag, text string) error {
	typ := fl.Value.Type()
	inner, bracketed := strings.CutPrefix(text, "[")
	if bracketed {
		inner, bracketed = strings.CutSuffix(inner, "]")
	}
	switch {
	case typ == "stringArray" && bracketed:
		r := csv.NewReader(strings.NewReader(inner))
		rec, err := r.Read()
		if err != nil {
			return err
		}
		for _, v := range rec {
			if err := fl.Value.Set(v); err != nil {
				return err
			}
		}
		return nil
	case bracketed && (strings.HasSuffix(typ, "Slice") || strings.HasPrefix(typ, "stringTo")):
		return fl.Value.Set(inner)
	}
	return fl.Value.Set(text)
}

// repeatableValue is a pflag.SliceValue for a custom type that takes one
// value an occurrence: each kept as given.
type repeatableValue struct {
	typ string
	v   []string
}

func (v *repeatableValue) String() string {
	if len(v.v) == 0 {
		return "[]"
	}
	return "[" + strings.Join(v.v, ",") + "]"
}
func (v *repeatableValue) Set(s string) error       { v.v = append(v.v, s); return nil }
func (v *repeatableValue) Type() string             { return v.typ }
func (v *repeatableValue) Append(s string) error    { return v.Set(s) }
func (v *repeatableValue) Replace(s []string) error { v.v = s; return nil }
func (v *repeatableValue) GetSlice() []string       { return v.v }

// textValue is a pflag.Value for a type pflag does not know: any text,
// kept as given.
type textValue struct {
	typ string
	s   string
}

func (v *textValue) String() string     { return v.s }
func (v *textValue) Set(s string) error { v.s = s; return nil }
func (v *textValue) Type() string       { return v.typ }
