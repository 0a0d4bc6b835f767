package k3d

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	k3d "github.com/k3d-io/k3d/v5/cmd"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/external"
	"github.com/cobramcp/cobramcp/internal/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
)

// version is k3d's version, pinned in go.mod.
const version = "v5.9.0"

// call is one offline tool call and the command line it stands for; in
// both, "$DIR" is a new empty directory, the same in both.
type call struct {
	tool, arguments string
	argv            []string
}

// calls are k3d's commands that work with no docker daemon.
var calls = []call{
	{"k3d_version", `{}`, []string{"version"}},
	{"k3d_config_init", `{"flags":{"output":"$DIR/k3d.yaml"}}`, []string{"config", "init", "--output=$DIR/k3d.yaml"}},
}

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

// TestK3d builds k3d, reflects the binary from outside (cold, then warm
// from the cache) and compares every tool of the expanded listing with the
// in-process reflection of the tree k3d's main builds: a difference of a
// kind that docs/external.md's known limits do not list fails the test.
// Offline calls through the tools served from outside give what the
// binary gives run directly. The row of docs/external.md's corpus table
// is logged.
func TestK3d(t *testing.T) {
	known, err := toolcompare.KnownLimits("../../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "k3d")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/k3d-io/k3d/v5").CombinedOutput(); err != nil {
		t.Fatalf("building k3d %s: %v\n%s", version, err, b)
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
	in, err := expanded(k3d.NewCmdK3d(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Tools()) < 20 {
		t.Fatalf("in-process: only %d tools", len(in.Tools()))
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

	// Each call runs twice, directly first, each in a directory of its own.
	direct, viaTool := t.TempDir(), t.TempDir()
	for _, c := range calls {
		argv := make([]string, len(c.argv))
		for i, a := range c.argv {
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
			t.Fatalf("k3d %v: %v", argv, err)
		}
		res, err := out.Call(context.Background(), c.tool, json.RawMessage(strings.ReplaceAll(c.arguments, "$DIR", viaTool)))
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.arguments, err)
			continue
		}
		o, _ := res.StructuredContent.(toolset.Output)
		got := strings.ReplaceAll(o.Stdout, viaTool, direct)
		if got != stdout.String() || o.ExitCode != code {
			t.Errorf("%s %s: exit code %d, stdout %q (stderr %q); run directly: exit code %d, stdout %q", c.tool, c.arguments, o.ExitCode, got, o.Stderr, code, stdout.String())
		} else {
			t.Logf("call %s %s: exit code %d, %d bytes of stdout, as run directly", c.tool, c.arguments, code, len(got))
		}
	}

	counts := toolcompare.Count(diffs)
	var summary []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		summary = append(summary, fmt.Sprintf("%s %d", k, counts[k]))
	}
	typeDiffs := counts["flag-type"] + counts["flag-custom-type"] + counts["flag-annotation"]
	t.Logf("| k3d | %s | %d / %d | %d | %d / %d | %.1f | %.2f | %d | %s |", version,
		len(out.Tools()), len(in.Tools()), flags, flags-typeDiffs-counts["flag-missing"], flags,
		cold.Seconds(), warm.Seconds(), n.Load(), strings.Join(summary, ", "))
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
