package toolset

import (
	"fmt"
	"testing"

	"github.com/spf13/cobra"
)

// TestClaimTextsBounded: the claim values a view keeps checked are
// bounded, however many distinct values its callers bring.
func TestClaimTextsBounded(t *testing.T) {
	root := &cobra.Command{Use: "kc"}
	get := &cobra.Command{Use: "get", Run: func(*cobra.Command, []string) {}}
	get.Flags().String("as", "", "impersonate")
	root.AddCommand(get)
	ts, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := ts.Lookup("kc_get")
	const flag = "as"
	var c claimTexts
	for i := range 3 * maxClaimTexts {
		if _, err := c.get(tool, Pin{Flag: flag, Claim: "email"}, fmt.Sprint("user", i)); err != nil {
			t.Fatal(err)
		}
		if len(c.m) > maxClaimTexts {
			t.Fatalf("%d values kept, want at most %d", len(c.m), maxClaimTexts)
		}
	}
}
