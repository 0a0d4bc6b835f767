package external

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/spf13/cobra"
)

// Defaults of Options.
const (
	DefaultProbeTimeout = 5 * time.Second
	DefaultMaxDepth     = 8
)

// probeFlag is a flag name no CLI defines, used to tell whether a command
// parses flags during completion.
const probeFlag = "--cobramcp-no-such-flag=1"

// helpProbe gives cobra's --help a value that is no boolean: a command
// that parses its flags refuses it, even one that lets unknown flags
// through (cobra's FParseErrWhitelist, kubebuilder's root), which takes
// probeFlag.
const helpProbe = "--help=cobramcp-probe"

// probeValue is the value given to a flag to learn its type from the
// parser's answer.
const probeValue = "cobramcp-probe"

// ErrNotCobra is wrapped by the error of Reflect when the binary does not
// answer cobra's completion command.
var ErrNotCobra = errors.New("not a Cobra CLI")

// discoverer walks one binary.
type discoverer struct {
	bin         string
	name        string // the root's name
	opts        *Options
	slots       chan struct{}
	env         []string
	newComp     bool // completion parses flags (cobra 1.2+): probes work
	versionFlag bool // the root has cobra's --version flag
	helpCmp     bool // `__complete help PATH ""` lists sub-commands (cobra 1.4+)
	build       *BuildInfo
	// listsHelp: flag-name completion lists --help when it lists every
	// flag (cobra 1.4+; before, it never does); helpKnown says that the
	// build info told which.
	listsHelp, helpKnown bool

	quotes    atomic.Bool  // a help page quotes the defaults of strings (kubectl's style)
	processes atomic.Int64 // processes started, for the log and Options.MaxProcesses
	found     atomic.Int64 // commands found, for Options.MaxCommands
	read      atomic.Int64 // commands read, for the progress lines
	timeouts  atomic.Int64 // processes that did not finish in time, tried again
	// rootHelp is the root's help, read to learn the root's name, kept
	// for the root's reading.
	rootHelp *string
	// rootPage is the root's help too, kept whole for the matching probe.
	rootPage string
	// ownHelp: the root's help command is the CLI's own, not cobra's.
	ownHelp bool
	// helpEaten: `BIN help PATH` failed where `BIN PATH --help` showed
	// the help: the CLI's main turns a first word it does not know
	// (cobra's help command is added only when it executes) into its
	// default command's (yq's eval). Commands' helps are read with
	// --help from then on, and nothing else is asked through cobra's
	// help command but completion.
	helpEaten atomic.Bool
	// ownHelpFlag: the root's --help flag is the CLI's own (gh's), which
	// cobra does not watch once set (helpUnset); helpItems are its lines
	// in the root's flag listing.
	ownHelpFlag atomic.Bool
	helpItems   []helpItem
	// rootProbe is the root's answer to probeFlag (`BIN __complete
	// --cobramcp-no-such-flag=1 -`), which tells both that completion
	// parses flags and whether the root does.
	rootProbe *completion
	// cancel ends the reflection with its cause (a *LimitError).
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	notes   []string
	unread  []string // commands whose help could not be read, which the overlay excludes
	words   []inheritedLine
	partial bool // a process did not answer in time: see Spec.Partial
}

func newDiscoverer(bin, name string, o *Options, parallel int) *discoverer {
	return &discoverer{bin: bin, name: name, opts: o, slots: make(chan struct{}, parallel), env: discoveryEnv(o.Env, name), cancel: func(error) {}}
}

func (d *discoverer) note(format string, a ...any) {
	d.mu.Lock()
	d.notes = append(d.notes, fmt.Sprintf(format, a...))
	d.mu.Unlock()
}

// errTimedOut is wrapped by the error of a process that did not finish in
// time, tried again.
var errTimedOut = errors.New("timed out")

// run runs the binary with args within the limits: stdin closed, a short
// timeout, its process group ended when it is over. A process that does
// not finish within the probe timeout is tried once more, with twice the
// time, before the error (wrapping errTimedOut).
func (d *discoverer) run(ctx context.Context, args ...string) (*exec.Result, error) {
	// The slot is kept for the second try: a command that hangs is known
	// as such before the processes queued behind it start.
	if err := d.acquire(ctx); err != nil {
		return nil, err
	}
	defer d.release()
	res, err := d.runHeld(ctx, d.opts.ProbeTimeout, args)
	if err != nil || !res.TimedOut {
		return res, err
	}
	d.opts.Logger.Info("trying again with more time", "command", d.name+" "+strings.Join(args, " "), "timeout", 2*d.opts.ProbeTimeout)
	if res, err = d.runHeld(ctx, 2*d.opts.ProbeTimeout, args); err != nil || !res.TimedOut {
		return res, err
	}
	err = fmt.Errorf("`%s %s` did not finish within %v, nor within %v when tried again (ended, with its process group): %w",
		d.name, strings.Join(args, " "), d.opts.ProbeTimeout, 2*d.opts.ProbeTimeout, errTimedOut)
	d.countTimeout(err)
	return nil, err
}

// runWithin runs the binary once, within timeout; a result that timed out
// is no error.
func (d *discoverer) runWithin(ctx context.Context, timeout time.Duration, args []string) (*exec.Result, error) {
	if err := d.acquire(ctx); err != nil {
		return nil, err
	}
	defer d.release()
	return d.runHeld(ctx, timeout, args)
}

