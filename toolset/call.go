package toolset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/internal/fairshare"
	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/internal/schemacheck"
)

// Output is the structured result of every call, matching the output schema.
type Output struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	// TimedOut is set when the call's timeout ended the command (ExitCode
	// is usually -1, the signal's; a command that exits on SIGTERM gives
	// its own); it is left out of the JSON otherwise.
	TimedOut bool `json:"timedOut,omitempty"`
}

// Call runs one call of the tool named name with the MCP arguments object
// arguments, through the same path as the server: validation, argv, limits,
// result. The error is non-nil only when no such tool exists; bad input and
// failed commands are results with IsError set. The names are those Tools
// lists: in search mode, the search, list, describe and run tools.
func (s *Served) Call(ctx context.Context, name string, arguments json.RawMessage) (*mcp.CallToolResult, error) {
	if err := s.checkName(name, true); err != nil {
		return nil, err
	}
	res, _ := s.list.call(ctx, s, name, arguments, callOptions{env: s.ts.cfg.Env})
	return res, nil
}

// callOptions are what a call takes from where it comes from rather than
// from the view: the server's (NewServer) or Call's.
type callOptions struct {
	env      []string     // the environment of the call's process (nil: inherit)
	progress progressFunc // reports the latest output line; nil: none
	// The call's share of the slots: its scheduler (nil: the zero
	// Limits'), its caller's key, and where it notes what happened for
	// the audit log (nil: nowhere).
	sched   *fairshare.Scheduler
	key     string
	trace   *trace
	confirm *confirmer // asks a person before the calls it names; nil: none
	request *mcp.CallToolRequest
	// claimed are the argv elements of the call's claim pins, each to its
	// redacted form (see Served.claimPins).
	claimed map[string]string
	// observer times the call's phases and carries its trace into the
	// process; nil: none.
	observer Observer
}

// checkName returns nil when name is a tool that Tools lists, or else the
// error that says so and names the tool most likely meant.
//
// policyHint says whether a tool the policy leaves out may be named as
// such: for the user running a call (mcp call, mcp tool), not for an MCP
// client, to which a left-out tool is unknown like any other (saying so
// would tell it what the policy hides, and the policy itself).
func (s *Served) checkName(name string, policyHint bool) error {
	for _, t := range s.list.tools() {
		if t.Name == name {
			return nil
		}
	}
	return s.list.unknown(s, name, policyHint)
}

// input is a call's decoded arguments.
type input struct {
	flags     map[string]any // JSON values decoded with UseNumber; nulls removed
	args      []string
	afterDash []string // the words after "--" (argsAfterDash)
}

