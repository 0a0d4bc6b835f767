package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Policy is what the person who starts a server allows it to serve,
// whatever the CLI's author allowed (Config). View applies it to the
// listing and to every call, together with any other policy given to it
// (each must allow a tool for it to be served). Each of its settings is named by a Setting in
// the errors of View.
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
}

// Pin is one flag fixed for every call.
type Pin struct {
	Flag  string // the flag's long name
	Value string // its value as it would be written on the command line
	// Claim, when set, pins the flag to this claim of each call's caller
	// instead of to Value: the claim of the caller's verified token (a
	// string, number or boolean), checked by the flag's parser at the call
	// (each value once, in a bounded cache). A call whose caller has no
	// such claim, or one the flag refuses, is refused and nothing runs.
	// The view is the same for every caller: one view serves every value.
	Claim string
	// From says where the pin came from, in the caller's words, for
	// messages: "--set" or "before mcp start".
	From string
}

// Setting names one setting of a Policy or a Listing, for errors.
type Setting string

// The settings.
const (
	SettingTools        Setting = "tools"         // Policy.Tools
	SettingExcludeTools Setting = "exclude-tools" // Policy.ExcludeTools
	SettingReadOnly     Setting = "read-only"     // Policy.ReadOnly
	SettingPins         Setting = "pins"          // Policy.Pins
	SettingMode         Setting = "mode"          // Listing.Mode
)

// A PolicyError is why View refused a policy: the setting at fault, or ""
// when the settings together leave nothing to serve (Err is then
// ErrNothingServed).
type PolicyError struct {
	Setting Setting
	Err     error
	// Active names, when nothing is left to serve, the settings that
	// choose what is served and that some policy set (SettingTools,
	// SettingExcludeTools, SettingReadOnly), in that order: a caller can
	// tell that --read-only was among them without reading Err's text.
	Active []Setting
}

func (e *PolicyError) Error() string {
	if e.Setting == "" {
		return e.Err.Error()
	}
	return string(e.Setting) + ": " + e.Err.Error()
}

func (e *PolicyError) Unwrap() error { return e.Err }

// activeSettings names the settings of ps that choose what is served.
func activeSettings(ps []Policy) []Setting {
	var tools, exclude, readOnly bool
	for _, p := range ps {
		tools = tools || len(p.Tools) > 0
		exclude = exclude || len(p.ExcludeTools) > 0
		readOnly = readOnly || p.ReadOnly
	}
	var out []Setting
	for _, a := range []struct {
		on bool
		s  Setting
	}{{tools, SettingTools}, {exclude, SettingExcludeTools}, {readOnly, SettingReadOnly}} {
		if a.on {
			out = append(out, a.s)
		}
	}
	return out
}

// ErrNothingServed is the error of a policy that leaves no tool to serve.
var ErrNothingServed = errors.New("the policy leaves no tool to serve")

