package realcli

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
	"github.com/spf13/pflag"
)

// buildKubectl builds ./kubectl (kubectl with the mcp group, as `make
// kubectl` does) into a temporary directory, named kubectl so that the
// root command and the tool names are kubectl's.
func buildKubectl(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "kubectl")
	cmd := exec.Command("go", "build", "-o", out, "./kubectl")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./kubectl: %v\n%s", err, b)
	}
	return out
}

// TestKubectlFromOutside reflects the built kubectl from outside (one cold
// reflection, no cache, no overlay: the built-in overlay adds what the
// in-process tree does not have) and compares every tool, in the expanded
// listing (every flag in every tool), with the in-process reflection of
// the same tree (Kubectl). Each difference is logged; one of a kind that
// docs/external.md does not list as a known limit fails the test.
func TestKubectlFromOutside(t *testing.T) {
	bin := buildKubectl(t)
	// A generous probe timeout: a loaded CI machine must not turn a slow
	// answer into a flag served as a string (a false difference).
	r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, ProbeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if r.Spec.Partial {
		t.Fatalf("the reflection of kubectl is partial (a process did not answer within a minute, twice): the comparison would report false differences; notes:\n%s", strings.Join(r.Notes, "\n"))
	}
	for _, n := range r.Notes {
		t.Logf("note: %s", n)
	}
	out, err := corpustest.Expanded(r.Root, &toolset.Config{Executable: r.Path})
	if err != nil {
		t.Fatal(err)
	}
	in, err := corpustest.Expanded(Kubectl(), nil)
	if err != nil {
		t.Fatal(err)
	}
	known, err := toolcompare.KnownLimits("../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Tools()) < 90 {
		t.Fatalf("in-process: %d tools, want kubectl's (about 100)", len(in.Tools()))
	}
	counts := toolcompare.Count(corpustest.Differences(t, known, in, out))
	if n := counts["tool-missing"] + counts["tool-extra"]; n > 0 {
		// Known limits of other CLIs (gh's groups that run though
		// their help says otherwise); kubectl's tools are all seen.
		t.Errorf("%d tools missing or extra from outside", n)
	}
	t.Logf("%d tools in-process, %d from outside; differences by kind: %s", len(in.Tools()), len(out.Tools()), corpustest.Summary(counts))

	// The overlay cobramcp ships for kubectl gives the defaults that no
	// help prints (but --cache-dir's, which depends on $HOME): with it
	// applied to the same reflection, no other default is missing.
	o, err := external.BuiltinOverlay("kubectl")
	if err != nil || o == nil {
		t.Fatalf("built-in overlay for kubectl: %v, %v", o, err)
	}
	spec, err := o.Apply(r.Spec)
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := external.Build(spec)
	tree.Use = "kubectl"
	overlaid, err := corpustest.Expanded(tree, &toolset.Config{Executable: r.Path})
	if err != nil {
		t.Fatal(err)
	}
	var sets []*pflag.FlagSet
	for _, tl := range in.List() {
		sets = append(sets, tl.Flags)
	}
	unseen := 0
	for _, d := range toolcompare.Tools(in.Tools(), overlaid.Tools(), toolcompare.Annotated(sets...)) {
		if d.Kind == "flag-default-unseen" {
			unseen++
			if !strings.HasPrefix(d.Detail, "--cache-dir:") {
				t.Errorf("with kubectl's built-in overlay: %s", d)
			}
		}
	}
	if unseen == 0 {
		t.Error("with kubectl's built-in overlay: no tool lacks --cache-dir's default; the comparison compared nothing")
	}
}