// decodeInput checks arguments against t's input schema and decodes them;
// with pins (nil: none), a call that sets a pinned flag, even to null, is
// refused, and the pinned flags count as set. Its errors name the problem
// in words a model can act on.
func (t *Tool) decodeInput(arguments json.RawMessage, pins *toolPins, pinFrom map[string]string) (*input, error) {
	if len(bytes.TrimSpace(arguments)) == 0 || bytes.Equal(bytes.TrimSpace(arguments), []byte("null")) {
		arguments = []byte("{}")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(arguments, &top); err != nil {
		return nil, fmt.Errorf("arguments must be a JSON object with \"flags\" and \"args\": %v", err)
	}
	schema, check := t.inputSchema(), t.check
	var pinned []string
	if pins != nil {
		schema, check, pinned = pins.check.schema, pins.check, pins.names
		if err := refusePinned(top["flags"], pinned, pinFrom); err != nil {
			return nil, err
		}
	}
	in := &input{flags: map[string]any{}}
	for k := range top {
		if k != "flags" && k != "args" && k != "argsAfterDash" {
			return nil, fmt.Errorf("unknown argument %q: the arguments are {\"flags\": {...}, \"args\": [...]}", k)
		}
	}
	if raw, ok := top["flags"]; ok && !isNull(raw) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var flags map[string]any
		if err := dec.Decode(&flags); err != nil {
			return nil, fmt.Errorf("\"flags\" must be an object mapping flag names to values: %v", err)
		}
		var unknown []string
		for k, v := range flags {
			if t.Flags.Lookup(k) == nil {
				unknown = append(unknown, k)
				continue
			}
			if v != nil { // null: the flag is not set (OpenAI strict mode sends it)
				v = dropNullMembers(v)
				var err error
				if v, err = restatePairs(k, t.flagSchemaOf(t.Flags.Lookup(k).Name), v); err != nil {
					return nil, err
				}
				if emptyMapFlag(t.Flags.Lookup(k), v) {
					continue // {} for a map flag: not set
				}
				in.flags[k] = v
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return nil, fmt.Errorf("unknown flag %s; this tool's flags are: %s", quoteList(unknown), t.flagNames())
		}
	}
	var err error
	if in.args, err = t.decodeStrings(top, "args", "this command takes no positional args; pass options in \"flags\""); err != nil {
		return nil, err
	}
	if in.afterDash, err = t.decodeStrings(top, "argsAfterDash", "this command takes no argsAfterDash: its usage shows no \"--\""); err != nil {
		return nil, err
	}
	if _, has := schema.Properties["argsAfterDash"]; has {
		if err := t.arity.check(t.argsCount(in), t.dashCounted(in)); err != nil {
			return nil, err
		}
	}

	if err := t.checkGroups(in.flags, pinned); err != nil {
		return nil, err
	}

	// Validate what is left against the schema, with plain JSON numbers.
	doc := map[string]any{}
	if len(in.flags) > 0 {
		plain := make(map[string]any, len(in.flags))
		for k, v := range in.flags {
			p, err := roundTrip(v)
			if err != nil { // a number beyond float64, such as 1e400
				return nil, fmt.Errorf("flag --%s: %v", k, err)
			}
			plain[k] = p
		}
		doc["flags"] = plain
	} else if _, has := schema.Properties["flags"]; has {
		doc["flags"] = map[string]any{}
	}
	for name, list := range map[string][]string{"args": in.args, "argsAfterDash": in.afterDash} {
		if list != nil {
			a := make([]any, len(list))
			for i, s := range list {
				a[i] = s
			}
			doc[name] = a
		}
	}
	if _, has := schema.Properties["flags"]; has && len(in.flags) == 0 && !slices.Contains(schema.Required, "flags") {
		delete(doc, "flags")
	}
	v, quick, err := check.get()
	if err != nil {
		return nil, err
	}
	// The fast checker decides the common case; jsonschema-go decides the
	// rest and words every refusal (internal/schemacheck).
	if quick.Check(doc) == schemacheck.Valid {
		return in, nil
	}
	if err := v.Validate(doc); err != nil {
		return nil, fmt.Errorf("invalid arguments: %s", invalidArguments(schema, doc, err))
	}
	return in, nil
}

// refusePinned is the error of a call whose "flags" set pinned flags (to
// null too); nil when they set none, or when "flags" is not an object,
// which decodeInput then refuses with its own message.
func refusePinned(raw json.RawMessage, pinned []string, pinFrom map[string]string) error {
	if raw == nil || isNull(raw) {
		return nil
	}
	var flags map[string]json.RawMessage
	if json.Unmarshal(raw, &flags) != nil {
		return nil
	}
	var set []string
	for _, n := range pinned {
		if _, ok := flags[n]; ok {
			set = append(set, n)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return pinError(set, pinFrom)
}

// decodeStrings decodes the array of strings top[name], or returns nil
// when it is absent or null; absent is the error when the tool's input
// schema has no such property.
func (t *Tool) decodeStrings(top map[string]json.RawMessage, name, absent string) ([]string, error) {
	raw, ok := top[name]
	if !ok || isNull(raw) {
		return nil, nil
	}
	if _, has := t.inputSchema().Properties[name]; !has {
		if emptyArray(raw) { // "args": [] by habit: it asks for nothing
			return nil, nil
		}
		return nil, errors.New(absent)
	}
	// Through pointers: encoding/json turns a null element into "", an
	// argument the caller did not give.
	var list []*string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%q must be an array of strings: %v", name, err)
	}
	out := make([]string, len(list))
	for i, a := range list {
		if a == nil {
			return nil, fmt.Errorf("%q must be an array of strings: element %d is null", name, i)
		}
		out[i] = *a
	}
	return out, nil
}

// checkGroups checks cobra's flag groups with messages that name the
// flags, the pinned ones counting as set; the schema expresses the same
// rules, in words a model reads less easily.
func (t *Tool) checkGroups(flags map[string]any, pinned []string) error {
	set := func(g []string) (on []string) {
		for _, n := range g {
			if _, ok := flags[n]; ok || slices.Contains(pinned, n) {
				on = append(on, n)
			}
		}
		return on
	}
	for _, g := range flagGroups(t.Flags, annMutuallyExclusive) {
		if on := set(g); len(on) > 1 {
			return fmt.Errorf("flags %s cannot be used together (at most one of %s)", flagList(on), flagList(g))
		}
	}
	for _, g := range flagGroups(t.Flags, annRequiredTogether) {
		if on := set(g); len(on) > 0 && len(on) < len(g) {
			return fmt.Errorf("flags %s must be set together (%s set)", flagList(g), flagList(on))
		}
	}
	for _, g := range flagGroups(t.Flags, annOneRequired) {
		if len(set(g)) == 0 {
			return fmt.Errorf("at least one of the flags %s must be set", flagList(g))
		}
	}
	return nil
}

// dropNullMembers removes the object members whose value is null, at any
// depth: OpenAI strict mode makes every optional member nullable and sends
// null for the ones the model leaves out. Array elements are kept as they
// are.
func dropNullMembers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			if m == nil {
				delete(v, k)
			} else {
				v[k] = dropNullMembers(m)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = dropNullMembers(e)
		}
	}
	return v
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func roundTrip(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func (t *Tool) flagNames() string {
	var names []string
	t.Flags.VisitAll(func(f *pflagFlag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// argv is the call's argv, with the pinned flags' elements when pins is
// not nil.
func (t *Tool) argv(in *input, pins *toolPins) ([]string, error) {
	line := &t.line
	if pins != nil {
		line = &pins.line
	}
	return line.Argv(in.flags, in.args, in.afterDash)
}

// progressFunc reports the latest output line of a running call.
type progressFunc func(line string)

// call runs one call of t, a tool s serves, and never fails: every problem
// becomes a result with IsError set. A call that sets a pinned flag is
// refused; the pinned flags join its argv as written.
func (s *Served) call(ctx context.Context, t *Tool, arguments json.RawMessage, o callOptions) (res *mcp.CallToolResult) {
	ts := s.ts
	// The SDK does not recover a handler's panic (from a middleware, a
	// custom flag type): without this the process would end, and every
	// other client's calls with it.
	defer func() {
		if r := recover(); r != nil {
			ts.cfg.Logger.Error("tool call panicked", "tool", t.Name, "panic", r, "stack", string(debug.Stack()))
			res = errorResult(fmt.Sprintf("%s: the call panicked: %v", t.Name, r))
			o.trace.refuse(OutcomeFailed)
		}
	}()
	if o.trace != nil {
		o.trace.served = t.Name
	}
	pins := s.pins[t.Name]
	if pins != nil && len(pins.claims) > 0 {
		var who caller.Caller
		if o.request != nil {
			who = caller.FromRequest(o.request)
		}
		var err error
		if pins, o.claimed, err = s.claimPins(t, pins, who); err != nil {
			o.trace.refuse(OutcomeRefused)
			return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", t.Name, err))
		}
	}
	_, validated := o.phase(ctx, PhaseValidate)
	in, err := t.decodeInput(arguments, pins, s.pinFrom)
	if err != nil {
		validated()
		o.trace.refuse(OutcomeInvalid)
		return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", t.Name, err))
	}
	argv, err := t.argv(in, pins)
	validated()
	if err != nil {
		o.trace.refuse(OutcomeInvalid)
		return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", t.Name, err))
	}
	if o.confirm != nil && o.confirm.asks(t) {
		_, confirmed := o.phase(ctx, PhaseConfirm)
		r := o.confirm.confirm(o.request, t, argv, s.redactWith(argv, o.claimed))
		confirmed()
		if r != nil {
			if len(r.InputRequests) == 0 {
				o.trace.refuse(OutcomeNotConfirmed)
			}
			return r // the person's answer first: asked, declined, or no one to ask
		}
	}
	exe, err := ts.executable()
	if err != nil {
		o.trace.refuse(OutcomeFailed)
		return errorResult(fmt.Sprintf("%s: cannot find this program's executable: %v", t.Name, err))
	}
	opts := RunOptions{Env: o.env, MaxOutput: ts.cfg.MaxOutput}
	if t.Timeout > 0 {
		opts.Timeout = t.Timeout
	}
	if o.progress != nil {
		opts.OnLine = func(_, line string) { o.progress(line) }
	}
	c := &Call{Tool: t.Name, Command: t.Command, Flags: in.flags, Args: in.args, ArgsAfterDash: in.afterDash, Path: exe, Argv: argv, Options: opts}

	run := s.runner(o)
	for i := len(ts.cfg.Middleware) - 1; i >= 0; i-- {
		run = ts.cfg.Middleware[i](run)
	}
	out, err := run(ctx, c)
	if err != nil {
		o.trace.refuse(OutcomeRefused)
		return errorResult(fmt.Sprintf("%s: %v", t.Name, err))
	}
	if o.trace != nil && o.trace.outcome == "" {
		o.trace.outcome = outcomeOf(out) // a Middleware answered without a process
	}
	return result(out, t.Timeout)
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: msg}},
		IsError: true,
	}
}

// result turns a finished process into the call's result.
func result(r *Result, timeout time.Duration) *mcp.CallToolResult {
	out := Output{Stdout: r.Stdout, Stderr: r.Stderr, ExitCode: r.ExitCode, TimedOut: r.TimedOut}
	var why string
	switch {
	case r.TimedOut:
		why = fmt.Sprintf("cobramcp: the command timed out after %s and its process group was ended", timeout)
	case r.Canceled:
		why = "cobramcp: the call was canceled and the command's process group was ended"
	case r.Signal != "":
		why = "cobramcp: the command was ended by signal: " + r.Signal
	}
	if why != "" {
		if out.Stderr != "" && !strings.HasSuffix(out.Stderr, "\n") {
			out.Stderr += "\n"
		}
		out.Stderr += why + "\n"
	}
	isErr := out.ExitCode != 0 || why != ""
	res := &mcp.CallToolResult{StructuredContent: out, IsError: isErr}
	if mime := imageType(r.Stdout); mime != "" && r.StdoutOmitted == 0 && !isErr {
		// An image is sent as image content; the structured stdout keeps
		// the bytes for clients that read only structured content.
		res.Content = []mcp.Content{&mcp.ImageContent{Data: []byte(r.Stdout), MIMEType: mime}}
		if out.Stderr != "" {
			res.Content = append(res.Content, &mcp.TextContent{Text: out.Stderr})
		}
		return res
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: resultText(out, isErr, timeout)}}
	return res
}

// imageType returns the MIME type of an image in one of the formats MCP
// clients show (PNG, JPEG, GIF, WebP or SVG), judged by content, or "".
func imageType(s string) string {
	switch {
	case strings.HasPrefix(s, "\x89PNG\r\n\x1a\n"):
		return "image/png"
	case strings.HasPrefix(s, "\xff\xd8\xff"):
		return "image/jpeg"
	case strings.HasPrefix(s, "GIF87a"), strings.HasPrefix(s, "GIF89a"):
		return "image/gif"
	case len(s) >= 12 && s[:4] == "RIFF" && s[8:12] == "WEBP":
		return "image/webp"
	}
	head := strings.TrimSpace(s[:min(len(s), 1024)])
	head = strings.TrimPrefix(head, "\ufeff")
	if strings.HasPrefix(head, "<?xml") {
		if i := strings.Index(head, "?>"); i >= 0 {
			head = strings.TrimSpace(head[i+2:])
		}
	}
	for strings.HasPrefix(head, "<!--") {
		i := strings.Index(head, "-->")
		if i < 0 {
			return ""
		}
		head = strings.TrimSpace(head[i+3:])
	}
	if strings.HasPrefix(head, "<!DOCTYPE svg") || strings.HasPrefix(head, "<svg") {
		return "image/svg+xml"
	}
	return ""
}

// resultText is the text block for clients that do not read structured
// content: stdout, then stderr under a header, then the exit code when the
// call failed, said to be a timeout when it was one.
func resultText(o Output, isErr bool, timeout time.Duration) string {
	var b strings.Builder
	b.WriteString(o.Stdout)
	if o.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(o.Stdout, "\n") {
			b.WriteByte('\n')
		}
		if b.Len() > 0 {
			b.WriteString("--- stderr ---\n")
		}
		b.WriteString(o.Stderr)
	}
	if isErr {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		if o.TimedOut {
			fmt.Fprintf(&b, "timed out after %s (exit code %d)", timeout, o.ExitCode)
		} else {
			fmt.Fprintf(&b, "exit code: %d", o.ExitCode)
		}
	}
	return b.String()
}

