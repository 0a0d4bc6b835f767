package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// largeTree builds a tree shaped like a large real CLI (kubectl-sized):
// 110 runnable commands in groups, 27 persistent flags with 80-200
// character usage texts, and 9 local flags per command on average, up to 36.
func largeTree() *cobra.Command {
	usage := func(i int) string {
		n := 80 + (i*37)%121 // 80..200
		s := fmt.Sprintf("persistent flag %d controls one aspect of how every command talks to the cluster; ", i)
		for len(s) < n {
			s += "more words "
		}
		return s[:n]
	}
	root := &cobra.Command{Use: "kube", Short: "a large CLI"}
	pf := root.PersistentFlags()
	for i := range 27 {
		name := fmt.Sprintf("global-%02d", i)
		switch i % 5 {
		case 0:
			pf.String(name, "", usage(i))
		case 1:
			pf.Bool(name, i%2 == 0, usage(i))
		case 2:
			pf.Duration(name, time.Duration(i)*time.Second, usage(i))
		case 3:
			pf.StringSlice(name, nil, usage(i))
		case 4:
			pf.Int(name, i, usage(i))
		}
	}
	groups := make([]*cobra.Command, 10)
	for g := range groups {
		groups[g] = &cobra.Command{Use: fmt.Sprintf("group%d", g), Short: "a group"}
		root.AddCommand(groups[g])
	}
	for c := range 110 {
		cmd := &cobra.Command{
			Use:   fmt.Sprintf("cmd%03d NAME", c),
			Short: fmt.Sprintf("command %d", c),
			Long:  strings.Repeat("A longer description of what this command does. ", 4),
			Args:  cobra.RangeArgs(0, 1+c%3),
			RunE:  noop,
		}
		// 9 on average: 36 on every 12th command, 6 elsewhere (with some 7s).
		n := 6
		switch {
		case c%12 == 0:
			n = 36
		case c%4 == 1:
			n = 7
		}
		for f := range n {
			name := fmt.Sprintf("opt-%02d", f)
			switch f % 6 {
			case 0:
				cmd.Flags().String(name, "x", "a local string flag")
			case 1:
				cmd.Flags().Int64(name, 0, "a local int64 flag")
			case 2:
				cmd.Flags().StringToString(name, nil, "a local map flag")
			case 3:
				cmd.Flags().StringArray(name, nil, "a local array flag")
			case 4:
				cmd.Flags().Uint8(name, 1, "a local uint8 flag")
			case 5:
				cmd.Flags().Float64(name, 0.5, "a local float flag")
			}
		}
		if n >= 2 {
			cmd.MarkFlagsMutuallyExclusive("opt-00", "opt-01")
		}
		groups[c%10].AddCommand(cmd)
	}
	return root
}

func localFlagCount(root *cobra.Command) (total, most int) {
	for _, g := range root.Commands() {
		for _, c := range g.Commands() {
			n := 0
			c.LocalNonPersistentFlags().VisitAll(func(*pflagFlag) { n++ })
			total += n
			most = max(most, n)
		}
	}
	return total, most
}

func TestLargeTree(t *testing.T) {
	root := largeTree()
	total, most := localFlagCount(root)
	if avg := float64(total) / 110; avg < 8.5 || avg > 9.5 || most != 36 {
		t.Fatalf("tree shape: %.1f local flags on average, %d at most; want about 9 and 36", avg, most)
	}
	ts, err := toolset.New(root, &toolset.Config{Executable: "/nonexistent/never-run"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ts.List()); n != 110 {
		t.Fatalf("%d tools, want 110; problems: %v", n, ts.Problems())
	}
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	for _, tool := range ts.List() {
		c := tool.Command
		want := 27
		c.LocalNonPersistentFlags().VisitAll(func(*pflagFlag) { want++ })
		flags := tool.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"]
		if got := len(flags.Properties); got != want {
			t.Errorf("%s: %d flags in the schema, want %d", tool.Name, got, want)
		}
		// The compact listing states the 27 inherited flags once.
		listed := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Properties["flags"]
		if got := len(listed.Properties); got != want-27 || listed.AdditionalProperties != nil {
			t.Errorf("%s: %d flags listed (additionalProperties %v), want the %d of its own and no additionalProperties", tool.Name, got, listed.AdditionalProperties, want-27)
		}
		if flags.Not == nil {
			t.Errorf("%s: mutually exclusive group not in the schema", tool.Name)
		}
		// The whole input schema resolves and validates: a call with a value
		// of the wrong type is refused by the schema, and one breaking the
		// group too.
		for args, want := range map[string]string{
			`{"flags":{"opt-01":"x"}}`:                 "invalid arguments",
			`{"flags":{"opt-00":"a","opt-01":1}}`:      "cannot be used together",
			`{"flags":{"global-00":"a","opt-01":1}}`:   "could not start",
			`{"flags":{"global-02":"1m","opt-00":""}}`: "could not start",
		} {
			res, err := fullView(ts).Call(context.Background(), tool.Name, json.RawMessage(args))
			if err != nil || !strings.Contains(resultText(res), want) {
				t.Errorf("%s %s: %v %q, want %q", tool.Name, args, err, resultText(res), want)
			}
		}
	}
}

// BenchmarkLargeTree measures building every tool of the large tree:
// go test ./bridge -run '^$' -bench LargeTree -benchmem
func BenchmarkLargeTree(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		root := largeTree()
		b.StartTimer()
		ts, err := toolset.New(root, nil)
		if err != nil || len(ts.List()) != 110 {
			b.Fatal(err, len(ts.List()))
		}
	}
}
