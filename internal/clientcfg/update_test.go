package clientcfg

import (
	"bytes"
	"errors"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of TestUpdateKeepsHandEdits")

// TestUpdateKeepsHandEdits enables mycli over an entry of that name that
// the user edited by hand (testdata/clients/edited), one per client: the
// members cobramcp does not write, the user's other environment
// variables, the comments, and everything outside the entry stay byte for
// byte (the .golden files are the expected results).
func TestUpdateKeepsHandEdits(t *testing.T) {
	tests := []struct {
		file   string
		format Format
		key    []string
		typ    string
		kept   []string
	}{
		{"claude-desktop.json", JSON, []string{"mcpServers"}, "", []string{"env.MYCLI_TOKEN"}}, // and "disabled": true switched on
		{"claude-code.json", JSON, []string{"mcpServers"}, "stdio", nil},
		{"vscode-mcp.json", JSON, []string{"servers"}, "stdio", []string{"envFile", "dev"}},
		{"cursor-mcp.json", JSON, []string{"mcpServers"}, "", []string{"disabled", "env.MYCLI_PROFILE"}},
		{"gemini-settings.json", JSON, []string{"mcpServers"}, "", []string{"cwd", "timeout", "trust", "includeTools", "env.MYCLI_TOKEN"}},
		{"codex-config.toml", TOML, []string{"mcp_servers"}, "", []string{"startup_timeout_sec", "enabled_tools", "env.MYCLI_TOKEN"}},
		{"windsurf-mcp_config.json", JSON, []string{"mcpServers"}, "", []string{"disabledTools", "disabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			orig := readFixture(t, filepath.Join("edited", tt.file))
			before, err := List(tt.format, orig, tt.key)
			if err != nil {
				t.Fatal(err)
			}
			s := testServer
			s.Type = tt.typ
			out, found, u, err := set(tt.format, orig, tt.key, "mycli", s)
			kept := u.kept
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Error("the entry was not found")
			}
			if !reflect.DeepEqual(kept, tt.kept) {
				t.Errorf("kept = %q, want %q", kept, tt.kept)
			}
			if want := map[string]string{"claude-desktop.json": "disabled"}[tt.file]; u.enabled != want {
				t.Errorf("enabled = %q, want %q (the fixtures of the other clients are on)", u.enabled, want)
			}
			golden := filepath.Join("..", "..", "testdata", "clients", "edited", tt.file+".golden")
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("result differs from %s:\n%s", golden, Diff(golden, want, out))
			}

			// The entry holds the new command and the merged variables;
			// the other servers are as they were.
			after, err := List(tt.format, out, tt.key)
			if err != nil {
				t.Fatal(err)
			}
			if len(after) != len(before) {
				t.Fatalf("servers: %v, want %v", names(after), names(before))
			}
			for i, e := range after {
				if e.Name != "mycli" {
					if !reflect.DeepEqual(e, before[i]) {
						t.Errorf("server %q changed: %+v, was %+v", e.Name, e, before[i])
					}
					continue
				}
				wantEnv := maps.Clone(before[i].Env)
				if wantEnv == nil {
					wantEnv = map[string]string{}
				}
				maps.Copy(wantEnv, s.Env)
				if e.Command != s.Command || !reflect.DeepEqual(e.Args, s.Args) || !reflect.DeepEqual(e.Env, wantEnv) || e.Type != before[i].Type && e.Type != s.Type {
					t.Errorf("entry = %+v, want command %s, args %q, env %v", e.Server, s.Command, s.Args, wantEnv)
				}
			}

			// Enabling again changes nothing; disabling removes the whole
			// entry, the hand-added members with it.
			again, _, err := Set(tt.format, out, tt.key, "mycli", s)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("a second enable changed the file (err %v):\n%s", err, Diff(tt.file, out, again))
			}
			removed, found, err := Remove(tt.format, out, tt.key, "mycli")
			if err != nil || !found {
				t.Fatalf("Remove: %v %v", found, err)
			}
			rest, _ := List(tt.format, removed, tt.key)
			for _, e := range rest {
				if e.Name == "mycli" {
					t.Error("Remove left the entry")
				}
			}
			if len(rest) != len(before)-1 {
				t.Errorf("servers after Remove: %v", names(rest))
			}
		})
	}
}

func TestJSONUpdateShapes(t *testing.T) {
	s := Server{Command: "/bin/mycli", Args: []string{"mcp", "start"}, Env: map[string]string{"A": "1"}}
	tests := []struct {
		name, src, want string
		kept            []string
	}{
		{"not an object", `{"mcpServers":{"mycli":"x"}}`, `{"mcpServers":{"mycli":{"command":"/bin/mycli","args":["mcp","start"],"env":{"A":"1"}}}}`, nil},
		{"duplicate keys: the last counts", `{"mcpServers":{"mycli":{"command":"a","trust":1},"mycli":{"command":"b","timeout":2}}}`,
			`{"mcpServers":{"mycli":{"command":"/bin/mycli","timeout":2,"args":["mcp","start"],"env":{"A":"1"}}}}`, []string{"timeout"}},
		{"empty entry", "{\n  \"mcpServers\": {\n    \"mycli\": {}\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/mycli\",\n      \"args\": [\n        \"mcp\",\n        \"start\"\n      ],\n      \"env\": {\n        \"A\": \"1\"\n      }\n    }\n  }\n}\n", nil},
		{"env not an object", `{"mcpServers":{"mycli":{"env":"x","trust":true}}}`, `{"mcpServers":{"mycli":{"env":{"A":"1"},"trust":true,"command":"/bin/mycli","args":["mcp","start"]}}}`, []string{"trust"}},
		{"user's type kept", `{"mcpServers":{"mycli":{"type":"stdio","command":"a"}}}`, `{"mcpServers":{"mycli":{"type":"stdio","command":"/bin/mycli","args":["mcp","start"],"env":{"A":"1"}}}}`, []string{"type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, found, u, err := set(JSON, []byte(tt.src), []string{"mcpServers"}, "mycli", s)
			kept := u.kept
			if err != nil || !found {
				t.Fatalf("found %v, err %v", found, err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			if !reflect.DeepEqual(kept, tt.kept) {
				t.Errorf("kept = %q, want %q", kept, tt.kept)
			}
		})
	}
}

// TestRemoteEntryLeftAlone checks that enable does not turn a remote
// server of the same name into a mix of both.
func TestRemoteEntryLeftAlone(t *testing.T) {
	tests := []struct {
		format Format
		key    []string
		src    string
	}{
		{JSON, []string{"servers"}, `{"servers":{"mycli":{"type":"http","url":"https://x"}}}`},
		{JSON, []string{"mcpServers"}, `{"mcpServers":{"mycli":{"serverUrl":"https://x"}}}`},
		{JSON, []string{"mcpServers"}, `{"mcpServers":{"mycli":{"type":"sse"}}}`},
		{TOML, []string{"mcp_servers"}, "[mcp_servers.mycli]\nurl = \"https://x\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			out, _, err := Set(tt.format, []byte(tt.src), tt.key, "mycli", testServer)
			if !errors.Is(err, ErrRemoteEntry) || out != nil {
				t.Errorf("Set = %q, %v; want ErrRemoteEntry", out, err)
			}
		})
	}
}
