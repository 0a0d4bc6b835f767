package clientcfg

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzJSONRoundTrip: on any file that parses, Set never produces a file
// the safety check rejects, and when the servers object already has other
// members, Remove after Set gives back the same bytes.
func FuzzJSONRoundTrip(f *testing.F) {
	for _, fx := range fixtures {
		if fx.format == JSON {
			f.Add(readFixture(f, fx.file))
		}
	}
	for _, name := range []string{"claude-desktop.json", "cursor-mcp.json", "gemini-settings.json", "vscode-mcp.json", "windsurf-mcp_config.json"} {
		f.Add(readFixture(f, "edited/"+name))
	}
	f.Add([]byte(`{"mcpServers":{"a":1 /* x */ , // y
}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		key := []string{"mcpServers"}
		before, err := List(JSON, src, key)
		if err != nil {
			return
		}
		out, _, err := Set(JSON, src, key, "mycli", testServer)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("Set: %v\n%q", err, src)
			}
			return
		}
		if !hasName(before, "mycli") {
			// Updating the entry just written always works.
			if _, _, err := Set(JSON, out, key, "mycli", updateServer); err != nil {
				t.Fatalf("update: %v\n%q", err, out)
			}
		}
		back, _, err := Remove(JSON, out, key, "mycli")
		if err != nil {
			t.Fatalf("Remove: %v\n%q", err, out)
		}
		if len(before) > 0 && !hasName(before, "mycli") && !bytes.Equal(back, src) {
			t.Fatalf("round trip:\n%q\n%q", src, back)
		}
	})
}

// FuzzTOMLRoundTrip is FuzzJSONRoundTrip for TOML files.
func FuzzTOMLRoundTrip(f *testing.F) {
	f.Add(readFixture(f, "codex-config.toml"))
	f.Add([]byte("a = '''\n[mcp_servers.x]\n'''\n[mcp_servers.y]\ncommand = \"z\"\n"))
	f.Add([]byte("mcp_servers = { x = { command = \"x\" } }\n"))
	f.Add([]byte("[[mcp_servers]]\nname = \"x\"\n"))
	f.Add([]byte("mcp_servers = 1\n"))
	f.Add(readFixture(f, "edited/codex-config.toml"))
	f.Add([]byte("[mcp_servers.mycli]\nenv.A = \"1\"\nargs = [\n 'x', # c\n]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		key := []string{"mcp_servers"}
		before, err := List(TOML, src, key)
		if err != nil {
			return
		}
		out, _, err := Set(TOML, src, key, "mycli", testServer)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("Set: %v\n%q", err, src)
			}
			return
		}
		if !hasName(before, "mycli") {
			// Updating the entry just written always works.
			if _, _, err := Set(TOML, out, key, "mycli", updateServer); err != nil {
				t.Fatalf("update: %v\n%q", err, out)
			}
		}
		back, _, err := Remove(TOML, out, key, "mycli")
		if err != nil {
			t.Fatalf("Remove: %v\n%q", err, out)
		}
		if !hasName(before, "mycli") && len(src) > 0 && src[len(src)-1] == '\n' && !bytes.Equal(back, src) {
			t.Fatalf("round trip:\n%q\n%q", src, back)
		}
	})
}

// updateServer differs from testServer in every member Set writes.
var updateServer = Server{Command: "/opt/mycli", Args: []string{"x"}, Env: map[string]string{"PATH": "/p", "NEW": "n"}}

func hasName(entries []Entry, name string) bool {
	for _, e := range entries {
		if e.Name == name {
			return true
		}
	}
	return false
}
