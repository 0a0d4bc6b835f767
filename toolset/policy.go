package toolset

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Policy is what the person who starts a server allows it to serve,
// whatever the CLI's author allowed (Config). View applies it to the
// listing and to every call. Each of its settings is named by a Setting in
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

// IsZero reports whether p leaves every tool as it is.
func (p Policy) IsZero() bool {
	return len(p.Tools) == 0 && len(p.ExcludeTools) == 0 && !p.ReadOnly && len(p.Pins) == 0
}

// Pin is one flag fixed for every call.
type Pin struct {
	Flag  string // the flag's long name
	Value string // its value as it would be written on the command line
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
}

func (e *PolicyError) Error() string {
	if e.Setting == "" {
		return e.Err.Error()
	}
	return string(e.Setting) + ": " + e.Err.Error()
}

func (e *PolicyError) Unwrap() error { return e.Err }

// ErrNothingServed is the error of a policy that leaves no tool to serve.
var ErrNothingServed = errors.New("the policy leaves no tool to serve")

// View returns the toolset that the policy p leaves, listed in the shape
// l asks for: the tools that p.Tools selects (all when empty), minus
// those p.ExcludeTools matches, minus, with p.ReadOnly, those not annotated
// mcp.readOnlyHint. Its List, Lookup, Tools, Call and NewServer know only
// those tools, with p.Pins applied: a pinned flag leaves every listed
// schema, a call that sets it is refused, and its value joins every call's
// flags before the same validation and argv as any other flag. The result
// shares the receiver's limits (MaxParallel) and Wait.
//
// It fails with a *PolicyError when a pattern matches no tool of the tree,
// when nothing is left, when a pin names a flag that no tool left takes or
// a value its flag refuses, or when the receiver is itself a view.
func (ts *Toolset) View(p Policy, l Listing) (*Toolset, error) {
	if ts.viewed {
		return nil, errors.New("toolset: View of a view: apply one policy to the toolset New returned")
	}
	mode := l.Mode
	if mode == "" {
		mode = ToolModeFull
	}
	if _, err := ParseToolMode(string(mode)); err != nil {
		return nil, &PolicyError{Setting: SettingMode, Err: err}
	}
	tools, err := ts.selectTools(p.Tools)
	if err != nil {
		return nil, &PolicyError{Setting: SettingTools, Err: err}
	}
	if len(p.ExcludeTools) > 0 {
		excluded, err := ts.selectTools(p.ExcludeTools)
		if err != nil {
			return nil, &PolicyError{Setting: SettingExcludeTools, Err: err}
		}
		tools = slices.DeleteFunc(slices.Clone(tools), func(t *Tool) bool { return slices.Contains(excluded, t) })
	}
	if p.ReadOnly {
		tools = slices.DeleteFunc(slices.Clone(tools), func(t *Tool) bool { return !t.ReadOnly() })
	}
	if len(tools) == 0 {
		return nil, &PolicyError{Err: ErrNothingServed}
	}

	out := &Toolset{
		cfg:        ts.cfg,
		root:       ts.root,
		tools:      tools,
		byName:     make(map[string]*Tool, len(tools)),
		all:        ts.all,
		problems:   ts.problems,
		shared:     sharedUnless(ts.shared, l.Expanded),
		slots:      ts.slots,
		running:    ts.running,
		executable: ts.executable,
		viewed:     true,
		policy:     p,
		pins:       map[string]map[string]json.RawMessage{},
		pinFrom:    map[string]string{},
	}
	for _, t := range tools {
		out.byName[t.MCP.Name] = t
	}
	if err := out.applyPins(p.Pins); err != nil {
		return nil, &PolicyError{Setting: SettingPins, Err: err}
	}
	full := newFullListing(make([]*mcp.Tool, len(tools)))
	for i, t := range tools {
		full.defs[i] = out.listedTool(t, l.Expanded)
	}
	out.list = full
	if mode == ToolModeSearch || mode == ToolModeAuto && (len(tools) > AutoSearchTools || full.bytes() > AutoSearchBytes) {
		out.list = newSearchMode(out)
	}
	return out, nil
}

