package clientcfg

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fixtures are files shaped like real users' configurations, one per
// client (testdata/clients at the repository root).
var fixtures = []struct {
	file   string
	format Format
	key    []string
	typ    string
}{
	{"claude-desktop.json", JSON, []string{"mcpServers"}, ""},
	{"claude-code-user.json", JSON, []string{"mcpServers"}, "stdio"},
	{"claude-code-project.json", JSON, []string{"mcpServers"}, "stdio"},
	{"vscode-mcp.json", JSON, []string{"servers"}, "stdio"},
	{"vscode-workspace-mcp.json", JSON, []string{"servers"}, "stdio"},
	{"cursor-mcp.json", JSON, []string{"mcpServers"}, ""},
	{"gemini-settings.json", JSON, []string{"mcpServers"}, ""},
	{"codex-config.toml", TOML, []string{"mcp_servers"}, ""},
	{"windsurf-mcp_config.json", JSON, []string{"mcpServers"}, ""},
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "clients", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testServer = Server{
	Command: "/usr/local/bin/mycli",
	Args:    []string{"mcp", "start", "--tools", "mycli_get_*"},
	Env:     map[string]string{"PATH": "/usr/local/bin:/usr/bin", "KUBECONFIG": `C:\Users\a "b"\kube`},
}

func names(entries []Entry) []string {
	var n []string
	for _, e := range entries {
		n = append(n, e.Name)
	}
	return n
}

// TestRoundTrip adds a server to every fixture, checks the entry and the
// other servers, replaces it, then removes it and expects the original
// bytes back.
func TestRoundTrip(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.file, func(t *testing.T) {
			orig := readFixture(t, fx.file)
			before, err := List(fx.format, orig, fx.key)
			if err != nil {
				t.Fatal(err)
			}
			if len(before) < 2 {
				t.Fatalf("fixture has %d servers, want several", len(before))
			}
			s := testServer
			s.Type = fx.typ
			added, found, err := Set(fx.format, orig, fx.key, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if found {
				t.Error("Set reported a replacement on a fixture without mycli")
			}
			if !bytes.HasPrefix(added, commonPrefix(orig, added)) || !bytes.Contains(added, []byte("mycli")) {
				t.Errorf("entry not written:\n%s", added)
			}
			after, err := List(fx.format, added, fx.key)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := names(after), append(names(before), "mycli"); !reflect.DeepEqual(got, want) {
				t.Errorf("servers after Set = %v, want %v", got, want)
			}
			if !reflect.DeepEqual(after[:len(before)], before) {
				t.Errorf("other servers changed:\n got %+v\nwant %+v", after[:len(before)], before)
			}
			if got := after[len(after)-1].Server; !reflect.DeepEqual(got, s) {
				t.Errorf("written entry = %+v, want %+v", got, s)
			}

			// Replacing keeps the place and reports it.
			s2 := s
			s2.Args = []string{"mcp", "start"}
			s2.Env = nil
			replaced, found, err := Set(fx.format, added, fx.key, "mycli", s2)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Error("Set did not report the replacement")
			}
			again, _ := List(fx.format, replaced, fx.key)
			want := s2
			want.Env = s.Env // an update keeps the variables it does not set
			if got := again[len(again)-1]; got.Name != "mycli" || !reflect.DeepEqual(got.Server, want) || len(again) != len(after) {
				t.Errorf("after replace: %+v", again)
			}

			removed, found, err := Remove(fx.format, replaced, fx.key, "mycli")
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Error("Remove did not find mycli")
			}
			if !bytes.Equal(removed, orig) {
				t.Errorf("enable then disable changed the file:\n%s", Diff(fx.file, orig, removed))
			}
			same, found, err := Remove(fx.format, orig, fx.key, "mycli")
			if err != nil || found || !bytes.Equal(same, orig) {
				t.Errorf("Remove of an absent server: found=%v err=%v changed=%v", found, err, !bytes.Equal(same, orig))
			}
		})
	}
}

func commonPrefix(a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

func TestCommentsKept(t *testing.T) {
	orig := readFixture(t, "vscode-mcp.json")
	out, _, err := Set(JSON, orig, []string{"servers"}, "mycli", testServer)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"// VS Code user MCP configuration.", "// Web search through Perplexity", "/* Remote GitHub server (OAuth). */"} {
		if !bytes.Contains(out, []byte(c)) {
			t.Errorf("comment %q lost", c)
		}
	}
	// The comment after the last server stays on that server's line.
	if !bytes.Contains(out, []byte("}, // trailing comment on the last server\n\t\t\"mycli\": {")) {
		t.Errorf("trailing comment moved:\n%s", out)
	}
	// Tabs, as in the file.
	if !bytes.Contains(out, []byte("\n\t\t\"mycli\": {\n\t\t\t\"command\": \"/usr/local/bin/mycli\",\n")) {
		t.Errorf("indentation not followed:\n%s", out)
	}
}

