package external

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Options configure a reflection. The zero value (or nil) uses the
// defaults.
type Options struct {
	// ProbeTimeout bounds each process that discovery starts;
	// DefaultProbeTimeout when zero.
	ProbeTimeout time.Duration
	// Parallel is how many processes discovery runs at once; twice the
	// number of CPUs (at most 8) when zero.
	Parallel int
	// MaxDepth bounds the depth of the tree walked; DefaultMaxDepth when zero.
	MaxDepth int
	// Env is the environment of the discovery processes (before the proxy
	// variables are pointed at a closed port); nil inherits os.Environ().
	Env []string
	// CacheDir holds the cache; os.UserCacheDir()/cobramcp/external when
	// empty. NoCache turns the cache off.
	CacheDir string
	NoCache  bool
	// Refresh rebuilds the cache entry even when it is up to date.
	Refresh bool
	// Overlay corrects what reflection found; nil for none.
	Overlay *Overlay
	// Builtin applies, when Overlay is nil, the overlay that cobramcp
	// ships for the binary's root command (BuiltinOverlay), if any, and
	// notes it.
	Builtin bool
	// Logger receives progress and notes; nil discards them.
	Logger *slog.Logger
	// Timeout bounds the whole reflection (DefaultTimeout when zero);
	// MaxCommands the commands it reads (DefaultMaxCommands), MaxProcesses
	// the processes it starts (DefaultMaxProcesses), and MaxTimeouts the
	// processes that may not finish in time, tried again, before it stops
	// (DefaultMaxTimeouts). Reaching one is a *LimitError.
	Timeout      time.Duration
	MaxCommands  int
	MaxProcesses int
	MaxTimeouts  int
	// ProgressInterval is how often a reflection logs its progress (commands
	// read and left, processes, time elapsed) at level Info;
	// DefaultProgressInterval when zero.
	ProgressInterval time.Duration
	// Stale lets Load serve the cached reflection of a binary that has
	// changed since (another version installed at the same path) instead
	// of reflecting it first: Result.Stale says so, and the binary is
	// reflected again in the background, within Load's ctx, for the next
	// Load (Result.Refreshed reports the outcome). It is meant for a
	// server that a client starts: a cold reflection of a large CLI can
	// outlast the client's start-up timeout (Codex waits 10 s), and a
	// start killed in the middle of it would never fill the cache.
	Stale bool
}

func (o *Options) withDefaults() *Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.ProbeTimeout <= 0 {
		c.ProbeTimeout = DefaultProbeTimeout
	}
	if c.Parallel <= 0 {
		c.Parallel = min(2*runtime.NumCPU(), 8)
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = DefaultMaxDepth
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxCommands <= 0 {
		c.MaxCommands = DefaultMaxCommands
	}
	if c.MaxProcesses <= 0 {
		c.MaxProcesses = DefaultMaxProcesses
	}
	if c.MaxTimeouts <= 0 {
		c.MaxTimeouts = DefaultMaxTimeouts
	}
	if c.ProgressInterval <= 0 {
		c.ProgressInterval = DefaultProgressInterval
	}
	return &c
}

// Result is a reflected binary, ready to serve.
type Result struct {
	// Root is the command tree to give to toolset.New; its commands run
	// nothing.
	Root *cobra.Command
	// Path is the binary to run (bridge.Config.Executable): absolute,
	// symlinks resolved.
	Path string
	// Spec is what reflection found, with the overlay applied.
	Spec *Spec
	// Cached reports that Spec came from the cache.
	Cached bool
	// Stale reports that Spec is the cached reflection of the binary as it
	// was before it changed (Options.Stale): StaleSince describes that
	// binary, and Refreshed delivers the outcome of reflecting the
	// binary as it is now (nil once cached, then closed). Refreshed is
	// nil when no reflection runs in the background.
	Stale      bool
	StaleSince string
	Refreshed  <-chan error
	// Notes say what reflection could not find out exactly (and what the
	// overlay or Build left out).
	Notes []string
}

// Resolve finds the binary named by name (a path, or a name looked up in
// PATH) and returns its absolute path with symlinks resolved, and the
// file's name (the base name of name as found, without resolving
// symlinks: "k" stays "k"). Reflection names the root after the root
// command's own name, as its help prints it ("kubectl" for a link k to
// kubectl), and falls back on the file's.
func Resolve(name string) (path, root string, err error) {
	p, err := osexec.LookPath(name)
	if err != nil {
		return "", "", fmt.Errorf("finding %q: %w", name, err)
	}
	root = binaryName(p)
	if p, err = filepath.Abs(p); err != nil {
		return "", "", fmt.Errorf("finding %q: %w", name, err)
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return "", "", fmt.Errorf("finding %q: %w", name, err)
	}
	return p, root, nil
}

