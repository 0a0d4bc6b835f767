package toolset

import (
	"encoding/json"
	"testing"

	"github.com/spf13/cobra"
)

// BenchmarkDecodeInput is the per-call decoding and validation of a tool's
// arguments: positional args only (echo), and flags with positional args
// (get), in a loop and on a fresh goroutine each time.
func BenchmarkDecodeInput(b *testing.B) {
	noop := func(*cobra.Command, []string) error { return nil }
	root := &cobra.Command{Use: "kl"}
	root.PersistentFlags().StringP("namespace", "n", "default", "the namespace")
	root.PersistentFlags().Int("v", 0, "verbosity")
	echo := &cobra.Command{Use: "echo [WORD...]", RunE: noop}
	get := &cobra.Command{Use: "get TYPE [NAME...]", Args: cobra.MinimumNArgs(1), RunE: noop}
	get.Flags().StringP("output", "o", "", "output format")
	get.Flags().BoolP("all-namespaces", "A", false, "all namespaces")
	get.Flags().StringSlice("sort-by", nil, "sort by")
	root.AddCommand(echo, get)
	ts, err := New(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ tool, args string }{
		{"kl_echo", `{"args":["hello","world"]}`},
		{"kl_get", `{"flags":{"output":"json","all-namespaces":true,"sort-by":["a","b"],"namespace":"x"},"args":["pods","a"]}`},
	} {
		t, ok := ts.lookup(bc.tool)
		if !ok {
			b.Fatalf("no tool %s", bc.tool)
		}
		b.Run(bc.tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := t.decodeInput(json.RawMessage(bc.args), nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		// As a server decodes: on a goroutine of its own per call (the
		// go-sdk's), whose stack starts small and grows with the depth
		// the decoding reaches.
		b.Run(bc.tool+"/goroutine", func(b *testing.B) {
			b.ReportAllocs()
			errc := make(chan error)
			for b.Loop() {
				go func() {
					_, err := t.decodeInput(json.RawMessage(bc.args), nil, nil)
					errc <- err
				}()
				if err := <-errc; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