func TestJSONShapes(t *testing.T) {
	s := Server{Command: "/bin/mycli", Args: []string{"mcp", "start"}}
	tests := []struct {
		name, src, want string
	}{
		{"new file", "", "{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/mycli\",\n      \"args\": [\n        \"mcp\",\n        \"start\"\n      ]\n    }\n  }\n}\n"},
		{"empty object", "{}\n", "{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/mycli\",\n      \"args\": [\n        \"mcp\",\n        \"start\"\n      ]\n    }\n  }\n}\n"},
		{"no container", "{\n    \"theme\": \"dark\"\n}\n", "{\n    \"theme\": \"dark\",\n    \"mcpServers\": {\n        \"mycli\": {\n            \"command\": \"/bin/mycli\",\n            \"args\": [\n                \"mcp\",\n                \"start\"\n            ]\n        }\n    }\n}\n"},
		{"empty container", "{\"mcpServers\": {}}", "{\"mcpServers\": {\"mycli\": {\"command\": \"/bin/mycli\", \"args\": [\"mcp\", \"start\"]}}}"},
		{"one line", `{"a":1,"mcpServers":{"x":{"command":"y"}}}`, `{"a":1,"mcpServers":{"x":{"command":"y"},"mycli":{"command":"/bin/mycli","args":["mcp","start"]}}}`},
		{"crlf", "{\r\n  \"mcpServers\": {\r\n    \"x\": {}\r\n  }\r\n}\r\n", "{\r\n  \"mcpServers\": {\r\n    \"x\": {},\r\n    \"mycli\": {\r\n      \"command\": \"/bin/mycli\",\r\n      \"args\": [\r\n        \"mcp\",\r\n        \"start\"\r\n      ]\r\n    }\r\n  }\r\n}\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := Set(JSON, []byte(tt.src), []string{"mcpServers"}, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", out, tt.want)
			}
			back, found, err := Remove(JSON, out, []string{"mcpServers"}, "mycli")
			if err != nil || !found {
				t.Fatalf("Remove: found=%v err=%v", found, err)
			}
			if tt.src != "" && tt.name != "empty container" && tt.name != "empty object" && string(back) != tt.src {
				t.Errorf("round trip:\n%q\nwant\n%q", back, tt.src)
			}
		})
	}
}