// acquire takes one of the slots that bound the processes running at once.
func (d *discoverer) acquire(ctx context.Context) error {
	select {
	case d.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *discoverer) release() { <-d.slots }

// runHeld is runWithin for a caller that holds a slot.
func (d *discoverer) runHeld(ctx context.Context, timeout time.Duration, args []string) (*exec.Result, error) {
	if !d.countProcess() {
		return nil, fmt.Errorf("`%s %s`: %w", d.name, strings.Join(args, " "), context.Cause(ctx))
	}
	res, err := exec.Run(ctx, d.bin, args, exec.Options{
		Env:       d.env,
		Timeout:   timeout,
		KillGrace: 200 * time.Millisecond,
		MaxOutput: 8 << 20,
	})
	if err != nil {
		return nil, err
	}
	if res.Canceled {
		return nil, fmt.Errorf("`%s %s`: %w", d.name, strings.Join(args, " "), ctx.Err())
	}
	return res, nil
}

// complete runs `BIN __complete ARGS...` and parses its answer.
func (d *discoverer) complete(ctx context.Context, args ...string) (*completion, error) {
	res, err := d.run(ctx, append([]string{"__complete"}, args...)...)
	if err != nil {
		return nil, err
	}
	return d.parseComplete(res, args)
}

// completeOnce is complete without trying again: for a batch of probes,
// which are asked apart when it fails. It returns what the process
// printed too (stdout, then stderr).
func (d *discoverer) completeOnce(ctx context.Context, args ...string) (*completion, string, error) {
	res, err := d.runWithin(ctx, d.opts.ProbeTimeout, append([]string{"__complete"}, args...))
	if err != nil {
		return nil, "", err
	}
	out := res.Stdout + "\n" + res.Stderr
	if res.TimedOut {
		return nil, out, fmt.Errorf("`%s __complete %s` did not finish within %v: %w", d.name, strings.Join(args, " "), d.opts.ProbeTimeout, errTimedOut)
	}
	c, err := d.parseComplete(res, args)
	return c, out, err
}

func (d *discoverer) parseComplete(res *exec.Result, args []string) (*completion, error) {
	c, err := parseCompletion(res.Stdout, res.Stderr)
	if err != nil {
		return nil, fmt.Errorf("`%s __complete %s` (exit code %d): %v", d.name, strings.Join(args, " "), res.ExitCode, err)
	}
	return c, nil
}

// help returns the help text of the command at path (`BIN help PATH...`:
// cobra's help command shows it without running the command, even one
// that parses its own flags).
func (d *discoverer) help(ctx context.Context, path []string) (string, error) {
	args := append([]string{"help"}, path...)
	if len(path) == 0 {
		if d.rootHelp != nil {
			h := d.rootHelp
			d.rootHelp = nil
			return *h, nil
		}
		args = []string{"--help"}
	} else if d.ownHelp || d.helpEaten.Load() {
		return d.flagHelp(ctx, path)
	}
	res, err := d.run(ctx, args...)
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 && len(path) > 0 {
		// A main that makes an unknown first word its default
		// command's (cobra's help command is one until it executes)
		// ran that command: the help is asked with --help.
		h, ok, err := d.flagHelpOnce(ctx, path)
		if err != nil {
			return "", err
		}
		if ok {
			if !d.helpEaten.Swap(true) {
				d.note("%s: `%s help PATH` runs another command (the CLI's main makes an unknown first word its default command's): the helps were read with `PATH --help`", d.name, d.name)
			}
			return h, nil
		}
	}
	if res.ExitCode != 0 {
		return "", &HelpError{Binary: d.name, Path: path, Args: args, ExitCode: res.ExitCode, Output: excerpt(res.Stdout, res.Stderr)}
	}
	return res.Stdout, nil
}

// flagHelp returns the help of the command at path from `PATH --help`,
// for a CLI whose help command does not show it (its own, or one its main
// hands to another command): cobra shows it for a command that parses
// flags; one that does not (DisableFlagParsing) would run, with "--help"
// an arg, so its help is not read ("").
func (d *discoverer) flagHelp(ctx context.Context, path []string) (string, error) {
	h, ok, err := d.flagHelpOnce(ctx, path)
	if err != nil || ok {
		return h, err
	}
	return "", nil
}

// flagHelpOnce is flagHelp, reporting whether `PATH --help` was asked and
// answered.
func (d *discoverer) flagHelpOnce(ctx context.Context, path []string) (string, bool, error) {
	c, err := d.parseProbe(ctx, path)
	if err != nil {
		return "", false, err
	}
	if !c.refused() {
		return "", false, nil
	}
	args := append(slices.Clone(path), "--help")
	res, err := d.run(ctx, args...)
	if err != nil {
		return "", false, err
	}
	if res.ExitCode != 0 {
		return "", false, &HelpError{Binary: d.name, Path: path, Args: args, ExitCode: res.ExitCode, Output: excerpt(res.Stdout, res.Stderr)}
	}
	return res.Stdout, true, nil
}

// HelpError is the error of a reflection that could not read the help of
// a command: what was run and what it answered. Leaving the command out
// with an overlay ({"exclude": ["PATH"]}) lets the rest be served.
type HelpError struct {
	Binary   string   // the root's name
	Path     []string // the command's path below the root
	Args     []string // what the binary was run with
	ExitCode int
	Output   string // an excerpt of what it printed, as excerpt quotes it
}

func (e *HelpError) Error() string {
	return fmt.Sprintf("`%s %s` exited with %d%s", e.Binary, strings.Join(e.Args, " "), e.ExitCode, e.Output)
}

// CommandError is the error of a reflection that could not read one
// command below the root (its help, its flag list, its sub-commands): it
// says what failed, and names the overlay that leaves the command out, so
// that the others are served.
type CommandError struct {
	Binary string   // the root's name
	Path   []string // the command's path below the root
	Err    error
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("%v: to serve %s without that command, give --overlay FILE, FILE holding {\"exclude\": [%q]}",
		e.Err, e.Binary, strings.Join(e.Path, " "))
}

func (e *CommandError) Unwrap() error { return e.Err }

// proxyEnv points the proxy variables at a closed local port, so that a
// completion function or start-up code that honours them cannot reach a
// server during discovery. It is a mitigation, not a guarantee.
var proxyEnv = []string{
	"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
	"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
	"NO_PROXY=", "no_proxy=",
}

func discoveryEnv(base []string, name string) []string {
	if base == nil {
		base = os.Environ()
	}
	prog := strings.ToUpper(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name))
	env := slices.Clone(base)
	env = slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return strings.HasSuffix(strings.ToUpper(k), "_PROXY")
	})
	env = append(env, proxyEnv...)
	// Cobra's active help adds lines to completions: turn it off. A probe
	// parses and exits: one P spares the Go runtime of a large CLI (the
	// CLIs served are Go programs) some of its start-up work, and the
	// probes run side by side on every core anyway; no garbage collection
	// below 512 MiB of heap spares it the collections of its start-up
	// (gh: about 15 % of the CPU of a process, 3 MB more memory).
	return append(env, prog+"_ACTIVE_HELP=0", "COBRA_ACTIVE_HELP=0", "GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=512MiB")
}