// progressSender sends the latest output line as a progress notification,
// at most every interval, until stop is called.
type progressSender struct {
	mu     sync.Mutex
	latest string
	count  int
	wake   chan struct{}
	done   chan struct{}
	wg     sync.WaitGroup
}

const progressInterval = 250 * time.Millisecond

func startProgress(ctx context.Context, req *mcp.CallToolRequest) (progressFunc, func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil, func() {}
	}
	p := &progressSender{wake: make(chan struct{}, 1), done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		sent := 0
		for {
			select {
			case <-p.done:
				return
			case <-ctx.Done():
				return
			case <-p.wake:
			}
			p.mu.Lock()
			line, n := p.latest, p.count
			p.mu.Unlock()
			if n == sent {
				continue
			}
			sent = n
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(n),
				Message:       line,
			})
			select {
			case <-time.After(progressInterval):
			case <-p.done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	report := func(line string) {
		p.mu.Lock()
		p.latest = line
		p.count++
		p.mu.Unlock()
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
	return report, func() { close(p.done); p.wg.Wait() }
}

// inFlight counts the calls running; Wait waits for none. Unlike a
// sync.WaitGroup it may be waited on while calls begin (a request that
// arrives while a server shuts down).
type inFlight struct {
	mu   sync.Mutex
	n    int
	none *sync.Cond
}

func newInFlight() *inFlight {
	f := &inFlight{}
	f.none = sync.NewCond(&f.mu)
	return f
}

func (f *inFlight) begin() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inFlight) end() {
	f.mu.Lock()
	f.n--
	if f.n == 0 {
		f.none.Broadcast()
	}
	f.mu.Unlock()
}

// wait blocks until no call is running.
func (f *inFlight) wait() {
	f.mu.Lock()
	for f.n > 0 {
		f.none.Wait()
	}
	f.mu.Unlock()
}

// emptyArray reports whether raw is the JSON array [].
func emptyArray(raw json.RawMessage) bool {
	var list []json.RawMessage
	return json.Unmarshal(raw, &list) == nil && list != nil && len(list) == 0
}

// emptyMapFlag reports whether v, given for the flag f, is an empty
// object for one of pflag's map types, which no command line can set to
// no entries: {} means the flag is not set, as null does.
func emptyMapFlag(f *pflag.Flag, v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0 && flagschema.KindOf(f).IsMap()
}