func TestEditErrors(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		src    string
		want   string
	}{
		{"malformed json", JSON, string(readFixture(t, "malformed.json")), "not valid JSON: line 4"},
		{"top level array", JSON, "[]", "top level is not a JSON object"},
		{"container not object", JSON, `{"mcpServers": []}`, `"mcpServers" is not a JSON object`},
		{"malformed toml", TOML, string(readFixture(t, "malformed.toml")), "not valid TOML: line 2"},
		{"inline table", TOML, "mcp_servers = { mycli = { command = \"x\" } }\n", "inline table or dotted keys"},
		{"dotted keys", TOML, "[mcp_servers]\nmycli.command = \"x\"\n", "inline table or dotted keys"},
		{"servers inline", TOML, "mcp_servers = { other = { command = \"x\" } }\n", `"mcp_servers" is written as an inline table`},
		{"servers array of tables", TOML, "[[mcp_servers]]\nname = \"x\"\n", `"mcp_servers" is not a table`},
		{"servers a value", TOML, "mcp_servers = 1\n", `"mcp_servers" is not a table`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Set(tt.format, []byte(tt.src), map[Format][]string{JSON: {"mcpServers"}, TOML: {"mcp_servers"}}[tt.format], "mycli", testServer)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestTOMLShapes(t *testing.T) {
	key := []string{"mcp_servers"}
	s := Server{Command: `C:\bin\my cli.exe`, Args: []string{"mcp", "start"}, Env: map[string]string{"PATH": "/bin", "A B": "x\ty"}}
	tests := []struct{ name, src, want string }{
		{"new file", "", "[mcp_servers.mycli]\ncommand = \"C:\\\\bin\\\\my cli.exe\"\nargs = [\"mcp\", \"start\"]\nenv = { \"A B\" = \"x\\ty\", PATH = \"/bin\" }\n"},
		{"no final newline", "model = \"x\"", "model = \"x\"\n\n[mcp_servers.mycli]\ncommand = \"C:\\\\bin\\\\my cli.exe\"\nargs = [\"mcp\", \"start\"]\nenv = { \"A B\" = \"x\\ty\", PATH = \"/bin\" }\n"},
		{"header comment kept", "[mcp_servers.mycli] # note\ncommand = \"old\"\n", "[mcp_servers.mycli] # note\ncommand = \"C:\\\\bin\\\\my cli.exe\"\nargs = [\"mcp\", \"start\"]\nenv = { \"A B\" = \"x\\ty\", PATH = \"/bin\" }\n"},
		{"update keeps other members", "[mcp_servers.mycli] # mine\ncommand = \"old\" # old path\nstartup_timeout_sec = 20\nargs = [\n  \"x\",\n  \"y\",\n]\nenabled_tools = [\"a\", \"b\"] # only these\n", "[mcp_servers.mycli] # mine\ncommand = \"C:\\\\bin\\\\my cli.exe\" # old path\nstartup_timeout_sec = 20\nargs = [\"mcp\", \"start\"]\nenabled_tools = [\"a\", \"b\"] # only these\nenv = { \"A B\" = \"x\\ty\", PATH = \"/bin\" }\n"},
		{"inline env merged in order", "[mcp_servers.mycli]\ncommand = \"old\"\nargs = []\nenv = { TOKEN = 'abc', PATH = \"/old\" } # keep\n\n[tui]\n", "[mcp_servers.mycli]\ncommand = \"C:\\\\bin\\\\my cli.exe\"\nargs = [\"mcp\", \"start\"]\nenv = { TOKEN = 'abc', PATH = \"/bin\", \"A B\" = \"x\\ty\" } # keep\n\n[tui]\n"},
		{"dotted env", "[mcp_servers.mycli]\n  command = \"old\"\n  env.PATH = \"/old\"\n  env.TOKEN = \"t\"\n  tool_timeout_sec = 5", "[mcp_servers.mycli]\n  command = \"C:\\\\bin\\\\my cli.exe\"\n  env.PATH = \"/bin\"\n  env.TOKEN = \"t\"\n  env.\"A B\" = \"x\\ty\"\n  tool_timeout_sec = 5\n  args = [\"mcp\", \"start\"]"},
		{"crlf", "[mcp_servers.mycli]\r\ncommand = \"old\"\r\ndisabled = true\r\n", "[mcp_servers.mycli]\r\ncommand = \"C:\\\\bin\\\\my cli.exe\"\r\ndisabled = true\r\nargs = [\"mcp\", \"start\"]\r\nenv = { \"A B\" = \"x\\ty\", PATH = \"/bin\" }\r\n"},
		{"replace in place", "[mcp_servers.mycli]\ncommand = \"old\"\n\n[mcp_servers.mycli.env]\nX = \"1\"\n\n[tui]\nx = 1\n", "[mcp_servers.mycli]\ncommand = \"C:\\\\bin\\\\my cli.exe\"\nargs = [\"mcp\", \"start\"]\n\n[mcp_servers.mycli.env]\nX = \"1\"\n\"A B\" = \"x\\ty\"\nPATH = \"/bin\"\n\n[tui]\nx = 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := Set(TOML, []byte(tt.src), key, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			want := s
			if before, _ := List(TOML, []byte(tt.src), key); len(before) == 1 && before[0].Env != nil {
				want.Env = maps.Clone(before[0].Env) // the user's variables stay
				maps.Copy(want.Env, s.Env)
			}
			entries, err := List(TOML, out, key)
			if err != nil || len(entries) != 1 || !reflect.DeepEqual(entries[0].Server, want) {
				t.Errorf("List = %+v, %v", entries, err)
			}
		})
	}
	// Servers under dotted keys at the top level take a new [table].
	dotted := "mcp_servers.other.command = \"y\"\n"
	if out, _, err := Set(TOML, []byte(dotted), key, "mycli", s); err != nil || !bytes.HasPrefix(out, []byte(dotted+"\n[mcp_servers.mycli]\n")) {
		t.Errorf("Set beside dotted keys = %q, %v", out, err)
	}
	// A header inside a multi-line string is not a table.
	src := readFixture(t, "codex-config.toml")
	out, found, err := Remove(TOML, src, key, "not_a_table")
	if err != nil || found || !bytes.Equal(out, src) {
		t.Errorf("Remove(not_a_table) = found %v, err %v", found, err)
	}
	// Removing a server whose env is a sub-table takes both tables and
	// nothing else.
	out, found, err = Remove(TOML, src, key, "github")
	if err != nil || !found {
		t.Fatalf("Remove(github): %v %v", found, err)
	}
	if bytes.Contains(out, []byte("github")) || !bytes.Contains(out, []byte("# Remote server\n[mcp_servers.figma]")) || !bytes.Contains(out, []byte("[mcp_servers.context7]\ncommand = \"npx\"\nargs = [\"-y\", \"@upstash/context7-mcp\"]\n\n# Remote server")) {
		t.Errorf("Remove(github):\n%s", out)
	}
}

func TestFileWrites(t *testing.T) {
	dir := t.TempDir()
	orig := readFixture(t, "cursor-mcp.json")
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, orig, 0o640); err != nil {
		t.Fatal(err)
	}
	f := File{Path: path, Format: JSON, Key: []string{"mcpServers"}}

	ch, err := f.Set("mycli", testServer, true)
	if err != nil || ch.Written || !ch.Changed() {
		t.Fatalf("dry run: %+v %v", ch, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Fatal("dry run wrote the file")
	}
	if d := Diff(path, ch.Before, ch.After); !strings.Contains(d, "+        \"mycli\": {") {
		t.Errorf("diff:\n%s", d)
	}

	ch, err = f.Set("mycli", testServer, false)
	if err != nil || !ch.Written || ch.Found {
		t.Fatalf("Set: %+v %v", ch, err)
	}
	if b, _ := os.ReadFile(path + ".bak"); !bytes.Equal(b, orig) {
		t.Error("backup does not hold the previous version")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) != 0 {
		t.Errorf("temporary or lock files left: %v", leftovers)
	}
	ch, err = f.Remove("mycli", false)
	if err != nil || !ch.Found {
		t.Fatalf("Remove: %+v %v", ch, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Error("enable then disable did not restore the file")
	}
	ch, err = f.Remove("mycli", false)
	if err != nil || ch.Found || ch.Written {
		t.Errorf("second Remove: %+v %v", ch, err)
	}
}

func TestMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	f := File{Path: filepath.Join(dir, "a", "b", "mcp.json"), Format: JSON, Key: []string{"servers"}}
	ch, err := f.Remove("mycli", false)
	if err != nil || ch.Found {
		t.Fatalf("Remove from a missing file: %+v %v", ch, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !errors.Is(err, os.ErrNotExist) {
		t.Error("Remove created the directory")
	}
	if _, err := f.Set("mycli", testServer, false); err != nil {
		t.Fatal(err)
	}
	entries, err := f.List()
	if err != nil || len(entries) != 1 || entries[0].Command != testServer.Command {
		t.Errorf("List = %+v %v", entries, err)
	}
	if _, err := os.Stat(f.Path + ".bak"); !errors.Is(err, os.ErrNotExist) {
		t.Error("a backup was written for a new file")
	}
}

func TestReadOnlyAndMalformedFilesUntouched(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, fixture string
		mode          os.FileMode
		format        Format
		want          string
	}{
		{"read-only", "windsurf-mcp_config.json", 0o444, JSON, "read-only"},
		{"malformed json", "malformed.json", 0o644, JSON, "not valid JSON"},
		{"malformed toml", "malformed.toml", 0o644, TOML, "not valid TOML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := readFixture(t, tt.fixture)
			path := filepath.Join(dir, tt.fixture)
			if err := os.WriteFile(path, orig, tt.mode); err != nil {
				t.Fatal(err)
			}
			f := File{Path: path, Format: tt.format, Key: []string{"mcpServers"}}
			_, err := f.Set("mycli", testServer, false)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want one naming %s and saying %q", err, path, tt.want)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
				t.Error("file changed")
			}
			if _, err := os.Stat(path + ".bak"); !errors.Is(err, os.ErrNotExist) {
				t.Error("backup written")
			}
		})
	}
}