// applyPins records the pins in ts: each pinned value as its flag's JSON,
// per tool that takes the flag.
func (ts *Toolset) applyPins(pins []Pin) error {
	for _, pin := range pins {
		ts.pinFrom[pin.Flag] = pin.From
		takers := 0
		for _, t := range ts.tools {
			if t.Flags.Lookup(pin.Flag) == nil {
				continue
			}
			takers++
			val, err := pinJSON(t, pin)
			if err != nil {
				return err
			}
			if ts.pins[t.MCP.Name] == nil {
				ts.pins[t.MCP.Name] = map[string]json.RawMessage{}
			}
			ts.pins[t.MCP.Name][pin.Flag] = val
		}
		if takers == 0 {
			return fmt.Errorf("flag --%s (pinned %s): no served tool takes a flag of that name", pin.Flag, pin.From)
		}
	}
	// Two pins in one mutually exclusive group would refuse every call
	// of the tool.
	for _, t := range ts.tools {
		for _, g := range flagGroups(t.Flags, annMutuallyExclusive) {
			var on []string
			for _, n := range g {
				if _, ok := ts.pins[t.MCP.Name][n]; ok {
					on = append(on, fmt.Sprintf("--%s (pinned %s)", n, ts.pinFrom[n]))
				}
			}
			if len(on) > 1 {
				return fmt.Errorf("flags %s and %s cannot be used together: tool %s takes at most one of %s",
					strings.Join(on[:len(on)-1], ", "), on[len(on)-1], t.MCP.Name, flagList(g))
			}
		}
	}
	return nil
}