// View returns the served view of the tools that every policy of ps
// leaves, listed in the shape l asks for. A tool is served when each
// policy selects it: its Tools select it (all when empty) and its
// ExcludeTools do not; with ReadOnly in any policy, only the commands
// annotated mcp.readOnlyHint are left. The pins of every policy apply: a
// pinned flag leaves every listed schema, a call that sets it is refused,
// and every call's argv carries it as written. No policy at all serves
// every tool. The view shares the receiver's limits (MaxParallel) and its
// calls in flight (Wait).
//
// Each pin is checked here, once, by its flag's own parser (the Set of a
// fresh value of the flag's type) and against the flag's schema; calls
// never read it again.
//
// It fails with a *PolicyError when a pattern matches no tool of the
// tree, when nothing is left, when a pin names a flag that no tool left
// takes or a value its flag refuses, or when one flag is pinned to two
// different values.
func (ts *Toolset) View(l Listing, ps ...Policy) (*Served, error) {
	mode := l.Mode
	if mode == "" {
		mode = ToolModeFull
	}
	switch mode {
	case ToolModeFull, ToolModeSearch, ToolModeAuto:
	default:
		return nil, &PolicyError{Setting: SettingMode, Err: fmt.Errorf("tool mode %q: want full, search or auto", mode)}
	}
	tools := ts.tools
	readOnly := false
	var pins []Pin
	for _, p := range ps {
		sel, err := ts.selectTools(p.Tools)
		if err != nil {
			return nil, &PolicyError{Setting: SettingTools, Err: err}
		}
		var excluded []*Tool
		if len(p.ExcludeTools) > 0 {
			if excluded, err = ts.selectTools(p.ExcludeTools); err != nil {
				return nil, &PolicyError{Setting: SettingExcludeTools, Err: err}
			}
		}
		tools = slices.DeleteFunc(slices.Clone(tools), func(t *Tool) bool {
			return !slices.Contains(sel, t) || slices.Contains(excluded, t)
		})
		readOnly = readOnly || p.ReadOnly
		pins = append(pins, p.Pins...)
	}
	if readOnly {
		tools = slices.DeleteFunc(slices.Clone(tools), func(t *Tool) bool { return !t.readOnly() })
	}
	if len(tools) == 0 {
		return nil, &PolicyError{Err: ErrNothingServed, Active: activeSettings(ps)}
	}
	pins, err := distinctPins(pins)
	if err != nil {
		return nil, &PolicyError{Setting: SettingPins, Err: err}
	}

	s := &Served{
		ts:       ts,
		policies: slices.Clone(ps),
		tools:    tools,
		byName:   make(map[string]*Tool, len(tools)),
		shared:   sharedUnless(ts.shared, l.Expanded),
		pins:     map[string]*toolPins{},
		pinFrom:  map[string]string{},
		redacted: map[string]string{},
		claims:   &claimTexts{},
	}
	for _, t := range tools {
		s.byName[t.Name] = t
	}
	if err := s.applyPins(pins); err != nil {
		return nil, &PolicyError{Setting: SettingPins, Err: err}
	}
	full := newFullListing(make([]*mcp.Tool, len(tools)))
	for i, t := range tools {
		full.defs[i] = s.listedTool(t, l.Expanded)
	}
	s.list = full
	if mode == ToolModeSearch || mode == ToolModeAuto && (len(tools) > toolmeta.AutoSearchTools || full.bytes() > toolmeta.AutoSearchBytes) {
		s.list = newSearchMode(s)
	}
	return s, nil
}

// distinctPins returns pins with each flag once: a flag pinned twice to
// the same value is pinned once (where it was first), to two different
// values an error naming both places (not the values: a pin may hold a
// secret).
func distinctPins(pins []Pin) ([]Pin, error) {
	var out []Pin
	at := map[string]int{}
	for _, pin := range pins {
		i, dup := at[pin.Flag]
		if !dup {
			at[pin.Flag] = len(out)
			out = append(out, pin)
			continue
		}
		if out[i].Value != pin.Value || out[i].Claim != pin.Claim {
			return nil, fmt.Errorf("flag --%s is pinned twice, to different values (%s and %s)", pin.Flag, out[i].From, pin.From)
		}
	}
	return out, nil
}