// Reflect walks the binary at path (whose file is named name; the root
// takes the root command's own name where its help prints one)
// through cobra's completion command and its help texts, without the
// cache. Every process it starts has stdin closed, a short timeout, and
// its process group ended when it is over.
func Reflect(ctx context.Context, path, name string, opts *Options) (*Spec, error) {
	o := opts.withDefaults()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ctx, cancelTime := context.WithTimeoutCause(ctx, o.Timeout, &LimitError{Binary: path, Limit: LimitTime, Max: o.Timeout, Flag: "--reflect-timeout"})
	defer cancelTime()
	d := newDiscoverer(path, name, o, o.Parallel)
	d.cancel = cancel
	start := time.Now()
	o.Logger.Info("reflecting the binary through its help and cobra's completion command", "binary", path, "parallel", o.Parallel)
	before, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reflecting %s: %w", path, err)
	}
	done := make(chan struct{})
	go d.progress(o.ProgressInterval, start, done)
	spec, err := d.discover(ctx)
	close(done)
	if le := limitOf(ctx); le != nil {
		e := *le
		e.Commands, e.Processes, e.Elapsed = d.read.Load(), d.processes.Load(), time.Since(start)
		return nil, &e
	}
	if err != nil {
		return nil, err
	}
	spec.Binary = path
	spec.Size, spec.ModTime = before.Size(), before.ModTime()
	if after, err := os.Stat(path); err != nil || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		// Some answers may come from the binary that replaced it: such a
		// reflection is served once, not cached.
		spec.Partial = true
		spec.Notes = append(spec.Notes, fmt.Sprintf("%s changed while it was reflected: some answers may be the new binary's (not cached; the next start reflects it again)", path))
	}
	o.Logger.Info("reflected", "binary", path, "commands", countCommands(spec.Root), "processes", d.processes.Load(), "took", time.Since(start).Round(time.Millisecond))
	return spec, nil
}

func countCommands(c *Command) int {
	n := 1
	for _, s := range c.Commands {
		n += countCommands(s)
	}
	return n
}

// Load resolves name, reflects the binary (or reads the cache entry that
// matches its path, size, modification time and version), applies the
// overlay, and builds the command tree:
//
//	r, err := external.Load(ctx, "kubectl", nil)
//	ts, err := toolset.New(r.Root, &toolset.Config{Executable: r.Path})
func Load(ctx context.Context, name string, opts *Options) (*Result, error) {
	o := opts.withDefaults()
	path, root, err := Resolve(name)
	if err != nil {
		return nil, err
	}
	// The cache is keyed by the path as named, symlinks kept: an upgrade
	// that moves a link to a new version's directory (Homebrew, asdf, nix,
	// update-alternatives) finds the reflection of the version before.
	named := path
	if p, err := osexec.LookPath(name); err == nil {
		if p, err = filepath.Abs(p); err == nil {
			named = p
		}
	}
	var spec *Spec
	cached := false
	cache := ""
	if !o.NoCache {
		if cache, err = cachePath(o.CacheDir, named, root); err != nil {
			var ce *CacheError
			if errors.As(err, &ce) {
				return nil, err
			}
			o.Logger.Warn("no cache", "err", err)
			cache = ""
		}
	}
	var refreshed chan error
	stale := false
	if cache != "" && !o.Refresh {
		var fresh bool
		spec, fresh = readCache(ctx, cache, path, root, o)
		if spec != nil && !o.Overlay.covers(spec.Unread) {
			// Reflected with an overlay that left out commands whose
			// help could not be read, which this one does not.
			spec = nil
		}
		switch {
		case spec != nil && !fresh && o.Stale:
			stale, refreshed = true, make(chan error, 1)
			o.Logger.Warn("the binary changed since it was reflected: serving the previous reflection until the next start, and reflecting it again in the background", "binary", path, "reflected", spec.describe())
			go func() {
				defer close(refreshed)
				refreshed <- reflectAndCache(ctx, path, root, cache, o)
			}()
		case !fresh:
			spec = nil
		}
		cached = spec != nil
	}
	if spec == nil {
		if spec, err = Reflect(ctx, path, root, o); err != nil {
			return nil, err
		}
		if cache != "" && spec.Partial {
			o.Logger.Warn("reflection not cached: some processes of the binary did not answer in time; the next start asks again", "binary", path)
		} else if cache != "" {
			if err := writeCache(cache, spec); err != nil {
				o.Logger.Warn("could not write the cache", "path", cache, "err", err)
			}
		}
	}
	applied := spec
	overlay := o.Overlay
	// The root command's own name, which may not be the file's.
	rootName := spec.Root.Name
	if overlay == nil && o.Builtin {
		if overlay, err = BuiltinOverlay(rootName); err != nil {
			return nil, err
		}
	}
	if overlay != nil {
		if applied, err = overlay.Apply(spec); err != nil {
			return nil, err
		}
		if err := checkDeclared(ctx, path, applied, o); err != nil {
			return nil, err
		}
		if overlay.builtin != "" {
			applied.Notes = append(applied.Notes, fmt.Sprintf("applied the overlay cobramcp ships for %s (read-only and destructive hints, defaults no help prints, commands left out)", rootName))
		}
	}
	tree, more := Build(applied)
	tree.Use = rootName
	notes := append(slices.Clone(applied.Notes), more...)
	logNotes(o.Logger, notes, cached)
	r := &Result{Root: tree, Path: path, Spec: applied, Cached: cached, Notes: notes, Stale: stale}
	if stale {
		r.StaleSince, r.Refreshed = spec.describe(), refreshed
	}
	return r, nil
}

