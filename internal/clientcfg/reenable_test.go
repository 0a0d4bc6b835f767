package clientcfg

import (
	"reflect"
	"testing"
)

// TestEnableTurnsOnDisabledEntry checks that Set over an entry the user
// switched off ("disabled": true in the JSON clients, enabled = false in
// Codex's TOML) switches it on, in place, and says so (Change.Enabled);
// an entry that is on, a marker that is not a boolean, and the other
// format's marker are kept.
func TestEnableTurnsOnDisabledEntry(t *testing.T) {
	s := Server{Command: "/bin/mycli", Args: []string{"mcp", "start"}}
	tests := []struct {
		name    string
		format  Format
		src     string
		want    string
		kept    []string
		enabled string
	}{
		{"JSON disabled", JSON, `{"mcpServers":{"mycli":{"command":"a","disabled":true,"args":[]}}}`,
			`{"mcpServers":{"mycli":{"command":"/bin/mycli","disabled":false,"args":["mcp","start"]}}}`, nil, "disabled"},
		{"JSON disabled, with a comment", JSON, "{\"mcpServers\": {\n  \"mycli\": {\n    \"command\": \"a\",\n    \"args\": [],\n    \"disabled\": true // off for now\n  }\n}}\n",
			"{\"mcpServers\": {\n  \"mycli\": {\n    \"command\": \"/bin/mycli\",\n    \"args\": [\n      \"mcp\",\n      \"start\"\n    ],\n    \"disabled\": false // off for now\n  }\n}}\n", nil, "disabled"},
		{"JSON not disabled", JSON, `{"mcpServers":{"mycli":{"command":"a","disabled":false}}}`,
			`{"mcpServers":{"mycli":{"command":"/bin/mycli","disabled":false,"args":["mcp","start"]}}}`, []string{"disabled"}, ""},
		{"JSON marker not a boolean", JSON, `{"mcpServers":{"mycli":{"command":"a","disabled":"yes"}}}`,
			`{"mcpServers":{"mycli":{"command":"/bin/mycli","disabled":"yes","args":["mcp","start"]}}}`, []string{"disabled"}, ""},
		{"TOML enabled = false", TOML, "[mcp_servers.mycli]\ncommand = \"a\"\nenabled = false # off for now\nargs = []\n",
			"[mcp_servers.mycli]\ncommand = \"/bin/mycli\"\nenabled = true # off for now\nargs = [\"mcp\", \"start\"]\n", nil, "enabled"},
		{"TOML enabled = true", TOML, "[mcp_servers.mycli]\ncommand = \"a\"\nenabled = true\n",
			"[mcp_servers.mycli]\ncommand = \"/bin/mycli\"\nenabled = true\nargs = [\"mcp\", \"start\"]\n", []string{"enabled"}, ""},
		{"JSON enabled: false is not JSON's marker", JSON, `{"mcpServers":{"mycli":{"command":"a","enabled":false}}}`,
			`{"mcpServers":{"mycli":{"command":"/bin/mycli","enabled":false,"args":["mcp","start"]}}}`, []string{"enabled"}, ""},
		{"TOML disabled = true is not Codex's marker", TOML, "[mcp_servers.mycli]\ncommand = \"a\"\ndisabled = true\n",
			"[mcp_servers.mycli]\ncommand = \"/bin/mycli\"\ndisabled = true\nargs = [\"mcp\", \"start\"]\n", []string{"disabled"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := []string{"mcpServers"}
			if tt.format == TOML {
				key = []string{"mcp_servers"}
			}
			out, found, u, err := set(tt.format, []byte(tt.src), key, "mycli", s)
			if err != nil || !found {
				t.Fatalf("found %v, err %v", found, err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			if !reflect.DeepEqual(u.kept, tt.kept) || u.enabled != tt.enabled {
				t.Errorf("kept %q, enabled %q; want kept %q, enabled %q", u.kept, u.enabled, tt.kept, tt.enabled)
			}
		})
	}
}

// TestKeptNamesEveryVariable checks that Change.Kept names the user's
// variables that stay whether or not Set writes variables of its own.
func TestKeptNamesEveryVariable(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		src    string
		env    map[string]string
		kept   []string
	}{
		{"JSON, no variables written", JSON, `{"mcpServers":{"mycli":{"command":"a","env":{"TOKEN":"x","B":"y"},"trust":true}}}`, nil, []string{"trust", "env.B", "env.TOKEN"}},
		{"JSON, one written", JSON, `{"mcpServers":{"mycli":{"command":"a","env":{"TOKEN":"x","B":"y"},"trust":true}}}`, map[string]string{"B": "z"}, []string{"trust", "env.TOKEN"}},
		{"TOML inline, no variables written", TOML, "[mcp_servers.mycli]\ncommand = \"a\"\nenv = { TOKEN = \"x\" }\n", nil, []string{"env.TOKEN"}},
		{"TOML table, no variables written", TOML, "[mcp_servers.mycli]\ncommand = \"a\"\n\n[mcp_servers.mycli.env]\nTOKEN = \"x\"\n", nil, []string{"env.TOKEN"}},
		{"TOML dotted, no variables written", TOML, "[mcp_servers.mycli]\ncommand = \"a\"\nenv.TOKEN = \"x\"\n", nil, []string{"env.TOKEN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := []string{"mcpServers"}
			if tt.format == TOML {
				key = []string{"mcp_servers"}
			}
			s := Server{Command: "/bin/mycli", Args: []string{"mcp", "start"}, Env: tt.env}
			out, _, u, err := set(tt.format, []byte(tt.src), key, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(u.kept, tt.kept) {
				t.Errorf("kept = %q, want %q", u.kept, tt.kept)
			}
			entries, err := List(tt.format, out, key)
			if err != nil || len(entries) != 1 {
				t.Fatalf("List: %v %v", entries, err)
			}
			for _, k := range u.kept {
				if len(k) > 4 && k[:4] == "env." {
					if _, ok := entries[0].Env[k[4:]]; !ok {
						t.Errorf("Kept names %s, but the entry has no such variable: %v", k, entries[0].Env)
					}
				}
			}
		})
	}
}