func TestSymlinkKept(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "mcp.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("{}\n"), 0o644)
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := (File{Path: link, Format: JSON, Key: []string{"mcpServers"}}).Set("mycli", testServer, false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced")
	}
	if b, _ := os.ReadFile(target); !bytes.Contains(b, []byte("mycli")) {
		t.Error("the link's target was not edited")
	}
}

// TestConcurrentSet runs many writers on one file at once: each change
// must be there at the end, and the file must parse.
func TestConcurrentSet(t *testing.T) {
	for _, fx := range []struct {
		fixture string
		format  Format
		key     []string
	}{
		{"gemini-settings.json", JSON, []string{"mcpServers"}},
		{"codex-config.toml", TOML, []string{"mcp_servers"}},
	} {
		t.Run(fx.fixture, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), fx.fixture)
			os.WriteFile(path, readFixture(t, fx.fixture), 0o600)
			f := File{Path: path, Format: fx.format, Key: fx.key}
			const n = 12
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := f.Set(fmt.Sprintf("srv%d", i), testServer, false)
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			entries, err := f.List()
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, e := range entries {
				got[e.Name] = true
			}
			for i := range n {
				if !got[fmt.Sprintf("srv%d", i)] {
					t.Errorf("srv%d lost", i)
				}
			}
		})
	}
}

func TestClientPaths(t *testing.T) {
	h := Host{GOOS: "linux", Home: "/h", ConfigDir: "/h/.config", WorkDir: "/p", Getenv: func(string) string { return "" }}
	want := map[string][2]string{
		"claude":      {"/h/.config/Claude/claude_desktop_config.json", ""},
		"claude-code": {"/h/.claude.json", "/p/.mcp.json"},
		"vscode":      {"/h/.config/Code/User/mcp.json", "/p/.vscode/mcp.json"},
		"cursor":      {"/h/.cursor/mcp.json", "/p/.cursor/mcp.json"},
		"gemini":      {"/h/.gemini/settings.json", "/p/.gemini/settings.json"},
		"codex":       {"/h/.codex/config.toml", "/p/.codex/config.toml"},
		"windsurf":    {"/h/.codeium/windsurf/mcp_config.json", ""},
	}
	if len(Clients()) != len(want) {
		t.Errorf("%d clients, want %d", len(Clients()), len(want))
	}
	for _, c := range Clients() {
		w := want[c.ID]
		got, err := c.Path(h, User)
		if err != nil || filepath.ToSlash(got) != w[0] {
			t.Errorf("%s user = %q %v, want %q", c.ID, got, err, w[0])
		}
		got, err = c.Path(h, Project)
		if w[1] == "" {
			if err == nil || len(c.Scopes()) != 1 {
				t.Errorf("%s has a project scope: %q", c.ID, got)
			}
		} else if err != nil || filepath.ToSlash(got) != w[1] {
			t.Errorf("%s project = %q %v, want %q", c.ID, got, err, w[1])
		}
	}
	h.Getenv = func(k string) string { return map[string]string{"CODEX_HOME": "/ch"}[k] }
	codex, _ := Lookup("codex")
	if got, _ := codex.Path(h, User); filepath.ToSlash(got) != "/ch/config.toml" {
		t.Errorf("CODEX_HOME ignored: %s", got)
	}
}

