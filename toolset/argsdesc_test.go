package toolset_test

import (
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// The args description is one sentence per fact, whatever the usage line
// ends with: "FILE... At least 1.", never "FILE.... At least 1.".
func TestArgsDescriptionSentences(t *testing.T) {
	tests := []struct {
		use  string
		args cobra.PositionalArgs
		want string
	}{
		{"touch FILE...", cobra.MinimumNArgs(1), "Positional arguments, in order: FILE... At least 1."},
		{"delete ID...", cobra.MinimumNArgs(1), "Positional arguments, in order: ID... At least 1."},
		{"rm ID [ID...]", cobra.MinimumNArgs(1), "Positional arguments, in order: ID [ID...]. At least 1."},
		{"get NAME", cobra.ExactArgs(1), "Positional arguments, in order: NAME. Exactly 1."},
	}
	for _, tt := range tests {
		root := &cobra.Command{Use: "app"}
		root.AddCommand(&cobra.Command{Use: tt.use, Args: tt.args, Run: func(*cobra.Command, []string) {}})
		ts := mustTools(t, root, nil)
		list := ts.List()
		if len(list) != 1 {
			t.Fatalf("%s: %d tools", tt.use, len(list))
		}
		in := toolset.Compact(list[0]).InputSchema.(*jsonschema.Schema)
		if got := in.Properties["args"].Description; got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.use, got, tt.want)
		}
	}
}
