package external

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/tailscale/hujson"
)

// Overlay corrects what reflection cannot know. It is read from a JSON
// file (see ReadOverlay):
//
//	{
//	  "exclude": ["delete", "config set-credentials"],
//	  "flags": {"namespace": {"description": "the namespace"}},
//	  "commands": {
//	    "get": {"readOnly": true, "idempotent": true},
//	    "scale": {
//	      "destructive": false,
//	      "args": {"min": 1, "max": 1},
//	      "flags": {
//	        "replicas": {"type": "int", "required": true},
//	        "output": {"schema": {"enum": ["json", "yaml"]}}
//	      }
//	    }
//	  }
//	}
//
// Commands are named by their path below the root ("" is the root);
// "exclude" leaves commands out with their sub-commands; "flags" at the
// top applies to the flag of that name wherever it is defined, and a
// command's own "flags" to the flags that command has (its own and
// inherited ones, which it then gets a copy of). A name that matches
// nothing is an error, so that a typo does not go unnoticed.
type Overlay struct {
	Exclude  []string                   `json:"exclude,omitempty"`
	Flags    map[string]*FlagOverlay    `json:"flags,omitempty"`
	Commands map[string]*CommandOverlay `json:"commands,omitempty"`
	// Limits are the call limits to serve the CLI with (see CallLimits).
	Limits *LimitsOverlay `json:"limits,omitempty"`

	// builtin names the CLI of a built-in overlay (BuiltinOverlay): its
	// names that match nothing (another version of the CLI) are noted
	// and skipped rather than an error.
	builtin string
}

// CommandOverlay corrects one command.
type CommandOverlay struct {
	Short       *string `json:"short,omitempty"`
	Long        *string `json:"long,omitempty"`
	Title       *string `json:"title,omitempty"`
	ReadOnly    *bool   `json:"readOnly,omitempty"`
	Destructive *bool   `json:"destructive,omitempty"`
	Idempotent  *bool   `json:"idempotent,omitempty"`
	OpenWorld   *bool   `json:"openWorld,omitempty"`
	// Args bounds the positional args; max -1 means no upper bound, and
	// {"max": 0} means none.
	Args  *ArgsOverlay            `json:"args,omitempty"`
	Flags map[string]*FlagOverlay `json:"flags,omitempty"`
}

// LimitsOverlay holds the call limits an overlay gives the CLI, as its
// author's toolset.Config would ({"timeout": "30m", "maxOutput": 4194304,
// "maxParallel": 4}); the serving command's --timeout, --max-output and
// --max-parallel still win. 0 means no limit (timeout, maxOutput).
type LimitsOverlay struct {
	Timeout     string `json:"timeout,omitempty"`
	MaxOutput   *int   `json:"maxOutput,omitempty"`
	MaxParallel *int   `json:"maxParallel,omitempty"`
}

// CallLimits returns the overlay's limits as toolset.Config takes them
// (Timeout, MaxOutput, MaxParallel): zero where the overlay says nothing,
// negative for "no limit".
func (o *Overlay) CallLimits() (timeout time.Duration, maxOutput, maxParallel int, err error) {
	if o == nil || o.Limits == nil {
		return 0, 0, 0, nil
	}
	l := o.Limits
	if l.Timeout != "" {
		if timeout, err = time.ParseDuration(l.Timeout); err != nil || timeout < 0 {
			return 0, 0, 0, fmt.Errorf("overlay: limits.timeout %q: want a duration such as 30m (0: no limit)", l.Timeout)
		}
		if timeout == 0 {
			timeout = -1
		}
	}
	if l.MaxOutput != nil {
		if maxOutput = *l.MaxOutput; maxOutput < 0 {
			return 0, 0, 0, fmt.Errorf("overlay: limits.maxOutput %d: want a number of bytes (0: no cap)", maxOutput)
		}
		if maxOutput == 0 {
			maxOutput = -1
		}
	}
	if l.MaxParallel != nil {
		if maxParallel = *l.MaxParallel; maxParallel < 1 {
			return 0, 0, 0, fmt.Errorf("overlay: limits.maxParallel %d: want at least 1", maxParallel)
		}
	}
	return timeout, maxOutput, maxParallel, nil
}