// discover reflects the binary into a Spec.
func (d *discoverer) discover(ctx context.Context) (*Spec, error) {
	d.build = readBuildInfo(d.bin)
	d.listsHelp, d.helpKnown = d.build.cobraAtLeast(1, 4)
	// The root's help (for its name) and its sub-commands through cobra's
	// help command (safe: it runs no completion function of the CLI, and
	// exact), side by side.
	var (
		rootSubs *completion
		err      error
		named    sync.WaitGroup
	)
	named.Add(1)
	go func() { defer named.Done(); rootSubs, err = d.complete(ctx, "help", "") }()
	name := d.rootName(ctx)
	named.Wait()
	if name != "" && name != d.name {
		d.opts.Logger.Info("the root command's name is not the file's", "binary", d.bin, "file", d.name, "root", name)
		d.name = name
		d.env = discoveryEnv(d.opts.Env, name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", d.bin, ErrNotCobra, err)
	}
	d.helpCmp = len(rootSubs.items) > 0
	if d.ownHelp {
		// `__complete help ""` lists the own help command's
		// sub-commands, not the root's: the sub-commands come from the
		// help pages.
		d.helpCmp, rootSubs = false, nil
	}
	// Does completion parse flags? (cobra 1.2 and later: an unknown flag is
	// an error.) Only then can the parser be probed for types.
	if c, err := d.parseProbe(ctx, nil); err == nil {
		d.newComp = c.refused()
		d.rootProbe = c // the root's answer too: asked once
	}
	root := &Command{Name: d.name}
	d.countCommand()
	var wg sync.WaitGroup
	var firstErr error
	var errMu sync.Mutex
	fail := func(err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		errMu.Unlock()
	}
	left := map[*Command]bool{} // commands left out, under errMu
	var walk func(c *Command, path []string, parentFlags map[string]*Flag, subs *completion)
	walk = func(c *Command, path []string, parent map[string]*Flag, subs *completion) {
		defer wg.Done()
		done := func(err error) bool {
			if err != nil && len(path) > 0 && ctx.Err() == nil && !errors.Is(err, errTimedOut) && d.opts.Overlay.excludes(path) {
				// It cannot be read, and the overlay leaves it out:
				// the others are served.
				d.note("%s: left out by the overlay; it could not be read: %v", strings.Join(append([]string{d.name}, path...), " "), err)
				d.mu.Lock()
				d.unread = append(d.unread, strings.Join(path, " "))
				d.mu.Unlock()
				errMu.Lock()
				left[c] = true
				errMu.Unlock()
				return false
			}
			if err != nil && len(path) > 0 && errors.Is(err, errTimedOut) && ctx.Err() == nil {
				// One command that hangs does not fail the others.
				d.note("%s: left out: %v", strings.Join(append([]string{d.name}, path...), " "), err)
				d.mu.Lock()
				d.partial = true
				d.mu.Unlock()
				errMu.Lock()
				left[c] = true
				errMu.Unlock()
				return false
			}
			if err != nil && len(path) > 0 && ctx.Err() == nil {
				err = &CommandError{Binary: d.name, Path: slices.Clone(path), Err: err}
			}
			if err != nil {
				fail(err)
				return false
			}
			return true
		}
		children, rest, err := d.command(ctx, c, path, parent, subs)
		if !done(err) {
			return
		}
		d.read.Add(1)
		// The sub-commands are walked while this command's flag types
		// are asked (rest): they need its flags' names only.
		if len(path) >= d.opts.MaxDepth {
			if len(children) > 0 {
				d.note("%s: sub-commands deeper than %d levels left out", strings.Join(append([]string{d.name}, path...), " "), d.opts.MaxDepth)
			}
			children = nil
		}
		mine := map[string]*Flag{}
		for k, v := range parent {
			mine[k] = v
		}
		for _, f := range c.Flags {
			mine[f.Name] = f
		}
		for _, ch := range children {
			if !d.countCommand() {
				break
			}
			wg.Add(1)
			go walk(ch, append(slices.Clone(path), ch.Name), mine, nil)
		}
		done(rest())
	}
	wg.Add(1)
	walk(root, nil, nil, rootSubs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	prune(root, left)
	d.inheritedWords()
	sortTree(root)
	spec := &Spec{Format: specFormat, Root: root, Build: d.build}
	var tail sync.WaitGroup
	tail.Add(1)
	go func() { defer tail.Done(); spec.TraverseChildren = d.traverses(ctx, root) }()
	tail.Add(1)
	go func() { defer tail.Done(); spec.Matching = d.matching(ctx, root) }()
	if d.versionFlag {
		if res, err := d.run(ctx, "--version"); err == nil && res.ExitCode == 0 {
			v := versionOf(res.Stdout, d.name)
			spec.Version, spec.VersionFlag = v, true
		}
	}
	tail.Wait()
	d.mu.Lock()
	spec.Notes = slices.Clone(d.notes)
	spec.Partial = d.partial
	spec.Unread = slices.Clone(d.unread)
	sort.Strings(spec.Unread)
	d.mu.Unlock()
	sort.Strings(spec.Notes)
	return spec, nil
}

// inheritedWords gives a flag whose type the parser told (its defining
// command's help prints no line for it: rclone's root prints none of its
// global flags) the type word that a descendant's help prints for it
// (rclone's group sections), when that word is no pflag type's: the
// name of a custom type, which may take a number or "true" and much else
// (a size that takes 4Mi, a tristate), is served by that name as a
// string, as in-process. The defining command learned the flag once; the
// word costs no process.
func (d *discoverer) inheritedWords() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, w := range d.words {
		f, hf := w.f, w.hf
		if f.TypeFrom != FromProbe && f.TypeFrom != FromUnknown {
			continue
		}
		if typ, builtin := helpKind(hf.word); builtin || hf.boolNoOpt || isPlaceholder(hf, w.raw) {
			// A type of pflag's: the probes told it; the line may
			// show the default that no help of the definer prints.
			if _, def, ok := hf.split(typ); builtin && typ == f.Type && f.Default == "" && ok && !zeroDefault(typ, def) {
				f.Default = def
			}
			continue
		}
		repeatable, table := customWords()[hf.word]
		f.Type, f.TypeFrom, f.Repeatable = hf.word, FromHelp, repeatable
		if table {
			f.TypeFrom = FromTable
		}
		f.Default = ""
		if _, def, ok := hf.split(hf.word); ok && !zeroDefault(hf.word, def) {
			f.Default = def
		}
	}
}

// parseProbe asks whether the command at path parses its flags: its
// answer to an unknown flag (probeFlag) is refused() when it does. A
// command that lets unknown flags through (FParseErrWhitelist: kubebuilder's
// root, whose plugins add flags) takes it, as one that parses its own
// flags (DisableFlagParsing) does: it is asked again with helpProbe, which
// it refuses as any command that parses does, and that answer is
// returned. The answer of a command that does not parse lists its flags.
func (d *discoverer) parseProbe(ctx context.Context, path []string) (*completion, error) {
	c, err := d.complete(ctx, append(slices.Clone(path), probeFlag, "-")...)
	if err != nil || c.refused() {
		return c, err
	}
	h, err := d.complete(ctx, append(slices.Clone(path), helpProbe, "-")...)
	if err != nil || !h.refused() {
		return c, err
	}
	return h, nil
}

// rootName reads the root's help (kept for the root's reading) and
// returns the root command's name as its usage prints it ("" when it
// prints none): the root is named after it rather than after the binary's
// file (a renamed copy, a
// symlink `k` to kubectl), so that its tools are named as in-process and
// its help is read the same whatever the file is called. A help without a
// usage line that names the root by a plain name leaves the file's name.
func (d *discoverer) rootName(ctx context.Context) string {
	res, err := d.run(ctx, "--help")
	if err != nil || res.ExitCode != 0 {
		return ""
	}
	d.rootHelp = &res.Stdout
	d.rootPage = res.Stdout
	d.ownHelp = ownHelpCommand(res.Stdout)
	return usageName(res.Stdout, d.name)
}

// unlistedFlag reports whether a help text has a flag line, in any
// section, for a flag other than --help that names does not hold: a
// listing without --help may be cobra's list of the required flags alone,
// whatever titles the help gives its flag sections.
func unlistedFlag(help string, names map[string]bool) bool {
	text, styled := unpad(help)
	hc := helpContext{styled: styled}
	for _, l := range strings.Split(text, "\n") {
		if f := hc.match(l); f != nil && f.name != "help" && !names[f.name] {
			return true
		}
	}
	return false
}

// ownHelpCommand reports whether a root's help lists a help command that
// is not cobra's (a CLI's own, which may have sub-commands of its own and
// print something else than a command's help for `help PATH`).
func ownHelpCommand(help string) bool {
	text, styled := unpad(help)
	hc := helpContext{styled: styled}
	for _, l := range strings.Split(text, "\n") {
		if name, short, ok := hc.command(l); ok && name == "help" {
			return short != "Help about any command"
		}
	}
	return false
}

// usageName is the first word of a help's usage section ("Usage:" or gh's
// "USAGE", the use line on the next line or after "Usage:" as docker
// prints it), "" when there is none or it is no plain name. file is the
// binary's file name.
func usageName(help, file string) string {
	lines := strings.Split(strings.ReplaceAll(help, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if indented(l) {
			continue
		}
		t := strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(t, "Usage:")
		if !ok {
			if t != "USAGE" {
				continue
			}
			rest = ""
		}
		line := strings.TrimSpace(rest)
		for j := i + 1; line == "" && j < len(lines) && indented(lines[j]); j++ {
			line = strings.TrimSpace(lines[j])
		}
		if line == "" && i+1 < len(lines) {
			// A template that prints the usage lines at column 0: taken
			// when the line names the file, or the next line (the
			// root's "NAME [command]") names the same command.
			next := lines[i+1]
			word, _, _ := strings.Cut(next, " ")
			if word == file || word != "" && i+2 < len(lines) && strings.HasPrefix(lines[i+2], word+" ") {
				line = next
			}
		}
		name, _, _ := strings.Cut(line, " ")
		if plainName().MatchString(name) {
			return name
		}
		return ""
	}
	return ""
}

var plainName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`) })

// traverses reports whether the root reads its own local flags before a
// sub-command's name (cobra's TraverseChildren), by asking the parser:
// `BIN --FLAG=DEFAULT help` runs cobra's help command when the root parses
// FLAG there (Traverse), and fails on an unknown flag when it does not
// (Find hands the flag to the help command, which has none of the
// root's). Only a root local flag that takes its default is given, and
// only to the help command, which runs nothing of the CLI's.
func (d *discoverer) traverses(ctx context.Context, root *Command) bool {
	if len(root.Commands) == 0 || d.helpEaten.Load() {
		// A main that hands an unknown first word to its default
		// command would run it with the flag and "help".
		return false
	}
	var f *Flag
	for _, x := range root.Flags {
		if x.Persistent || x.Name == "help" {
			continue
		}
		if x.Type == "bool" {
			f = x
			break
		}
		if f == nil && x.Type == "string" {
			f = x
		}
	}
	if f == nil {
		return false
	}
	value := f.Default
	if f.Type == "bool" && value == "" {
		value = "false"
	}
	res, err := d.run(ctx, "--"+f.Name+"="+value, "help")
	return err == nil && res.ExitCode == 0 && !strings.Contains(res.Stderr+res.Stdout, "unknown flag")
}

// matching asks the binary how it reads a word as a sub-command's name:
// whether cobra's EnablePrefixMatching and EnableCaseInsensitive are on in
// its process, which no help shows. `BIN help P`, P a prefix that one of
// the root's commands alone has, and `BIN help N`, N a command's name in
// another case, are asked side by side: cobra's help command looks the
// words up as Find does and runs nothing of the CLI's; it shows that
// command's help when the word matched, and else says "Unknown help topic"
// (or shows the root's help, for a root that takes args). It returns the
// exec.AnnotationMatching value, or "" when it cannot tell (no such word,
// the CLI's own help command, a process that failed): the call path then
// writes "--" before the args of every command with sub-commands.
func (d *discoverer) matching(ctx context.Context, root *Command) string {
	if len(root.Commands) == 0 || d.ownHelp || d.helpEaten.Load() || d.rootPage == "" {
		return ""
	}
	var cmds [][]string // each root command's name and aliases
	seen := map[string]bool{}
	for _, c := range root.Commands {
		cmds = append(cmds, append([]string{c.Name}, c.Aliases...))
		seen[c.Name] = true
	}
	for _, n := range [][]string{{"help"}, {"completion"}, {"__complete", "__completeNoDesc"}} {
		if !seen[n[0]] {
			cmds = append(cmds, n)
		}
	}
	// clear reports whether w can only match cmds[own], and only the way
	// asked: for a prefix, no name or alias in any case, and no other
	// command's name or alias beginning with it; for a name in another
	// case, no name or alias as written, no other command's in any case,
	// and none beginning with it.
	clear := func(w string, own int, byPrefix bool) bool {
		for i, names := range cmds {
			for _, n := range names {
				switch {
				case byPrefix && (strings.EqualFold(n, w) || i != own && strings.HasPrefix(n, w)),
					!byPrefix && (strings.HasPrefix(n, w) || i != own && strings.EqualFold(n, w)):
					return false
				}
			}
		}
		return true
	}
	var prefix, upper string
	for i, names := range cmds {
		name := names[0]
		for l := 1; prefix == "" && l < len(name); l++ {
			if p := name[:l]; !strings.HasPrefix(p, "-") && clear(p, i, true) {
				prefix = p
			}
		}
		if u := strings.ToUpper(name); upper == "" && clear(u, i, false) {
			upper = u
		}
	}
	if prefix == "" || upper == "" {
		return ""
	}
	ask := func(word string) (bool, bool) {
		res, err := d.run(ctx, "help", word)
		if err != nil {
			return false, false
		}
		if res.ExitCode != 0 || strings.Contains(res.Stdout+res.Stderr, "Unknown help topic") || res.Stdout == d.rootPage {
			return false, true
		}
		return strings.TrimSpace(res.Stdout) != "", true
	}
	var byPrefix, byCase, askedPrefix, askedCase bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); byPrefix, askedPrefix = ask(prefix) }()
	go func() { defer wg.Done(); byCase, askedCase = ask(upper) }()
	wg.Wait()
	if !askedPrefix || !askedCase {
		return ""
	}
	var on []string
	if byPrefix {
		on = append(on, exec.MatchPrefix)
	}
	if byCase {
		on = append(on, exec.MatchCase)
	}
	if len(on) == 0 {
		return exec.MatchExact
	}
	return strings.Join(on, ",")
}

// versionOf reads the root's Version from what its --version printed:
// cobra's template prints "NAME version X"; a template of the CLI's own
// ("{{.Version}}", goreleaser's) prints the Version as it is, which may
// take many lines.
func versionOf(out, name string) string {
	first := strings.TrimSpace(firstLine(out))
	if v, ok := strings.CutPrefix(first, name+" version "); ok {
		return v
	}
	if strings.Count(strings.TrimRight(out, "\n"), "\n") == 0 {
		return first
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// prune removes the commands in left from the tree.
func prune(c *Command, left map[*Command]bool) {
	c.Commands = slices.DeleteFunc(c.Commands, func(s *Command) bool { return left[s] })
	for _, s := range c.Commands {
		prune(s, left)
	}
}

func sortTree(c *Command) {
	sort.Slice(c.Commands, func(i, j int) bool { return c.Commands[i].Name < c.Commands[j].Name })
	for _, s := range c.Commands {
		sortTree(s)
	}
}

// command fills in c (at path) and returns its sub-commands, still to be
// walked. parent holds the flags its ancestors define, by name.
func (d *discoverer) command(ctx context.Context, c *Command, path []string, parent map[string]*Flag, subs *completion) ([]*Command, func() error, error) {
	full := strings.Join(append([]string{d.name}, path...), " ")
	var (
		wg                sync.WaitGroup
		helpText          string
		helpErr, flagsErr error
		flagsC            *completion
	)
	parsesKnown := false
	if len(path) > 0 && d.newComp && d.ownHelpFlag.Load() {
		// The CLI's own persistent --help (gh's): the help first, which
		// tells whether one listing with --help set can also tell that the
		// command parses its flags (helpUnset).
		if helpText, helpErr = d.help(ctx, path); helpErr != nil {
			return nil, nil, fmt.Errorf("reading the help of %s: %w", full, helpErr)
		}
		flagsC, parsesKnown, flagsErr = d.listHelpSet(ctx, path, helpText, full, parent)
	} else {
		wg.Add(2)
		go func() { defer wg.Done(); helpText, helpErr = d.help(ctx, path) }()
		go func() { defer wg.Done(); flagsC, flagsErr = d.complete(ctx, append(slices.Clone(path), "-")...) }()
		wg.Wait()
		if helpErr != nil {
			return nil, nil, fmt.Errorf("reading the help of %s: %w", full, helpErr)
		}
	}
	if flagsErr != nil {
		return nil, nil, fmt.Errorf("listing the flags of %s: %w", full, flagsErr)
	}
	if len(path) == 0 {
		d.notesHelpFlag(flagsC)
	}
	hc := helpContext{path: full, flags: map[string]bool{"help": true}}
	for _, f := range flagsOf(flagsC) {
		hc.flags[f.name] = true
	}
	page := parseHelp(helpText, hc)
	// Cobra 1.3+ lists only the required flags while one is unset: the
	// others are listed with the required ones set, and the help is read
	// again knowing them all (a help may list them in sections of their
	// own, which are recognized by the flags they name).
	var (
		required map[string]bool
		taken    map[string]string
	)
	listed := flagsOf(flagsC)
	listedNames := map[string]bool{}
	for _, f := range listed {
		listedNames[f.name] = true
	}
	if d.newComp && len(listed) > 0 && !listedNames["help"] && (!d.fullListing(listedNames, page) || unlistedFlag(helpText, listedNames)) {
		all, t, err := d.withRequired(ctx, path, listed, page)
		if err != nil {
			return nil, nil, fmt.Errorf("listing the flags of %s: %w", full, err)
		}
		taken = t
		more := false // the listing with them set names flags the first did not
		if all != nil {
			for _, f := range flagsOf(all) {
				more = more || !listedNames[f.name]
			}
		}
		if more {
			// Only a command that parses its flags lists others once
			// the required ones are set.
			parsesKnown = true
			required = map[string]bool{}
			for _, f := range listed {
				required[f.name] = true
			}
			flagsC = &completion{items: append(slices.Clone(flagsC.items), all.items...), directive: flagsC.directive}
			for _, f := range flagsOf(all) {
				hc.flags[f.name] = true
			}
			page = parseHelp(helpText, hc)
		}
	}
	if page.quotes {
		d.quotes.Store(true)
	}
	page.quotes = page.quotes || d.quotes.Load()
	// The sub-commands through cobra's help command, unless the help shows
	// that there are none.
	if subs == nil && d.helpCmp && !page.leaf(full) {
		var err error
		if subs, err = d.complete(ctx, append(append([]string{"help"}, path...), "")...); err != nil {
			return nil, nil, fmt.Errorf("listing the sub-commands of %s: %w", full, err)
		}
	}

	// Flags, on the assumption that the command parses them (as most do):
	// the parser's answers to the type probes show it. When they do not,
	// an unknown flag tells: a command that parses flags refuses it (and
	// its completion functions are not called); one that parses its own
	// (DisableFlagParsing) accepts it. The sub-commands need only the
	// flags' names and usages: they are walked while the types are asked.
	pass, probes := d.flags(c, path, page, flagsC, parent, required)
	pass.taken = taken
	rest := func() error {
		if err := d.types(ctx, c, path, pass, probes); err != nil {
			return err
		}
		// Whether a group that does not run parses its flags matters
		// to no tool: it is not asked.
		if d.newComp && !pass.parses && !parsesKnown && runs(page, full, len(c.Commands) > 0) {
			parseC := d.rootProbe
			if len(path) > 0 || parseC == nil {
				var err error
				if parseC, err = d.parseProbe(ctx, path); err != nil {
					return fmt.Errorf("listing the flags of %s: %w", full, err)
				}
			}
			if !parseC.refused() {
				c.NoParse = true
				c.Flags = nil
				pass, _ = d.flags(c, path, page, parseC, parent, nil)
			}
		}
		if !c.NoParse {
			d.requiredGroups(ctx, c, path, pass, full)
		}
		d.commit(pass)

		// Descriptions and usage.
		if len(page.aliases) > 1 {
			c.Aliases = page.aliases[1:]
		}
		c.Long = page.lead
		if len(path) == 0 && c.Short == "" && !strings.Contains(c.Long, "\n\n") {
			// No parent lists the root's Short: a help that prints one
			// paragraph prints it (cobra prints the Long, else the
			// Short), which the server's instructions begin with.
			c.Short = c.Long
		}
		if c.Long == c.Short {
			c.Long = ""
		}
		c.Example = page.example
		use, ok := page.useLine(full)
		if !ok && len(c.Commands) == 0 && len(page.useLines) == 1 && strings.HasPrefix(page.useLines[0], full+" ") {
			// A command without sub-commands whose Use holds
			// "[command]" (hugo's): it runs, and that is its use line.
			use, ok = page.useLines[0], true
		}
		switch {
		case ok:
			// kubectl's help template appends " [options]" to the usage
			// line of a command with flags; cobra's own adds " [flags]"
			// to a command with flags unless it sets
			// DisableFlagsInUseLine (as kubectl's do), which a line
			// without it shows. Both are taken out: the built command
			// adds " [flags]" where it has flags, as in-process (the
			// help counts cobra's --help, which the bridge leaves out).
			use = strings.TrimSuffix(use, " [options]")
			c.NoFlagsInUse = !c.NoParse && !strings.Contains(use, "[flags]")
			if h := page.flags["help"]; h == nil || strings.EqualFold(strings.Join(h.text, " "), "help for "+c.Name) {
				// cobra's own --help, which cobra adds to a command
				// only when it runs: not the CLI's own (gh's "Show
				// help for command", which makes every command have
				// a flag, so " [flags]" stays).
				use = strings.TrimSuffix(use, " [flags]")
			}
			c.Use = c.Name + strings.TrimPrefix(use, full)
		case len(page.useLines) > 0 || !page.leaf(full) && len(c.Commands) > 0:
			// A group: its usage names a sub-command only.
		default:
			c.Use = c.Name
		}
		c.Runnable = runs(page, full, len(c.Commands) > 0)
		if c.NoParse {
			// The help adds "[flags]" for cobra's own --help; the command
			// takes no flags of cobra's.
			c.Use = strings.TrimSuffix(c.Use, " [flags]")
		}
		// The usage line documents the args; the command's Args
		// validator, which cannot be asked without running it, decides
		// (crane's "digest IMAGE" takes none with --tarball, "pull IMAGE
		// TARBALL" takes several images). Any number is accepted, as
		// cobra does without a validator: the CLI's own message reaches
		// the model when it refuses.
		c.MinArgs, c.MaxArgs = 0, -1
		return nil
	}

	// Sub-commands.
	var items []helpItem
	if subs != nil && d.helpCmp {
		items = subs.items
	} else {
		items = page.commands
	}
	var children []*Command
	seen := map[string]bool{}
	for _, it := range items {
		if it.name == "" || seen[it.name] || strings.HasPrefix(it.name, "-") {
			continue
		}
		seen[it.name] = true
		if len(path) == 0 && isDefault(it) {
			continue
		}
		children = append(children, &Command{Name: it.name, Short: it.short})
	}
	if len(path) == 0 {
		children = d.dropServerGroup(ctx, children)
	}
	c.Commands = children
	c.HasCommands = len(children) > 0
	return children, rest, nil
}

// notesHelpFlag reads from the root's flag listing whether its --help is
// the CLI's own (gh's "Show help for command"), not cobra's ("help for
// NAME"), and keeps its lines (ownHelpFlag, helpItems).
func (d *discoverer) notesHelpFlag(c *completion) {
	for i, it := range c.items {
		if it.name != "--help" {
			continue
		}
		if it.short == "" || it.short == "help for "+d.name {
			return
		}
		d.helpItems = []helpItem{it}
		if i+1 < len(c.items) && len(c.items[i+1].name) == 2 && strings.HasPrefix(c.items[i+1].name, "-") && c.items[i+1].short == it.short {
			d.helpItems = append(d.helpItems, c.items[i+1])
		}
		d.ownHelpFlag.Store(true)
		return
	}
}

// listHelpSet lists the flags of the command at path, whose help is
// helpText, for a CLI whose --help is its own (ownHelpFlag). Where the help
// shows that the answer with --help set will tell (no flag but --help, or
// a flag inherited from an ancestor that lists it as not required), it
// asks that one (helpUnset), and reports whether it showed that the
// command parses its flags; otherwise, or when it did not tell, it lists
// them as for any CLI.
func (d *discoverer) listHelpSet(ctx context.Context, path []string, helpText, full string, parent map[string]*Flag) (*completion, bool, error) {
	plain := append(slices.Clone(path), "-")
	// Any flag line makes a flag section here (a guess, checked by
	// helpUnset).
	page := parseHelp(helpText, helpContext{path: full})
	if quietGroup(page, helpText, full) {
		// What the listing would say (helpUnset): --help alone.
		return &completion{items: slices.Clone(d.helpItems), directive: int(cobra.ShellCompDirectiveNoFileComp)}, false, nil
	}
	tells := len(page.flags) == 0 || len(page.flags) == 1 && page.flags["help"] != nil
	for n := range page.global {
		if p := parent[n]; n != "help" && p != nil && !p.Required {
			tells = true
		}
	}
	if !tells {
		c, err := d.complete(ctx, plain...)
		return c, false, err
	}
	c, err := d.complete(ctx, append(slices.Clone(path), "--help=false", "-")...)
	if err == nil && d.helpUnset(c, helpText, full, parent) {
		return c, true, nil
	}
	unset := err == nil && !c.refused() && !slices.ContainsFunc(flagsOf(c), func(f *completedFlag) bool { return f.name == "help" })
	if c, err = d.complete(ctx, plain...); err != nil {
		return nil, false, err
	}
	// --help, set, was not listed and is listed unset: it was parsed.
	return c, unset && slices.ContainsFunc(flagsOf(c), func(f *completedFlag) bool { return f.name == "help" }), nil
}

// quietGroup reports whether the help page of the command at path shows a
// group that does not run and has no flag of its own or inherited but
// --help, which it shows among the inherited flags (so the help prints
// those): its flag listing, with its --help (the CLI's own) set, would
// list nothing, and no tool needs it to tell whether the group parses its
// flags. (Hidden and deprecated flags are in neither.)
func quietGroup(page *helpPage, helpText, full string) bool {
	if len(page.flags) != 1 || page.flags["help"] == nil || !page.global["help"] {
		return false
	}
	if unlistedFlag(helpText, map[string]bool{"help": true}) {
		return false
	}
	return !page.leaf(full) && len(page.commands) > 0 && !runs(page, full, true)
}

// helpUnset reads the flag listing of a command asked with the CLI's own
// --help set to false (ownHelpFlag). Cobra does not watch a help flag that
// it did not add, so a command that parses its flags lists the others
// without --help; one that does not parse them lists --help too. When the
// answer shows both that the command parsed --help and that the listing
// is of every flag (not cobra's list of the unset required flags alone),
// helpUnset turns c into the listing without --help set, its lines added,
// and reports true: the command parses its flags. Otherwise it reports
// false, and the flags are listed as before:
//   - no flag at all, and the help shows none but --help: it parsed;
//   - the flags the help shows, one of them inherited (a "Global Flags"
//     line) from an ancestor that lists it as not required: a list of the
//     required flags alone would not hold it.
//
// A CLI whose --help is its own on the root only (cobra's on the others,
// which cobra watches, answers nothing once set) is asked as before from
// then on.
func (d *discoverer) helpUnset(c *completion, helpText, full string, parent map[string]*Flag) bool {
	if c.refused() {
		return false
	}
	names := map[string]bool{"help": true}
	var inheritedOptional []string
	for _, f := range flagsOf(c) {
		if f.name == "help" {
			return false // not parsed: asked as before
		}
		names[f.name] = true
		if p := parent[f.name]; p != nil && !p.Required {
			inheritedOptional = append(inheritedOptional, f.name)
		}
	}
	if unlistedFlag(helpText, names) {
		if len(names) == 1 {
			// Nothing listed while the help shows flags: cobra's own
			// --help, which ends the listing once set.
			d.ownHelpFlag.Store(false)
		}
		return false
	}
	if len(names) > 1 {
		page := parseHelp(helpText, helpContext{path: full, flags: names})
		if !slices.ContainsFunc(inheritedOptional, func(n string) bool { return page.global[n] }) {
			return false
		}
	}
	c.items = append(slices.Clone(c.items), d.helpItems...)
	return true
}

// runs reports whether the help page shows a command that runs (the
// decision that rest makes when it sets Runnable).
func runs(page *helpPage, full string, hasSubs bool) bool {
	if !hasSubs {
		// Listed, with no sub-command: cobra lists a command that runs
		// or has sub-commands (hugo's "watch status [command]" runs).
		return true
	}
	use, ok := page.useLine(full)
	switch {
	case ok:
		// gh's layout prints the use line of a group that does not run
		// ("gh codespace [flags]"); cobra's and kubectl's print it only
		// for a command that runs.
		return !(page.upper && hasSubs && !slices.ContainsFunc(strings.Fields(strings.TrimPrefix(use, full)), func(w string) bool { return !isFlagsWord(w) }) && !page.groupLine(full))
	case len(page.useLines) > 0 || !page.leaf(full) && hasSubs:
		return false
	}
	return true
}

// isDefault reports whether a root sub-command is cobra's own help or
// completion command (which the bridge leaves out as well).
func isDefault(it helpItem) bool {
	switch it.name {
	case "help":
		// cobra's, which the bridge leaves out too; a help command of
		// the CLI's own (rclone's, with "help flags" and "help
		// backends") is one of its commands, in the tree when it
		// executes, and served in-process.
		return it.short == "Help about any command"
	case "completion":
		return strings.HasPrefix(it.short, "Generate the autocompletion script")
	case "__complete", "__completeNoDesc":
		return true
	}
	return false
}

// serverSubs are the sub-commands of cobramcp's own command group: a
// binary that adopted cobramcp serves its tools through it already, and
// the group is not a tool of its own.
var serverSubs = []string{"start", "stream", "tools", "tool", "call"}

func (d *discoverer) dropServerGroup(ctx context.Context, children []*Command) []*Command {
	return slices.DeleteFunc(children, func(c *Command) bool {
		if c.Name != "mcp" && !strings.Contains(c.Short, "MCP") {
			return false
		}
		subs, err := d.complete(ctx, "help", c.Name, "")
		if err != nil {
			return false
		}
		have := map[string]bool{}
		for _, it := range subs.items {
			have[it.name] = true
		}
		for _, s := range serverSubs {
			if !have[s] {
				return false
			}
		}
		d.note("%s %s: left out: cobramcp's own command group (the CLI serves MCP itself)", d.name, c.Name)
		return true
	})
}

// binaryName is the root command's name for a binary path.
func binaryName(path string) string {
	base := filepath.Base(path)
	if runtime.GOOS == "windows" {
		base = strings.TrimSuffix(base, ".exe")
	}
	return base
}