// reflectAndCache reflects the binary and writes the cache entry, unless
// the reflection is partial.
func reflectAndCache(ctx context.Context, path, root, cache string, o *Options) error {
	spec, err := Reflect(ctx, path, root, o)
	switch {
	case err != nil && ctx.Err() != nil:
		o.Logger.Info("the background reflection stopped with the server; the next start tries again", "binary", path)
		return err
	case errors.Is(err, ErrNotCobra):
		// The previous reflection must not be served again for a binary
		// that is no longer a Cobra CLI: the next start says so.
		if rmErr := os.Remove(cache); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			o.Logger.Warn("could not remove the cache entry", "path", cache, "err", rmErr)
		}
		o.Logger.Warn("the changed binary is not a Cobra CLI: its previous reflection is dropped from the cache", "binary", path, "err", err)
		return err
	case err != nil:
		o.Logger.Warn("reflecting the changed binary in the background failed; the next start tries again", "binary", path, "err", err)
		return err
	}
	if spec.Partial {
		o.Logger.Warn("reflection not cached: some processes of the binary did not answer in time; the next start asks again", "binary", path)
		return fmt.Errorf("%s: reflection partial (processes did not answer in time): not cached", path)
	}
	if err := writeCache(cache, spec); err != nil {
		o.Logger.Warn("could not write the cache", "path", cache, "err", err)
		return err
	}
	o.Logger.Info("reflected the changed binary for the next start", "binary", path)
	return nil
}

func (s *Spec) describe() string {
	return fmt.Sprintf("%s (%d bytes, modified %s)", s.Binary, s.Size, s.ModTime.Format(time.RFC3339))
}

// logNotes logs what the reflection left out or changed: each note as a
// warning when the binary was just reflected, and, from the cache (where
// they were said when it was written), one line saying how many there are,
// each note at debug level. A note that is no problem (the served CLI's
// own mcp group, an overlay applied) is never a warning.
func logNotes(log *slog.Logger, notes []string, cached bool) {
	problems := 0
	for _, n := range notes {
		level := slog.LevelWarn
		if !isProblem(n) {
			level = slog.LevelInfo
		} else {
			problems++
		}
		if cached {
			level = slog.LevelDebug
		}
		log.Log(context.Background(), level, "reflection", "note", n)
	}
	if cached && problems > 0 {
		log.Info("reflection notes, as when the binary was reflected (--mcp-log-level debug lists them)", "notes", problems)
	}
}

// isProblem tells a note that says something was lost from one that
// says what was done on purpose.
func isProblem(note string) bool {
	return !strings.Contains(note, "cobramcp's own command group") && !strings.HasPrefix(note, "applied the overlay cobramcp ships") &&
		!strings.Contains(note, "the helps were read with")
}