// ArgsOverlay bounds a command's positional args.
type ArgsOverlay struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// FlagOverlay corrects one flag.
type FlagOverlay struct {
	// Type is a pflag type name ("int", "stringArray", "stringToString"...).
	Type string `json:"type,omitempty"`
	// Schema is a JSON Schema for the value (it becomes the flag's
	// jsonschema annotation, as an adopted CLI would write it).
	Schema      json.RawMessage `json:"schema,omitempty"`
	Description *string         `json:"description,omitempty"`
	Default     *string         `json:"default,omitempty"`
	Required    *bool           `json:"required,omitempty"`
	// Hidden declares, in a command's "flags", a flag that the CLI hides
	// (etcdctl's global --endpoints), which reflection cannot see: it is
	// served with Type, which it must give, once the CLI's parser has
	// taken a value of that type for it (Load asks it). Declared on the
	// root (""), it is inherited by every command, as a global option.
	Hidden bool `json:"hidden,omitempty"`
}

// excludes reports whether the overlay leaves out the command at path
// (an exclusion of it or of an ancestor).
func (o *Overlay) excludes(path []string) bool {
	if o == nil {
		return false
	}
	for _, p := range o.Exclude {
		if e := strings.Fields(p); len(e) > 0 && len(e) <= len(path) && slices.Equal(e, path[:len(e)]) {
			return true
		}
	}
	return false
}

// covers reports whether the overlay excludes every command of unread
// (Spec.Unread).
func (o *Overlay) covers(unread []string) bool {
	for _, u := range unread {
		if !o.excludes(strings.Fields(u)) {
			return false
		}
	}
	return true
}

// ReadOverlay reads an overlay file: JSON, where comments (// and /* */)
// and trailing commas are allowed (hujson), so that a hand-written overlay
// can say why; unknown members are an error.
func ReadOverlay(path string) (*Overlay, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("overlay: %w", err)
	}
	o, err := ParseOverlay(b)
	if err != nil {
		return nil, fmt.Errorf("overlay %s: %w", path, err)
	}
	return o, nil
}

// ParseOverlay reads an overlay from JSON with comments and trailing
// commas allowed; unknown members are an error.
func ParseOverlay(b []byte) (*Overlay, error) {
	// Standardize blanks the comments out in place: the offsets of the
	// decoder's errors stay those of the file.
	std, err := hujson.Standardize(slices.Clone(b))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	var o Overlay
	if err := dec.Decode(&o); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := position(b, se.Offset)
			return nil, fmt.Errorf("line %d, column %d: %w", line, col, err)
		}
		return nil, err
	}
	return &o, nil
}

// position is the line and column (from 1) of byte offset off in b.
func position(b []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(b)))
	before := b[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, int(off) - bytes.LastIndexByte(before, '\n')
}

// Apply returns a copy of spec with the overlay applied.
func (o *Overlay) Apply(spec *Spec) (*Spec, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	// A name that matches nothing is an error, or for a built-in overlay
	// a note.
	miss := func(format string, a ...any) error {
		if o.builtin == "" {
			return fmt.Errorf("overlay: "+format, a...)
		}
		s.Notes = append(s.Notes, fmt.Sprintf("built-in overlay for %s: %s: skipped", o.builtin, fmt.Sprintf(format, a...)))
		return nil
	}
	for _, p := range o.Exclude {
		path := strings.Fields(p)
		if len(path) == 0 {
			return nil, fmt.Errorf("overlay: exclude %q: name a command below the root", p)
		}
		parent := s.Root.find(path[:len(path)-1])
		if parent == nil || parent.find(path[len(path)-1:]) == nil {
			if slices.Contains(s.Unread, strings.Join(path, " ")) {
				continue // its help could not be read: left out already
			}
			if err := miss("exclude %q: no such command", p); err != nil {
				return nil, err
			}
			continue
		}
		parent.Commands = slices.DeleteFunc(parent.Commands, func(c *Command) bool { return c.Name == path[len(path)-1] })
		parent.HasCommands = true
		s.Notes = append(s.Notes, fmt.Sprintf("%s %s: left out by the overlay", s.Root.Name, p))
	}
	for name, fo := range o.Flags {
		found := false
		walkSpec(s.Root, func(c *Command) {
			if f := c.flag(name); f != nil {
				found = true
				fo.apply(f)
			}
		})
		if !found {
			if err := miss("flags: no command has a flag --%s", name); err != nil {
				return nil, err
			}
		}
	}
	for p, co := range o.Commands {
		c := s.Root.find(strings.Fields(p))
		if c == nil {
			if err := miss("commands: no command %q", p); err != nil {
				return nil, err
			}
			continue
		}
		if err := co.apply(c, s.Root, strings.Fields(p)); err != nil {
			if err := miss("commands %q: %v", p, err); err != nil {
				return nil, err
			}
		}
	}
	return &s, nil
}