// listedTool is t's definition as this toolset lists it in full mode:
// compact or expanded, without the flags a pin fixes.
func (ts *Toolset) listedTool(t *Tool, expanded bool) *mcp.Tool {
	def := t.MCP
	if expanded {
		def = t.expanded
	}
	pinned := slices.Sorted(maps.Keys(ts.pins[t.MCP.Name]))
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

// ReadOnly reports whether the tool's command is annotated
// mcp.readOnlyHint "true", which --read-only requires.
func (t *Tool) ReadOnly() bool {
	return t.MCP.Annotations != nil && t.MCP.Annotations.ReadOnlyHint
}

// unknownTool is the error of a call of a tool that this toolset does not
// serve. With policyHint, a tool of the tree that the policy leaves out is
// named as such.
func (ts *Toolset) unknownTool(name string, policyHint bool) error {
	if policyHint && ts.viewed && ts.all[name] != nil {
		return &LeftOutError{Tool: name, Policy: ts.policy}
	}
	if s := ts.closeName(name); s != "" {
		return fmt.Errorf("unknown tool %q; did you mean %q?", name, s)
	}
	return fmt.Errorf("unknown tool %q", name)
}

// A LeftOutError is the error of Call for a tool of the tree that the
// view's policy leaves out. Over MCP such a tool is unknown like any other.
type LeftOutError struct {
	Tool   string
	Policy Policy
}

func (e *LeftOutError) Error() string {
	return fmt.Sprintf("tool %q is not served: the server's policy leaves it out", e.Tool)
}

// closeName returns the one served tool that name most likely means: the
// name without the CLI's prefix (get_pods for mycli_get_pods), or spelled
// with '_' for '-' as the dialects rename it (mycli_show_helpers); "" when
// no tool, or more than one, fits.
func (ts *Toolset) closeName(name string) string {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", "_")) }
	var found []string
	for _, t := range ts.Tools() {
		if n := t.Name; norm(n) == norm(name) || strings.HasSuffix(norm(n), "_"+norm(name)) {
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
	best, bestD, ties := "", len(name)/4+1, 0
	for _, t := range ts.Tools() {
		switch d := editDistance(norm(t.Name), norm(name)); {
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

// pinJSON converts pin's value, as written on a command line, to the JSON
// value of t's flag, and checks it against the flag's schema.
func pinJSON(t *Tool, pin Pin) (json.RawMessage, error) {
	var prop *jsonschema.Schema
	if flags := t.inputSchema().Properties["flags"]; flags != nil {
		prop = flags.Properties[pin.Flag]
	}
	if prop == nil {
		return nil, fmt.Errorf("flag --%s (pinned %s): tool %s has no schema for it", pin.Flag, pin.From, t.MCP.Name)
	}
	val, err := flagValue(prop, pin.Value)
	if err != nil {
		return nil, fmt.Errorf("flag --%s=%s (pinned %s): %v", pin.Flag, pin.Value, pin.From, err)
	}
	r, err := prop.CloneSchemas().Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("flag --%s: its schema does not resolve: %w", pin.Flag, err)
	}
	doc, err := roundTrip(val) // plain JSON numbers, as the call path validates
	if err != nil {
		return nil, fmt.Errorf("flag --%s=%s (pinned %s): %v", pin.Flag, pin.Value, pin.From, err)
	}
	if err := r.Validate(doc); err != nil {
		return nil, fmt.Errorf("flag --%s=%s (pinned %s): %s", pin.Flag, pin.Value, pin.From, schemaProblem(err, prop, "", doc))
	}
	return json.Marshal(val)
}

// flagValue reads s, a flag's value as written on a command line, as the
// JSON value the flag's schema s describes: a string as it is, a boolean
// or a number parsed, an array as JSON ('["a","b"]') or comma-separated
// (a,b), an object as JSON or k=v,k2=v2.
func flagValue(prop *jsonschema.Schema, s string) (any, error) {
	types := prop.Types
	if prop.Type != "" {
		types = []string{prop.Type}
	}
	has := func(t string) bool { return slices.Contains(types, t) }
	trimmed := strings.TrimSpace(s)
	switch {
	case has("string") || len(types) == 0 && len(prop.Enum) > 0:
		return s, nil
	case has("boolean"):
		b, err := strconv.ParseBool(trimmed)
		if err != nil {
			return nil, errors.New("want true or false")
		}
		return b, nil
	case has("integer") || has("number"):
		var n any
		if err := jsonDecode([]byte(trimmed), &n); err != nil {
			return nil, errors.New("want a number")
		}
		if _, ok := n.(json.Number); !ok {
			return nil, errors.New("want a number")
		}
		return n, nil
	case has("array"):
		var a []any
		if strings.HasPrefix(trimmed, "[") && jsonDecode([]byte(trimmed), &a) == nil {
			return a, nil
		}
		items, err := csv.NewReader(strings.NewReader(s)).Read()
		if err != nil {
			return nil, fmt.Errorf("want a JSON array or comma-separated values: %v", err)
		}
		out := make([]any, len(items))
		for i, it := range items {
			if prop.Items != nil {
				if out[i], err = flagValue(prop.Items, it); err != nil {
					return nil, fmt.Errorf("item %d: %v", i, err)
				}
			} else {
				out[i] = it
			}
		}
		return out, nil
	case has("object"):
		var m map[string]any
		if strings.HasPrefix(trimmed, "{") && jsonDecode([]byte(trimmed), &m) == nil {
			return m, nil
		}
		out := map[string]any{}
		for _, kv := range strings.Split(s, ",") {
			k, val, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("want a JSON object or key=value pairs separated by commas, not %q", kv)
			}
			var v any = val
			if prop.AdditionalProperties != nil && prop.AdditionalProperties.Type != "" && prop.AdditionalProperties.Type != "string" {
				var err error
				if v, err = flagValue(prop.AdditionalProperties, val); err != nil {
					return nil, fmt.Errorf("key %q: %v", k, err)
				}
			}
			out[k] = v
		}
		return out, nil
	}
	var v any
	if err := json.Unmarshal([]byte(trimmed), &v); err == nil {
		return v, nil
	}
	return s, nil
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

// callServed runs a call of t, a tool this toolset serves, with its pins:
// a call that sets a pinned flag is refused; otherwise the pinned values
// join the call's flags and the call takes the path of every call.
func (ts *Toolset) callServed(ctx context.Context, t *Tool, arguments json.RawMessage, progress progressFunc) *mcp.CallToolResult {
	if pins := ts.pins[t.MCP.Name]; len(pins) > 0 {
		merged, err := ts.withPins(arguments, pins)
		if err != nil {
			return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", t.MCP.Name, err))
		}
		if merged != nil {
			arguments = merged
		}
	}
	return ts.call(ctx, t, arguments, progress)
}

// withPins returns arguments with pins set in its flags, or nil when
// arguments is not an object with an object (or no) "flags", which the
// call path then refuses with its own message.
func (ts *Toolset) withPins(arguments json.RawMessage, pins map[string]json.RawMessage) (json.RawMessage, error) {
	a := bytes.TrimSpace(arguments)
	if len(a) == 0 || bytes.Equal(a, []byte("null")) {
		a = []byte("{}")
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(a, &top) != nil || top == nil {
		return nil, nil
	}
	flags := map[string]json.RawMessage{}
	if raw, ok := top["flags"]; ok && !isNull(raw) {
		if json.Unmarshal(raw, &flags) != nil || flags == nil {
			return nil, nil
		}
	}
	var set []string
	for name := range pins {
		if _, ok := flags[name]; ok {
			set = append(set, name)
		}
	}
	if len(set) > 0 {
		slices.Sort(set)
		var b strings.Builder
		for i, n := range set {
			if i > 0 {
				b.WriteString("; ")
			}
			// The value is not said: a pin may hold a secret.
			fmt.Fprintf(&b, "flag --%s is pinned by whoever started this server (%s) and cannot be set by a call", n, ts.pinFrom[n])
		}
		return nil, errors.New(b.String())
	}
	maps.Copy(flags, pins)
	fb, err := json.Marshal(flags)
	if err != nil {
		return nil, err
	}
	top["flags"] = fb
	return json.Marshal(top)
}