func TestByteOrderMarkKept(t *testing.T) {
	for _, tt := range []struct {
		format Format
		src    string
		key    []string
	}{
		{JSON, "\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"x\": {\"command\": \"y\"}\r\n  }\r\n}\r\n", []string{"mcpServers"}},
		{TOML, "\xef\xbb\xbfmodel = \"m\"\n", []string{"mcp_servers"}},
	} {
		out, _, err := Set(tt.format, []byte(tt.src), tt.key, "mycli", testServer)
		if err != nil {
			t.Fatalf("%v: %v", tt.format, err)
		}
		if !bytes.HasPrefix(out, bom) || bytes.Count(out, bom) != 1 {
			t.Errorf("%v: byte order mark not kept once: %q", tt.format, out[:8])
		}
		if entries, err := List(tt.format, out, tt.key); err != nil || len(entries) == 0 || entries[len(entries)-1].Name != "mycli" {
			t.Errorf("%v: List = %v %v", tt.format, entries, err)
		}
		back, _, err := Remove(tt.format, out, tt.key, "mycli")
		if err != nil || string(back) != tt.src {
			t.Errorf("%v: round trip %q %v", tt.format, back, err)
		}
	}
}

func TestJSONRemoveKeepsComments(t *testing.T) {
	key := []string{"mcpServers"}
	tests := []struct{ name, src, want string }{
		{"middle member", "{\"mcpServers\": {\n  \"a\": 1, // about a\n  \"mycli\": 2,\n  \"b\": 3\n}}",
			"{\"mcpServers\": {\n  \"a\": 1, // about a\n  \"b\": 3\n}}"},
		{"own-line comment goes with the entry", "{\"mcpServers\": {\n  \"a\": 1,\n  // mycli's server\n  \"mycli\": 2\n}}",
			"{\"mcpServers\": {\n  \"a\": 1\n}}"},
		{"line comment before a compact close", "{\"mcpServers\":{\"a\":1, // c\n\"mycli\":2}}",
			"{\"mcpServers\":{\"a\":1 // c\n}}"},
		{"line comment before a compact next", "{\"mcpServers\":{\"a\":1, // c\n\"mycli\":2,\"b\":3}}",
			"{\"mcpServers\":{\"a\":1, // c\n\"b\":3}}"},
		{"only member under a comment", "{\"mcpServers\": { // none yet\n  \"mycli\": 2\n}}",
			"{\"mcpServers\": { // none yet\n}}"},
		{"block comment before it on one line stays", "{\"mcpServers\": {\"a\": 1, /* about a */ \"mycli\": 2}}",
			"{\"mcpServers\": {\"a\": 1 /* about a */}}"},
		{"block comment before it on one line, next member", "{\"mcpServers\": {\"a\": 1, /* about a */ \"mycli\": 2, \"b\": 3}}",
			"{\"mcpServers\": {\"a\": 1, /* about a */ \"b\": 3}}"},
		{"empty container removed", "{\"theme\": 1, \"mcpServers\": {\"mycli\": 2}}", "{\"theme\": 1}"},
		{"duplicate keys all removed", "{\"mcpServers\": {\"mycli\": 1, \"a\": 0, \"mycli\": 2}}", "{\"mcpServers\": { \"a\": 0}}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, found, err := Remove(JSON, []byte(tt.src), key, "mycli")
			if err != nil || !found {
				t.Fatalf("Remove: %v %v", found, err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", out, tt.want)
			}
		})
	}
	// An empty container holding a comment: add, then remove, gives it back.
	src := "{\n  \"mcpServers\": { // none yet\n  }\n}\n"
	out, _, err := Set(JSON, []byte(src), key, "mycli", testServer)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := Remove(JSON, out, key, "mycli")
	if err != nil || string(back) != src {
		t.Errorf("round trip through a commented empty container:\n%s\n%q %v", out, back, err)
	}
	// Duplicate keys: Set keeps one.
	out, found, err := Set(JSON, []byte(`{"mcpServers": {"mycli": 1, "mycli": 2}}`), key, "mycli", testServer)
	if err != nil || !found || bytes.Count(out, []byte(`"mycli"`)) != 1 {
		t.Errorf("Set on duplicates: %s %v %v", out, found, err)
	}
}

