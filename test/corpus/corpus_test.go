package corpus

import (
	"context"
	"encoding/json"
	"flag"
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

	"github.com/cobramcp/cobramcp/external"
	"github.com/cobramcp/cobramcp/internal/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
)

var only = flag.String("cli", "", "run only the CLIs of this comma-separated list")

// processCounter is a slog handler that keeps the process count of the
// "reflected" log line.
type processCounter struct {
	slog.Handler
	n *atomic.Int64
}

func (h processCounter) Handle(ctx context.Context, r slog.Record) error {
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

// TestCorpus builds each CLI, reflects the binary from outside (cold,
// then warm from the cache) and compares every tool, in the expanded
// listing, with the in-process reflection of the tree its main builds.
// A difference of a kind docs/external.md does not list fails the test;
// the figures of the table in docs/external.md are logged.
func TestCorpus(t *testing.T) {
	known, err := toolcompare.KnownLimits("../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var rows []string
	for _, c := range CLIs() {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), c.Name) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			for _, e := range c.Env {
				t.Setenv(e, t.TempDir())
			}
			bin, err := c.Build(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			var n atomic.Int64
			opts := &external.Options{CacheDir: t.TempDir(), ProbeTimeout: time.Minute, Logger: slog.New(processCounter{n: &n})}
			start := time.Now()
			r, err := external.Load(context.Background(), bin, opts)
			if err != nil {
				t.Fatal(err)
			}
			cold := time.Since(start)
			if r.Spec.Partial {
				t.Fatalf("partial reflection (a process did not answer in time): %s", strings.Join(r.Notes, "\n"))
			}
			start = time.Now()
			if w, err := external.Load(context.Background(), bin, opts); err != nil || !w.Cached {
				t.Fatalf("warm load: cached %v, %v", w != nil && w.Cached, err)
			}
			warm := time.Since(start)
			for _, note := range r.Notes {
				t.Logf("note: %s", note)
			}
			out, err := expanded(r.Root, &toolset.Config{Executable: r.Path})
			if err != nil {
				t.Fatal(err)
			}
			in, err := expanded(c.Root(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var sets []*pflag.FlagSet
			for _, tl := range in.List() {
				sets = append(sets, tl.Flags)
			}
			flags := 0 // the flags of every tool, each tool's inherited ones too
			for _, tl := range in.Tools() {
				if f := tl.InputSchema.(*jsonschema.Schema).Properties["flags"]; f != nil {
					flags += len(f.Properties)
				}
			}
			diffs := toolcompare.Tools(in.Tools(), out.Tools(), toolcompare.Annotated(sets...))
			for _, d := range diffs {
				if known[d.Kind] {
					t.Logf("known limit %s", d)
				} else {
					t.Errorf("difference not listed in docs/external.md: %s", d)
				}
			}
			// Offline calls through the tools served from outside give
			// what the binary gives run directly. Each runs twice (the
			// direct run first), the two in directories of their own.
			direct, viaTool := t.TempDir(), t.TempDir()
			for _, call := range c.Calls {
				argv := make([]string, len(call.Argv))
				for i, a := range call.Argv {
					argv[i] = strings.ReplaceAll(a, "$DIR", direct)
				}
				cmd := exec.Command(bin, argv...)
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
				o, _ := res.StructuredContent.(toolset.Output)
				got := strings.ReplaceAll(o.Stdout, viaTool, direct)
				if got != stdout.String() || o.ExitCode != code {
					t.Errorf("%s %s: exit code %d, stdout %q (stderr %q); run directly: exit code %d, stdout %q", call.Tool, call.Arguments, o.ExitCode, got, o.Stderr, code, stdout.String())
				} else {
					t.Logf("call %s %s: exit code %d, %d bytes of stdout, as run directly", call.Tool, call.Arguments, code, len(got))
				}
			}
			counts := toolcompare.Count(diffs)
			var summary []string
			for _, k := range slices.Sorted(maps.Keys(counts)) {
				summary = append(summary, fmt.Sprintf("%s %d", k, counts[k]))
			}
			typeDiffs := counts["flag-type"] + counts["flag-custom-type"] + counts["flag-annotation"]
			row := fmt.Sprintf("| %s | %s | %d / %d | %d | %d / %d | %.1f | %.2f | %d | %s |", c.Name, c.Version,
				len(out.Tools()), len(in.Tools()), flags, flags-typeDiffs-counts["flag-missing"], flags,
				cold.Seconds(), warm.Seconds(), n.Load(), strings.Join(summary, ", "))
			t.Log(row)
			rows = append(rows, row)
		})
	}
	t.Logf("| CLI | version | tools outside / in-process | flags | types equal | cold s | warm s | processes | differences |\n%s", strings.Join(rows, "\n"))
}

// expanded reflects root and lists every tool expanded, as the comparison
// reads them.
func expanded(root *cobra.Command, cfg *toolset.Config) (*toolset.Toolset, error) {
	ts, err := toolset.New(root, cfg)
	if err != nil {
		return nil, err
	}
	return ts.View(toolset.Policy{}, toolset.Listing{Expanded: true})
}