// applyPins checks each pin for each served tool that takes its flag, and
// records, per such tool, the flags fixed, its command line writing them,
// and the schema its calls are checked against.
func (s *Served) applyPins(pins []Pin) error {
	fixed := map[string]map[string][]string{} // per tool, the texts by flag name (nil: a claim's)
	claims := map[string]map[string]Pin{}     // per tool, the claim pins by flag name
	for _, pin := range pins {
		s.pinFrom[pin.Flag] = pin.From
		takers := 0
		for _, t := range s.tools {
			f := t.Flags.Lookup(pin.Flag)
			if f == nil {
				continue
			}
			takers++
			var texts []string
			if pin.Claim != "" {
				if t.flagSchemaOf(pin.Flag) == nil {
					return fmt.Errorf("flag --%s (pinned %s): tool %s has no schema for it", pin.Flag, pin.From, t.Name)
				}
				if claims[t.Name] == nil {
					claims[t.Name] = map[string]Pin{}
				}
				claims[t.Name][pin.Flag] = pin
			} else {
				var err error
				if texts, err = pinTexts(t, f, pin); err != nil {
					return err
				}
			}
			if fixed[t.Name] == nil {
				fixed[t.Name] = map[string][]string{}
			}
			fixed[t.Name][pin.Flag] = texts
		}
		if takers == 0 {
			return fmt.Errorf("flag --%s (pinned %s): no served tool takes a flag of that name", pin.Flag, pin.From)
		}
	}
	// Two pins in one mutually exclusive group would refuse every call
	// of the tool.
	for _, t := range s.tools {
		for _, g := range flagGroups(t.Flags, annMutuallyExclusive) {
			var on []string
			for _, n := range g {
				if _, ok := fixed[t.Name][n]; ok {
					on = append(on, fmt.Sprintf("--%s (pinned %s)", n, s.pinFrom[n]))
				}
			}
			if len(on) > 1 {
				return fmt.Errorf("flags %s and %s cannot be used together: tool %s takes at most one of %s",
					strings.Join(on[:len(on)-1], ", "), on[len(on)-1], t.Name, flagList(g))
			}
		}
	}
	for name, texts := range fixed {
		t := s.byName[name]
		tp := &toolPins{names: slices.Sorted(maps.Keys(texts)), line: t.line, claims: claims[name]}
		// A claim's flag is written at each call (Served.claimPins).
		tp.line.Fixed = maps.Clone(texts)
		for flag := range claims[name] {
			delete(tp.line.Fixed, flag)
		}
		tp.check = newValidator(withoutFlags(t.expanded, tp.names).InputSchema.(*jsonschema.Schema))
		s.pins[name] = tp
		for flag, list := range texts {
			written := t.Flags.Lookup(flag).Name
			if _, traversed := t.line.Traversed[flag]; traversed {
				if real, ok := t.line.FlagNames[flag]; ok {
					written = real
				}
			}
			for _, text := range list {
				s.redacted["--"+written+"="+text] = "--" + written + "=***"
			}
		}
	}
	return nil
}

// listedTool is t's definition as this toolset lists it in full mode:
// compact or expanded, without the flags a pin fixes.
func (s *Served) listedTool(t *Tool, expanded bool) *mcp.Tool {
	def := t.compact
	if expanded {
		def = t.expanded
	}
	pinned := s.pinned(t)
	listed := withoutFlags(def, pinned)
	if !expanded && slices.ContainsFunc(pinned, func(n string) bool { _, ok := t.unlisted[n]; return ok }) {
		// The shared flags the "flags" object names, less the pinned.
		listed = withFlagsDescription(listed, sharedFlagsNote(t.unlisted, func(n string) bool { return slices.Contains(pinned, n) }))
	}
	if text := groupText(t.Flags, pinned); !slices.Equal(text, t.groupText) {
		// The flag groups' sentences, for what a call can still set.
		cp := *listed
		if expanded {
			cp.Description = description(t.Command, text)
		} else {
			cp.Description = compactDescription(t.Command, text)
		}
		listed = &cp
	}
	return listed
}

// withFlagsDescription returns a copy of t whose "flags" object has the
// description d; t itself when it has no "flags" object.
func withFlagsDescription(t *mcp.Tool, d string) *mcp.Tool {
	in, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok || in.Properties["flags"] == nil {
		return t
	}
	top := *in
	top.Properties = maps.Clone(in.Properties)
	flags := *in.Properties["flags"]
	flags.Description = d
	top.Properties["flags"] = &flags
	cp := *t
	cp.InputSchema = &top
	return &cp
}

// readOnly reports whether the tool's command is annotated
// mcp.readOnlyHint "true", which --read-only requires.
func (t *Tool) readOnly() bool {
	return t.expanded.Annotations != nil && t.expanded.Annotations.ReadOnlyHint
}

// unknownTool is the error of a call of a tool that this toolset does not
// serve. With policyHint, a tool of the tree that the policy leaves out is
// named as such.
func (s *Served) unknownTool(name string, policyHint bool) error {
	if policyHint && len(name) <= s.ts.longestName && s.ts.byName[name] != nil {
		return &LeftOutError{Tool: name, Policies: slices.Clone(s.policies)}
	}
	if c := s.closeName(name); c != "" {
		return fmt.Errorf("unknown tool %s; did you mean %q?", quoteName(name), c)
	}
	return fmt.Errorf("unknown tool %s", quoteName(name))
}

// maxNameQuoted is the most bytes of an unknown tool's name that its error
// quotes: a name of megabytes is answered in a short message.
const maxNameQuoted = 128