// TestAwkwardNames round-trips names that need quoting in TOML keys or
// escaping in JSON, in every fixture, and in a CRLF TOML file.
func TestAwkwardNames(t *testing.T) {
	crlf := strings.ReplaceAll(string(readFixture(t, "codex-config.toml")), "\n", "\r\n")
	type doc struct {
		name   string
		src    []byte
		format Format
		key    []string
	}
	docs := []doc{{"codex crlf", []byte(crlf), TOML, []string{"mcp_servers"}}}
	for _, fx := range fixtures {
		docs = append(docs, doc{fx.file, readFixture(t, fx.file), fx.format, fx.key})
	}
	for _, d := range docs {
		for _, name := range []string{"my server", "a.b", `q"uote`, "ünï-cødé", "back\\slash", "github"} {
			t.Run(d.name+"/"+name, func(t *testing.T) {
				before, _ := List(d.format, d.src, d.key)
				wantEnv := maps.Clone(testServer.Env)
				for _, e := range before {
					if e.Name == name {
						if e.URL != "" { // a remote server is left alone
							out, _, err := Set(d.format, d.src, d.key, name, testServer)
							if !errors.Is(err, ErrRemoteEntry) || out != nil {
								t.Errorf("Set over a remote server: err = %v, want ErrRemoteEntry", err)
							}
							return
						}
						wantEnv = maps.Clone(e.Env) // the user's variables stay
						maps.Copy(wantEnv, testServer.Env)
					}
				}
				out, _, err := Set(d.format, d.src, d.key, name, testServer)
				if err != nil {
					t.Fatal(err)
				}
				if d.format == TOML && d.name == "codex crlf" && strings.Contains(strings.ReplaceAll(string(out), "\r\n", ""), "\n") {
					t.Error("a bare \\n in a CRLF file")
				}
				entries, err := List(d.format, out, d.key)
				if err != nil {
					t.Fatal(err)
				}
				var got *Entry
				for i := range entries {
					if entries[i].Name == name {
						got = &entries[i]
					}
				}
				if got == nil || got.Command != testServer.Command || !reflect.DeepEqual(got.Env, wantEnv) {
					t.Fatalf("entry %q = %+v", name, got)
				}
				back, found, err := Remove(d.format, out, d.key, name)
				if err != nil || !found {
					t.Fatalf("Remove: %v %v", found, err)
				}
				after, _ := List(d.format, back, d.key)
				if slices.Contains(names(before), name) { // replaced, then removed
					if len(after) != len(before)-1 {
						t.Errorf("servers: %d, want %d", len(after), len(before)-1)
					}
					return
				}
				if !bytes.Equal(back, d.src) {
					t.Errorf("round trip changed the file:\n%s", Diff(d.name, d.src, back))
				}
			})
		}
	}
}

func TestTOMLHeadersOnlyAtTopLevel(t *testing.T) {
	src := "[mcp_servers.mycli]\ncommand = \"x\"\nmatrix = [\n  [1],\n  [2]\n]\nnote = '''\n[tui]\n'''\n\n[tui]\nx = 1 # [not.a.header]\n"
	lines := scanTOML([]byte(src))
	var headers []string
	for _, l := range lines {
		if l.header != nil {
			headers = append(headers, strings.Join(l.header, "."))
		}
	}
	if want := []string{"mcp_servers.mycli", "tui"}; !reflect.DeepEqual(headers, want) {
		t.Errorf("headers = %q, want %q", headers, want)
	}
	out, found, err := Remove(TOML, []byte(src), []string{"mcp_servers"}, "mycli")
	if err != nil || !found || string(out) != "[tui]\nx = 1 # [not.a.header]\n" {
		t.Errorf("Remove = %q %v %v", out, found, err)
	}
}

// TestNotAFileErrors checks the error for a path that is a directory: it
// says so and names the path once.
func TestNotAFileErrors(t *testing.T) {
	dir := t.TempDir()
	f := File{Path: dir, Format: JSON, Key: []string{"mcpServers"}}
	_, err := f.List()
	if err == nil || !strings.Contains(err.Error(), "is a directory") || strings.Count(err.Error(), dir) != 1 {
		t.Errorf("List err = %v, want one saying it is a directory and naming %s once", err, dir)
	}
	_, err = f.Set("mycli", testServer, true)
	if err == nil || !strings.Contains(err.Error(), "is a directory") || strings.Count(err.Error(), dir) != 1 {
		t.Errorf("Set err = %v, want one saying it is a directory and naming %s once", err, dir)
	}
}

