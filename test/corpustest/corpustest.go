// Package corpustest compares a real CLI served from outside with the
// same CLI's tree reflected in-process, for the tests of real binaries
// (test/corpus and its modules, test/realcli): it reflects the binary cold
// and warm (package external), lists both trees expanded, compares every
// tool (package toolcompare) and makes offline calls through the tools
// served from outside, each against the binary run directly.
//
//	known, _ := toolcompare.KnownLimits("docs/external.md")
//	row := corpustest.Compare(t, known, corpustest.CLI{Name: "crane", Version: "v0.22.1", Bin: bin, Root: root})
package corpustest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
)

// CLI is one built CLI to compare.
type CLI struct {
	Name, Version string
	Bin           string         // the built binary
	Root          *cobra.Command // the tree its main builds, in-process
	// Config is the in-process tree's configuration (docker's
	// RepeatableTypes), nil for the defaults.
	Config *toolset.Config
	Calls  []Call
	// MinTools fails the comparison when the in-process tree has fewer
	// tools: it is not the CLI's real tree.
	MinTools int
}

// Call is one offline tool call and the command line that it stands for.
// In Arguments and Argv, "$DIR" is a new empty directory, the same in both.
type Call struct {
	Tool      string
	Arguments string // JSON
	Argv      []string
}

// Header is the header of the rows Compare returns (docs/external.md's
// corpus table).
const Header = "| CLI | version | tools outside / in-process | flags | types equal | cold s | warm s | processes | differences |"

// Compare reflects c.Bin from outside (cold, then warm from the cache),
// compares every tool of the expanded listing with c.Root's, and runs
// c.Calls both ways. A difference of a kind not in known fails t, as does
// a call whose stdout or exit code differs. It returns the CLI's row of
// the corpus table.
func Compare(t *testing.T, known map[string]bool, c CLI) string {
	t.Helper()
	var n atomic.Int64
	opts := &external.Options{CacheDir: t.TempDir(), ProbeTimeout: time.Minute, Logger: slog.New(processCounter{n: &n})}
	start := time.Now()
	r, err := external.Load(context.Background(), c.Bin, opts)
	if err != nil {
		t.Fatal(err)
	}
	cold := time.Since(start)
	if r.Spec.Partial {
		t.Fatalf("partial reflection (a process did not answer in time): %s", strings.Join(r.Notes, "\n"))
	}
	start = time.Now()
	if w, err := external.Load(context.Background(), c.Bin, opts); err != nil || !w.Cached {
		t.Fatalf("warm load: cached %v, %v", w != nil && w.Cached, err)
	}
	warm := time.Since(start)
	for _, note := range r.Notes {
		t.Logf("note: %s", note)
	}
	out, err := Expanded(r.Root, &toolset.Config{Executable: r.Path})
	if err != nil {
		t.Fatal(err)
	}
	in, err := Expanded(c.Root, c.Config)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Tools()) < c.MinTools {
		t.Fatalf("in-process: only %d tools", len(in.Tools()))
	}
	flags := 0 // the flags of every tool, each tool's inherited ones too
	for _, tl := range in.Tools() {
		if f := tl.InputSchema.(*jsonschema.Schema).Properties["flags"]; f != nil {
			flags += len(f.Properties)
		}
	}
	counts := toolcompare.Count(Differences(t, known, in, out))
	calls(t, c, out)
	typeDiffs := counts["flag-type"] + counts["flag-custom-type"] + counts["flag-annotation"]
	return fmt.Sprintf("| %s | %s | %d / %d | %d | %d / %d | %.1f | %.2f | %d | %s |", c.Name, c.Version,
		len(out.Tools()), len(in.Tools()), flags, flags-typeDiffs-counts["flag-missing"], flags,
		cold.Seconds(), warm.Seconds(), n.Load(), Summary(counts))
}

// Differences compares every tool of in (a tree reflected in-process)
// with out (the same CLI from outside) and reports each difference on t:
// one of a kind that known lists (docs/external.md's known limits) is
// logged, any other fails t. It returns them all.
func Differences(t *testing.T, known map[string]bool, in, out *toolset.Served) []toolcompare.Difference {
	t.Helper()
	var sets []*pflag.FlagSet
	for _, tl := range in.List() {
		sets = append(sets, tl.Flags)
	}
	diffs := toolcompare.Tools(in.Tools(), out.Tools(), toolcompare.Annotated(sets...))
	for _, d := range diffs {
		if known[d.Kind] {
			t.Logf("known limit %s", d)
		} else {
			t.Errorf("difference not listed in docs/external.md: %s", d)
		}
	}
	return diffs
}

// Summary words counts (toolcompare.Count) by kind, in order:
// "args-arity 2, tags 51".
func Summary(counts map[string]int) string {
	var summary []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		summary = append(summary, fmt.Sprintf("%s %d", k, counts[k]))
	}
	return strings.Join(summary, ", ")
}

// calls runs each of c.Calls twice, directly first, each in a directory
// of its own, and wants the same stdout and exit code through out.
func calls(t *testing.T, c CLI, out *toolset.Served) {
	t.Helper()
	direct, viaTool := t.TempDir(), t.TempDir()
	for _, call := range c.Calls {
		argv := make([]string, len(call.Argv))
		for i, a := range call.Argv {
			argv[i] = strings.ReplaceAll(a, "$DIR", direct)
		}
		cmd := exec.Command(c.Bin, argv...)
		var stdout strings.Builder
		cmd.Stdout = &stdout
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %v: %v", c.Name, argv, err)
		}
		res, err := out.Call(context.Background(), call.Tool, json.RawMessage(strings.ReplaceAll(call.Arguments, "$DIR", viaTool)))
		if err != nil {
			t.Errorf("%s %s: %v", call.Tool, call.Arguments, err)
			continue
		}
		o, ok := res.StructuredContent.(toolset.Output)
		if !ok {
			t.Errorf("%s %s: refused before the command ran: %s", call.Tool, call.Arguments, mcptest.Text(res))
			continue
		}
		got := strings.ReplaceAll(o.Stdout, viaTool, direct)
		if got != stdout.String() || o.ExitCode != code {
			t.Errorf("%s %s: exit code %d, stdout %q (stderr %q); run directly: exit code %d, stdout %q", call.Tool, call.Arguments, o.ExitCode, got, o.Stderr, code, stdout.String())
		} else {
			t.Logf("call %s %s: exit code %d, %d bytes of stdout, as run directly", call.Tool, call.Arguments, code, len(got))
		}
	}
}

// Expanded reflects root and lists every tool expanded, as the comparison
// reads them.
func Expanded(root *cobra.Command, cfg *toolset.Config) (*toolset.Served, error) {
	ts, err := toolset.New(root, cfg)
	if err != nil {
		return nil, err
	}
	return ts.View(toolset.Listing{Expanded: true})
}

// processCounter is a slog handler that keeps the process count of the
// "reflected" log line.
type processCounter struct {
	slog.Handler
	n *atomic.Int64
}

func (h processCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "reflected" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "processes" {
				h.n.Store(a.Value.Int64())
			}
			return true
		})
	}
	return nil
}
func (h processCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h processCounter) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h processCounter) WithGroup(string) slog.Handler            { return h }