func walkSpec(c *Command, fn func(*Command)) {
	fn(c)
	for _, s := range c.Commands {
		walkSpec(s, fn)
	}
}

func (fo *FlagOverlay) apply(f *Flag) {
	if fo.Type != "" {
		f.Type, f.TypeFrom = fo.Type, FromOverlay
		if t, ok := helpKind(fo.Type); ok && fo.Type != "" {
			f.Type = t
		}
	}
	if len(fo.Schema) > 0 {
		f.Schema = string(fo.Schema)
	}
	if fo.Description != nil {
		f.Usage = *fo.Description
	}
	if fo.Default != nil {
		f.Default = *fo.Default
	}
	if fo.Required != nil {
		f.Required = *fo.Required
	}
}

// The command annotation keys an overlay writes (toolset reads them).
const (
	annTitle       = toolmeta.AnnotationTitle
	annReadOnly    = toolmeta.AnnotationReadOnly
	annDestructive = toolmeta.AnnotationDestructive
	annIdempotent  = toolmeta.AnnotationIdempotent
	annOpenWorld   = toolmeta.AnnotationOpenWorld
)

func (co *CommandOverlay) apply(c, root *Command, path []string) error {
	if co.Short != nil {
		c.Short = *co.Short
	}
	if co.Long != nil {
		c.Long = *co.Long
	}
	set := func(key string, v *bool) {
		if v == nil {
			return
		}
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[key] = fmt.Sprint(*v)
	}
	if co.Title != nil {
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[annTitle] = *co.Title
	}
	set(annReadOnly, co.ReadOnly)
	set(annDestructive, co.Destructive)
	set(annIdempotent, co.Idempotent)
	set(annOpenWorld, co.OpenWorld)
	if co.Args != nil {
		if co.Args.Max >= 0 && co.Args.Max < co.Args.Min {
			return fmt.Errorf("args: max %d is below min %d", co.Args.Max, co.Args.Min)
		}
		c.MinArgs, c.MaxArgs = co.Args.Min, co.Args.Max
	}
	for name, fo := range co.Flags {
		f := c.flag(name)
		if f == nil {
			// An inherited flag: the command gets its own copy.
			for i := len(path) - 1; i >= 0 && f == nil; i-- {
				if pf := root.find(path[:i]).flag(name); pf != nil && pf.Persistent {
					cp := *pf
					cp.Persistent = false
					f = &cp
					c.Flags = append(c.Flags, f)
				}
			}
		}
		if f == nil && fo.Hidden {
			if fo.Type == "" {
				return fmt.Errorf("flags: --%s is declared hidden: give its type", name)
			}
			f = &Flag{Name: name, Declared: true, Persistent: len(path) == 0}
			c.Flags = append(c.Flags, f)
		}
		if f == nil {
			return fmt.Errorf("flags: no flag --%s (a flag the CLI hides can be declared with \"hidden\": true and its type)", name)
		}
		fo.apply(f)
	}
	return nil
}

// checkDeclared asks the parser of the binary at path about each flag that
// the overlay declared hidden in spec: `__complete PATH --NAME=VALUE -`,
// VALUE a value of its type. A parser that does not know the flag, or
// refuses the value, fails the overlay.
func checkDeclared(ctx context.Context, path string, spec *Spec, o *Options) error {
	var errs []error
	var d *discoverer
	var walk func(c *Command, at []string)
	walk = func(c *Command, at []string) {
		for _, f := range c.Flags {
			if !f.Declared {
				continue
			}
			if d == nil {
				d = newDiscoverer(path, spec.Root.Name, o, 1)
			}
			v, ok := sampleValue(f.Type)
			if !ok {
				v = probeValue // a custom type's name: a string
			}
			comp, err := d.complete(ctx, append(slices.Clone(at), "--"+f.Name+"="+v, "-")...)
			where := strings.Join(at, " ")
			switch {
			case err != nil:
				errs = append(errs, fmt.Errorf("overlay: commands %q: flags: --%s (hidden): asking the CLI's parser: %w", where, f.Name, err))
			case comp.refused():
				errs = append(errs, fmt.Errorf("overlay: commands %q: flags: --%s (hidden): the CLI's parser refuses --%s=%s (%s): %s",
					where, f.Name, f.Name, v, f.Type, comp.errText))
			}
		}
		for _, s := range c.Commands {
			walk(s, append(slices.Clone(at), s.Name))
		}
	}
	walk(spec.Root, nil)
	return errors.Join(errs...)
}