// TestListMatchesNamesExactly: the clients read "command" and "args", not
// "Command" or "ARGS"; List did not care for case (encoding/json), so it
// showed a command no client runs, and failed on another server's
// "Args": false.
func TestListMatchesNamesExactly(t *testing.T) {
	src := []byte(`{"mcpServers": {"a": {"Command": "x", "command": "y", "ARGS": 1, "args": ["z"]}, "b": {"command": "c", "Args": false}}}`)
	got, err := List(JSON, src, []string{"mcpServers"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"a", Server{Command: "y", Args: []string{"z"}}}, {"b", Server{Command: "c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List = %+v, want %+v", got, want)
	}
	if _, err := List(JSON, []byte(`{"mcpServers": {"a": {"args": "x"}}}`), []string{"mcpServers"}); err == nil || !strings.Contains(err.Error(), `server "a": "args"`) {
		t.Errorf("a wrong type: err = %v", err)
	}
}

// TestByteOrderMarkAloneKept: removing the only table of a TOML file
// that starts with a byte order mark left the file empty, without it.
func TestByteOrderMarkAloneKept(t *testing.T) {
	for _, src := range []string{"\xef\xbb\xbf", "\xef\xbb\xbf[mcp_servers.mycli]\ncommand = \"x\"\n"} {
		out, found, err := Remove(TOML, []byte(src), []string{"mcp_servers"}, "mycli")
		if err != nil || string(out) != "\xef\xbb\xbf" || found != (len(src) > 3) {
			t.Errorf("Remove(%q) = %q, %v, %v; want the byte order mark alone", src, out, found, err)
		}
	}
}

// TestDisableDeletesWhatEnableCreated: enable on a missing file, then
// disable, leaves no file (it left "{}\n", or an empty config.toml), for
// every client; the previous version stays in the backup. A file that
// holds anything else, one with a byte order mark and a symbolic link are
// kept.
func TestDisableDeletesWhatEnableCreated(t *testing.T) {
	for _, cl := range Clients() {
		t.Run(cl.ID, func(t *testing.T) {
			dir := t.TempDir()
			f := cl.File(filepath.Join(dir, "sub", "config"))
			s := roundTripServer(cl)
			if _, err := f.Set("mycli", s, false); err != nil {
				t.Fatal(err)
			}
			enabled, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			dry, err := f.Remove("mycli", true)
			if err != nil || !dry.Deleted || dry.After != nil || !dry.Changed() || dry.Written {
				t.Fatalf("dry run: %+v %v", dry, err)
			}
			if _, err := os.Stat(f.Path); err != nil {
				t.Fatalf("the dry run deleted the file: %v", err)
			}
			ch, err := f.Remove("mycli", false)
			if err != nil || !ch.Found || !ch.Deleted {
				t.Fatalf("Remove: %+v %v", ch, err)
			}
			if _, err := os.Stat(f.Path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the file is still there: %v", err)
			}
			if b, err := os.ReadFile(ch.Backup); err != nil || !bytes.Equal(b, enabled) {
				t.Errorf("backup %s: %q %v, want the enabled file", ch.Backup, b, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "sub", "*")); len(left) != 1 || left[0] != f.Path+".bak" {
				t.Errorf("left in the directory: %v, want the backup alone", left)
			}
			if ch, err := f.Remove("mycli", false); err != nil || ch.Found || ch.Deleted {
				t.Errorf("second Remove: %+v %v", ch, err)
			}

			// A symbolic link stays, and its target gets the skeleton.
			target := filepath.Join(dir, "target")
			link := filepath.Join(dir, "link")
			if err := os.WriteFile(target, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			lf := cl.File(link)
			if _, err := lf.Set("mycli", s, false); err != nil {
				t.Fatal(err)
			}
			if ch, err := lf.Remove("mycli", false); err != nil || ch.Deleted {
				t.Errorf("Remove through a link: %+v %v", ch, err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link is gone: %v", err)
			}
			if b, err := os.ReadFile(target); err != nil || !skeleton(cl.Format, b) {
				t.Errorf("target: %q %v", b, err)
			}

			// Kept: anything else in the file, a byte order mark. (A file
			// holding exactly "{}\n" before enable reads as none: enable
			// writes the same bytes into it as into a missing file.)
			keep := map[Format][]string{
				JSON: {"{} \n", "{}", "\xef\xbb\xbf{}\n", "// mine\n{}\n", "{\"a\": 1}\n"},
				TOML: {"\xef\xbb\xbf", "\n", "# mine\n", "a = 1\n"},
			}[cl.Format]
			for _, src := range keep {
				if err := os.WriteFile(f.Path, []byte(src), 0o600); err != nil {
					t.Fatal(err)
				}
				if _, err := f.Set("mycli", s, false); err != nil {
					t.Fatal(err)
				}
				ch, err := f.Remove("mycli", false)
				if err != nil || ch.Deleted {
					t.Errorf("%q: Remove %+v %v", src, ch, err)
					continue
				}
				b, err := os.ReadFile(f.Path)
				if err != nil {
					t.Errorf("%q: %v", src, err)
				} else if string(b) != src {
					t.Errorf("%q: left %q", src, b)
				}
			}
			// Kept too: a file holding only the server, laid out otherwise
			// than enable writes it (written by hand or by the client's
			// own command, perhaps tracked in git): it keeps the skeleton.
			own, _, err := Set(cl.Format, nil, f.Key, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			other := strings.Join(strings.Fields(string(own)), " ")
			if cl.Format == TOML {
				other = string(own) + "[mcp_servers.mycli.tools.x]\nenabled = true\n"
			}
			if err := os.WriteFile(f.Path, []byte(other), 0o600); err != nil {
				t.Fatal(err)
			}
			if ch, err := f.Remove("mycli", false); err != nil || !ch.Found || ch.Deleted {
				t.Errorf("%q: Remove %+v %v", other, ch, err)
			} else if _, err := os.Stat(f.Path); err != nil {
				t.Errorf("%q: the file is gone: %v", other, err)
			}
		})
	}
}

// TestMalformedFilesNameTheLine: a file that does not parse is refused by
// enable and disable with an error naming the file and the line, and is
// left as it was (no backup, same mode). go-toml reports a table or key
// defined twice without a position; the line is found all the same (it
// was "not valid TOML: toml: table a already exists").
func TestMalformedFilesNameTheLine(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		src    string
		line   string
	}{
		{"json missing colon", JSON, "{\n  \"mcpServers\": {\n    \"a\" {}\n  }\n}\n", "line 3, column 9"},
		{"json crlf", JSON, "{\r\n  \"a\": 1,\r\n  \"b\" 2\r\n}\r\n", "line 3, column 7"},
		{"json bom", JSON, "\xef\xbb\xbf{\n  \"a\": 1,,\n}\n", "line 2, column 10"},
		{"json cut short", JSON, "{\n  \"mcpServers\": {\n", "line 3, column 1"},
		{"json trailing garbage", JSON, "{}\n}\n", "line 2, column 1"},
		{"toml bad value", TOML, "model = \"m\"\n[mcp_servers.a]\ncommand = \n", "line 3, column 11"},
		{"toml table twice", TOML, "[mcp_servers.a]\ncommand = \"x\"\n\n[mcp_servers.a]\ncommand = \"y\"\n", "line 4:"},
		{"toml key twice", TOML, "# c\nmodel = \"a\"\r\nmodel = \"b\"\r\n", "line 3:"},
		{"toml key twice, no final newline", TOML, "a = 1\na = 2", "line 2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config")
			if err := os.WriteFile(path, []byte(tt.src), 0o640); err != nil {
				t.Fatal(err)
			}
			key := []string{"mcpServers"}
			if tt.format == TOML {
				key = []string{"mcp_servers"}
			}
			f := File{Path: path, Format: tt.format, Key: key}
			for _, op := range []string{"enable", "disable", "list"} {
				var err error
				switch op {
				case "enable":
					_, err = f.Set("a", testServer, false)
				case "disable":
					_, err = f.Remove("a", false)
				default:
					_, err = f.List()
				}
				if err == nil || !strings.Contains(err.Error(), path+": not valid "+tt.format.String()+": "+tt.line) {
					t.Errorf("%s: err = %v, want one naming %s and %q", op, err, path, tt.line)
				}
			}
			if b, _ := os.ReadFile(path); string(b) != tt.src {
				t.Errorf("the file changed: %q", b)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
				t.Errorf("mode: %v %v", fi, err)
			}
			if left, _ := filepath.Glob(path + "?*"); len(left) != 0 {
				t.Errorf("left beside the file: %v", left)
			}
		})
	}
}

// TestDisableGivesBackABlankFile: enable then disable on a configuration
// file that existed and was empty (or white space alone) leaves it as it
// was, for every client, instead of deleting the user's file.
func TestDisableGivesBackABlankFile(t *testing.T) {
	for _, blank := range []string{"", "\n", "  \n\t\n"} {
		for _, cl := range Clients() {
			t.Run(fmt.Sprintf("%s %q", cl.ID, blank), func(t *testing.T) {
				f := cl.File(filepath.Join(t.TempDir(), "config"))
				if err := os.WriteFile(f.Path, []byte(blank), 0o640); err != nil {
					t.Fatal(err)
				}
				if _, err := f.Set("mycli", roundTripServer(cl), false); err != nil {
					t.Fatal(err)
				}
				dry, err := f.Remove("mycli", true)
				if err != nil || dry.Deleted || string(dry.After) != blank {
					t.Fatalf("dry run: %+v %v", dry, err)
				}
				ch, err := f.Remove("mycli", false)
				if err != nil || !ch.Found || ch.Deleted {
					t.Fatalf("Remove: %+v %v", ch, err)
				}
				b, err := os.ReadFile(f.Path)
				if err != nil || string(b) != blank {
					t.Fatalf("after disable: %q %v, want %q", b, err, blank)
				}
				if fi, err := os.Stat(f.Path); err != nil || fi.Mode().Perm() != 0o640 {
					t.Errorf("mode: %v %v, want 0640", fi.Mode(), err)
				}
				// Once more: the same again.
				if _, err := f.Set("mycli", roundTripServer(cl), false); err != nil {
					t.Fatal(err)
				}
				if _, err := f.Remove("mycli", false); err != nil {
					t.Fatal(err)
				}
				if b, err := os.ReadFile(f.Path); err != nil || string(b) != blank {
					t.Errorf("after a second enable and disable: %q %v", b, err)
				}
			})
		}
	}
}
