package corpus

import (
	"context"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
)

var only = flag.String("cli", "", "run only the CLIs of this comma-separated list")

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
			row := corpustest.Compare(t, known, corpustest.CLI{Name: c.Name, Version: c.Version, Bin: bin, Root: c.Root(), Calls: c.Calls})
			t.Log(row)
			rows = append(rows, row)
		})
	}
	t.Logf("%s\n%s", corpustest.Header, strings.Join(rows, "\n"))
}
