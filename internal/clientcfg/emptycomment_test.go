package clientcfg

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDisableKeepsCommentedEmptyServers checks that disable after enable
// on a file whose servers object was there, empty, with a comment on its
// line ("mcpServers": {} // none yet), gives back the file byte for byte:
// the key stays, and so does the comment, where it was. Without a
// comment, the empty object goes with the entry (docs/clients.md).
func TestDisableKeepsCommentedEmptyServers(t *testing.T) {
	cl, ok := Lookup("cursor")
	if !ok {
		t.Fatal("no cursor client")
	}
	tests := []struct{ name, src, want string }{
		{"last member", "{\n  \"mcpServers\": {} // none yet\n}\n", ""},
		{"before another member", "{\n  \"mcpServers\": {}, // none yet\n  \"theme\": \"dark\"\n}\n", ""},
		{"block comment", "{\n  \"mcpServers\": {} /* none yet */\n}\n", ""},
		{"on one line", "{\"mcpServers\": {} /* none yet */, \"theme\": \"dark\"}", ""},
		{"no comment: removed", "{\n  \"mcpServers\": {},\n  \"theme\": \"dark\"\n}\n", "{\n  \"theme\": \"dark\"\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == "" {
				want = tt.src
			}
			path := filepath.Join(t.TempDir(), "mcp.json")
			if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			f := cl.File(path)
			if _, err := f.Set("mycli", cl.Server("/bin/mycli", []string{"mcp", "start"}, nil), false); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Remove("mycli", false); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("after enable, disable:\n%q\nwant\n%q", got, want)
			}
		})
	}
}