// quoteName is name quoted, at most maxNameQuoted bytes of it, the rest
// counted.
func quoteName(name string) string {
	if len(name) <= maxNameQuoted {
		return strconv.Quote(name)
	}
	cut := maxNameQuoted
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", name[:cut], len(name))
}

// A LeftOutError is the error of Call for a tool of the tree that the
// view's policies leave out. Over MCP such a tool is unknown like any
// other.
type LeftOutError struct {
	Tool     string
	Policies []Policy // the policies of the view
}

func (e *LeftOutError) Error() string {
	return fmt.Sprintf("tool %q is not served: the server's policy leaves it out", e.Tool)
}

// typoDistance is the most edits that closeName takes for a typo in a name
// of n bytes.
func typoDistance(n int) int { return n / 4 }

// closeName returns the one served tool that name most likely means: the
// name without the CLI's prefix (get_pods for mycli_get_pods), or spelled
// with '_' for '-' as the dialects rename it (mycli_show_helpers); "" when
// no tool, or more than one, fits.
//
// Only a name that could be within typoDistance of a tool is compared:
// one longer than the longest tool name by more than the edits allowed is
// none's typo, so a name of megabytes costs no more than a short one.
func (s *Served) closeName(name string) string {
	longest := 0
	for _, t := range s.list.tools() {
		longest = max(longest, len(t.Name))
	}
	if len(name)-longest > typoDistance(len(name)) {
		return ""
	}
	var found []string
	for _, t := range s.list.tools() {
		if n := t.Name; normName(n) == normName(name) || strings.HasSuffix(normName(n), "_"+normName(name)) {
			found = append(found, n)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	if len(found) > 1 {
		return ""
	}
	// A typo: the one name within a small edit distance, closer than any
	// other.
	best, bestD, ties := "", typoDistance(len(name))+1, 0
	for _, t := range s.list.tools() {
		switch d := editDistance(normName(t.Name), normName(name)); {
		case d < bestD:
			best, bestD, ties = t.Name, d, 0
		case d == bestD && best != "":
			ties++
		}
	}
	if ties > 0 {
		return ""
	}
	return best
}

// normName is a tool name as closeName compares it: ASCII letters in lower
// case, '-' as '_' (tool names are ASCII; the length is kept, which
// closeName's bound needs).
func normName(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '-':
			b[i] = '_'
		}
	}
	return string(b)
}

func jsonDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("text after the value")
	}
	return nil
}

// withoutFlags returns t, or a copy of it whose input schema lacks the
// named flags (pinned ones), with required and the flag groups updated
// (see pinnedGroups).
func withoutFlags(t *mcp.Tool, names []string) *mcp.Tool {
	if len(names) == 0 {
		return t
	}
	in, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok || in.Properties["flags"] == nil {
		return t
	}
	cp := *t
	top := *in
	top.Properties = maps.Clone(in.Properties)
	flags := *pinnedGroups(in.Properties["flags"], names)
	flags.Properties = maps.Clone(flags.Properties)
	for _, n := range names {
		delete(flags.Properties, n)
	}
	flags.Required = slices.DeleteFunc(slices.Clone(flags.Required), func(r string) bool { return slices.Contains(names, r) })
	flags.PropertyOrder = slices.DeleteFunc(slices.Clone(flags.PropertyOrder), func(r string) bool { return slices.Contains(names, r) })
	if len(flags.Required) == 0 {
		flags.Required = nil
		top.Required = slices.DeleteFunc(slices.Clone(top.Required), func(r string) bool { return r == "flags" })
		if len(top.Required) == 0 {
			top.Required = nil
		}
	} else if !slices.Contains(top.Required, "flags") {
		// A pin made a flag required (required together with it).
		top.Required = append(slices.Clone(top.Required), "flags")
	}
	if len(flags.Properties) == 0 && flags.AdditionalProperties != nil {
		// No flag left to set (an open "flags" object of the compact
		// listing still takes the shared flags).
		delete(top.Properties, "flags")
		top.PropertyOrder = slices.DeleteFunc(slices.Clone(top.PropertyOrder), func(r string) bool { return r == "flags" })
	} else {
		top.Properties["flags"] = &flags
	}
	cp.InputSchema = &top
	return &cp
}
