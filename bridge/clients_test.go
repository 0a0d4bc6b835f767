package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/clientcfg"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// The tests below drive the real mycli binary (built from ./example) on
// files shaped like real users' configurations (testdata/clients), with
// HOME and the config directories pointed at temporary directories.

// clientFixtures is the fixture for each client and scope.
var clientFixtures = []struct {
	client  string
	scope   clientcfg.Scope
	fixture string
}{
	{"claude", clientcfg.User, "claude-desktop.json"},
	{"claude-code", clientcfg.User, "claude-code-user.json"},
	{"claude-code", clientcfg.Project, "claude-code-project.json"},
	{"vscode", clientcfg.User, "vscode-mcp.json"},
	{"vscode", clientcfg.Project, "vscode-workspace-mcp.json"},
	{"cursor", clientcfg.User, "cursor-mcp.json"},
	{"cursor", clientcfg.Project, "cursor-mcp.json"},
	{"gemini", clientcfg.User, "gemini-settings.json"},
	{"gemini", clientcfg.Project, "gemini-settings.json"},
	{"codex", clientcfg.User, "codex-config.toml"},
	{"codex", clientcfg.Project, "codex-config.toml"},
	{"windsurf", clientcfg.User, "windsurf-mcp_config.json"},
}

// sandbox is a home directory and a project directory for one test.
type sandbox struct {
	bin, home, work string
}

func newSandbox(t *testing.T, bin string) *sandbox {
	t.Helper()
	dir := t.TempDir()
	s := &sandbox{bin: bin, home: filepath.Join(dir, "home"), work: filepath.Join(dir, "project")}
	for _, d := range []string{s.home, s.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// host is what the binary sees as its host, given env().
func (s *sandbox) host() clientcfg.Host {
	cfg := filepath.Join(s.home, ".config")
	if runtime.GOOS == "darwin" {
		cfg = filepath.Join(s.home, "Library", "Application Support")
	}
	return clientcfg.Host{GOOS: runtime.GOOS, Home: s.home, ConfigDir: cfg, WorkDir: s.work, Getenv: func(string) string { return "" }}
}

func (s *sandbox) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "USERPROFILE", "XDG_CONFIG_HOME", "APPDATA", "CODEX_HOME", "MYCLI_STATE":
			continue
		}
		env = append(env, kv)
	}
	cfg := filepath.Join(s.home, ".config")
	return append(env, "HOME="+s.home, "USERPROFILE="+s.home, "XDG_CONFIG_HOME="+cfg, "APPDATA="+cfg)
}

// path is where the client keeps its file for scope in the sandbox.
func (s *sandbox) path(t *testing.T, client string, scope clientcfg.Scope) string {
	t.Helper()
	cl, ok := clientcfg.Lookup(client)
	if !ok {
		t.Fatalf("no client %q", client)
	}
	p, err := cl.Path(s.host(), scope)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type runResult struct {
	stdout, stderr string
	err            error
}

func (s *sandbox) run(args ...string) runResult {
	c := exec.Command(s.bin, args...)
	c.Dir = s.work
	c.Env = s.env()
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	return runResult{out.String(), errb.String(), err}
}

func (s *sandbox) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := s.run(args...)
	if r.err != nil {
		t.Fatalf("mycli %s: %v\n%s%s", strings.Join(args, " "), r.err, r.stdout, r.stderr)
	}
	return r.stdout
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "clients", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func place(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func buildMycli(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mycli")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, "github.com/cobramcp/cobramcp/example").CombinedOutput()
	if err != nil {
		t.Fatalf("build mycli: %v\n%s", err, out)
	}
	resolved, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	return resolved
}

func scopeArgs(scope clientcfg.Scope) []string {
	if scope == clientcfg.Project {
		return []string{"--scope", "project"}
	}
	return nil
}

func entryNamed(t *testing.T, client, path, name string) (clientcfg.Entry, []clientcfg.Entry) {
	t.Helper()
	cl, _ := clientcfg.Lookup(client)
	entries, err := cl.File(path).List()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name == name {
			return e, entries
		}
	}
	t.Fatalf("no server %q in %s", name, path)
	return clientcfg.Entry{}, nil
}

// TestClientsE2E builds mycli once and runs every client's commands on
// real-looking files.
func TestClientsE2E(t *testing.T) {
	bin := buildMycli(t)

	t.Run("enable list disable", func(t *testing.T) {
		for _, fx := range clientFixtures {
			t.Run(fx.client+"/"+string(fx.scope), func(t *testing.T) {
				s := newSandbox(t, bin)
				path := s.path(t, fx.client, fx.scope)
				orig := fixture(t, fx.fixture)
				place(t, path, orig)
				cl, _ := clientcfg.Lookup(fx.client)
				before, err := cl.File(path).List()
				if err != nil {
					t.Fatal(err)
				}
				state := filepath.Join(s.home, "state.json")
				args := append([]string{"mcp", fx.client, "enable"}, scopeArgs(fx.scope)...)
				args = append(args, "--env", "MYCLI_STATE="+state, "--", "--tools", "mycli_get_*")

				out := s.mustRun(t, args...)
				if !strings.Contains(out, `Added server "mycli"`) || !strings.Contains(out, path) {
					t.Errorf("enable said:\n%s", out)
				}
				if b, _ := os.ReadFile(path + ".bak"); !bytes.Equal(b, orig) {
					t.Error("no backup of the previous version")
				}
				e, after := entryNamed(t, fx.client, path, "mycli")
				want := clientcfg.Server{Type: cl.Type, Command: bin, Args: []string{"mcp", "start", "--tools", "mycli_get_*"},
					Env: map[string]string{"MYCLI_STATE": state}}
				if fx.client == "claude-code" { // it defers tool definitions: full listing
					want.Args = append(want.Args, "--tool-mode=full")
				}
				if !reflect.DeepEqual(e.Server, want) {
					t.Errorf("entry = %+v\nwant %+v", e.Server, want)
				}
				if !reflect.DeepEqual(after[:len(before)], before) {
					t.Errorf("the other servers changed")
				}

				list := s.mustRun(t, append([]string{"mcp", fx.client, "list"}, scopeArgs(fx.scope)...)...)
				for _, o := range before {
					if !strings.Contains(list, "  "+o.Name+" ") {
						t.Errorf("list misses %q:\n%s", o.Name, list)
					}
				}
				if !strings.Contains(list, "* mycli ") {
					t.Errorf("list does not mark mycli:\n%s", list)
				}

				out = s.mustRun(t, args...)
				if !strings.Contains(out, `Updated server "mycli"`) && !strings.Contains(out, "already up to date") {
					t.Errorf("second enable said:\n%s", out)
				}

				out = s.mustRun(t, append([]string{"mcp", fx.client, "disable"}, scopeArgs(fx.scope)...)...)
				if !strings.Contains(out, `Removed server "mycli"`) {
					t.Errorf("disable said:\n%s", out)
				}
				if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
					t.Errorf("enable then disable changed the file:\n%s", clientcfg.Diff(path, orig, got))
				}
				out = s.mustRun(t, append([]string{"mcp", fx.client, "disable"}, scopeArgs(fx.scope)...)...)
				if !strings.Contains(out, `No server "mycli"`) {
					t.Errorf("disable of an absent entry said:\n%s", out)
				}
				if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
					t.Error("disable of an absent entry changed the file")
				}
			})
		}
	})

	// The entry, read back from each client's file, starts a server that
	// answers initialize and tools/list, launched as clients launch it:
	// the command and args as written, a minimal environment plus env.
	t.Run("entry starts a server", func(t *testing.T) {
		for _, fx := range clientFixtures {
			if fx.scope != clientcfg.User {
				continue
			}
			t.Run(fx.client, func(t *testing.T) {
				s := newSandbox(t, bin)
				path := s.path(t, fx.client, fx.scope)
				place(t, path, fixture(t, fx.fixture))
				state := filepath.Join(s.home, "state.json")
				s.mustRun(t, "mcp", fx.client, "enable", "--server-name", "kube", "--env", "MYCLI_STATE="+state, "--", "--tools", "mycli_get_*")
				e, _ := entryNamed(t, fx.client, path, "kube")
				tools := listTools(t, e.Server)
				if !slices.Contains(tools, "mycli_get_pods") {
					t.Errorf("tools = %v, want mycli_get_pods among them", tools)
				}
				for _, name := range tools {
					if !strings.HasPrefix(name, "mycli_get_") {
						t.Errorf("tool %q served despite --tools mycli_get_*", name)
					}
				}
			})
		}
	})

	t.Run("dry run", func(t *testing.T) {
		s := newSandbox(t, bin)
		path := s.path(t, "vscode", clientcfg.Project)
		orig := fixture(t, "vscode-workspace-mcp.json")
		place(t, path, orig)
		out := s.mustRun(t, "mcp", "vscode", "enable", "--scope", "project", "--dry-run")
		if !strings.Contains(out, "nothing was written") || !strings.Contains(out, `+    "mycli": {`) {
			t.Errorf("dry run said:\n%s", out)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
			t.Error("dry run wrote the file")
		}
		if _, err := os.Stat(path + ".bak"); !errors.Is(err, os.ErrNotExist) {
			t.Error("dry run wrote a backup")
		}
	})

	// disable of the last entry of a file enable created deletes the file
	// (it left "{}" or an empty config.toml) and says so.
	t.Run("disable deletes the file enable created", func(t *testing.T) {
		s := newSandbox(t, bin)
		for _, client := range []string{"cursor", "codex"} {
			path := s.path(t, client, clientcfg.User)
			s.mustRun(t, "mcp", client, "enable")
			out := s.mustRun(t, "mcp", client, "disable", "--dry-run")
			if want := "It would delete " + path + ", which would hold nothing else."; !strings.Contains(out, want) {
				t.Errorf("%s: dry run said:\n%s\nwant %q", client, out, want)
			}
			out = s.mustRun(t, "mcp", client, "disable")
			if want := path + " held nothing else, so it was deleted.\nThe previous version is in " + path + ".bak."; !strings.Contains(out, want) {
				t.Errorf("%s: disable said:\n%s\nwant %q", client, out, want)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: the file is still there: %v", client, err)
			}
		}
	})

	t.Run("config path and missing directories", func(t *testing.T) {
		s := newSandbox(t, bin)
		path := filepath.Join(s.work, "deep", "er", "mcp_config.json")
		out := s.mustRun(t, "mcp", "windsurf", "enable", "--config-path", path, "--server-name", "k8s")
		if !strings.Contains(out, `Added server "k8s"`) {
			t.Errorf("enable said:\n%s", out)
		}
		e, _ := entryNamed(t, "windsurf", path, "k8s")
		if e.Command != bin {
			t.Errorf("command = %q, want %q", e.Command, bin)
		}
		// The default location's directories are created too.
		s.mustRun(t, "mcp", "windsurf", "enable")
		entryNamed(t, "windsurf", s.path(t, "windsurf", clientcfg.User), "mycli")
	})

	// A typo in the arguments for mcp start fails at enable, not when the
	// client starts the server.
	t.Run("start arguments checked", func(t *testing.T) {
		s := newSandbox(t, bin)
		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"--", "--tools", "nomatch_*"}, "no tool matches nomatch_*"},
			{[]string{"--", "--toolz", "x"}, "unknown flag: --toolz"},
			{[]string{"--", "extra"}, `unexpected argument "extra"`},
			{[]string{"stray"}, "go after --"},
		} {
			r := s.run(append([]string{"mcp", "cursor", "enable"}, tt.args...)...)
			if r.err == nil || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("enable %v: err %v, stderr %q, want %q", tt.args, r.err, r.stderr, tt.want)
			}
		}
		if _, err := os.Stat(s.path(t, "cursor", clientcfg.User)); !errors.Is(err, os.ErrNotExist) {
			t.Error("a refused enable wrote the file")
		}
	})

	t.Run("files left untouched", func(t *testing.T) {
		tests := []struct {
			name, client, fixture string
			mode                  os.FileMode
			want                  string
		}{
			{"malformed json", "claude", "malformed.json", 0o644, "not valid JSON: line 4"},
			{"malformed toml", "codex", "malformed.toml", 0o644, "not valid TOML: line 2"},
			{"read-only", "cursor", "cursor-mcp.json", 0o444, "read-only"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newSandbox(t, bin)
				path := s.path(t, tt.client, clientcfg.User)
				orig := fixture(t, tt.fixture)
				place(t, path, orig)
				if err := os.Chmod(path, tt.mode); err != nil {
					t.Fatal(err)
				}
				for _, verb := range []string{"enable", "disable", "list"} {
					if tt.name == "read-only" && verb != "enable" {
						continue
					}
					r := s.run("mcp", tt.client, verb)
					if r.err == nil {
						t.Errorf("%s succeeded on %s", verb, tt.name)
					}
					if !strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, tt.want) {
						t.Errorf("%s: stderr %q, want the path and %q", verb, r.stderr, tt.want)
					}
				}
				if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
					t.Error("the file changed")
				}
				if _, err := os.Stat(path + ".bak"); !errors.Is(err, os.ErrNotExist) {
					t.Error("a backup was written")
				}
			})
		}
	})

	// Several enable runs at once on one file: each either lands or fails
	// with a clean error, and the file holds every one that landed.
	t.Run("concurrent enable", func(t *testing.T) {
		for _, client := range []string{"gemini", "codex"} {
			t.Run(client, func(t *testing.T) {
				s := newSandbox(t, bin)
				path := s.path(t, client, clientcfg.User)
				fx := map[string]string{"gemini": "gemini-settings.json", "codex": "codex-config.toml"}[client]
				place(t, path, fixture(t, fx))
				const n = 8
				results := make([]runResult, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						results[i] = s.run("mcp", client, "enable", "--server-name", fmt.Sprintf("srv%d", i))
					}()
				}
				wg.Wait()
				cl, _ := clientcfg.Lookup(client)
				entries, err := cl.File(path).List()
				if err != nil {
					t.Fatalf("the file does not parse after concurrent enables: %v", err)
				}
				have := map[string]bool{}
				for _, e := range entries {
					have[e.Name] = true
				}
				landed := 0
				for i, r := range results {
					name := fmt.Sprintf("srv%d", i)
					switch {
					case r.err == nil && have[name]:
						landed++
					case r.err == nil:
						t.Errorf("%s reported success but is not in the file", name)
					case !strings.Contains(r.stderr, "Error: "):
						t.Errorf("%s failed without a clean error: %v %q", name, r.err, r.stderr)
					}
				}
				if landed == 0 {
					t.Error("no enable landed")
				}
			})
		}
	})
}

// listTools launches s as an MCP client would and returns the names from
// tools/list.
func listTools(t *testing.T, s clientcfg.Server) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := exec.Command(s.Command, s.Args...)
	// The environment clients give a server: a few inherited variables
	// (those of the MCP SDKs' default environment) and the entry's env.
	for _, k := range []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "SYSTEMROOT"} {
		if v, ok := os.LookupEnv(k); ok {
			c.Env = append(c.Env, k+"="+v)
		}
	}
	for k, v := range s.Env {
		c.Env = append(c.Env, k+"="+v)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "clients-test", Version: "0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: c}, nil)
	if err != nil {
		t.Fatalf("initialize %s: %v", s.Command, err)
	}
	defer session.Close()
	if info := session.InitializeResult(); info == nil || info.ServerInfo == nil || info.ServerInfo.Name != "mycli" {
		t.Errorf("initialize result = %+v, want server mycli", info)
	}
	res, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func TestEntryEnv(t *testing.T) {
	captured := func() map[string]string { return map[string]string{"PATH": "/captured", "KEEP": "1"} }
	tests := []struct {
		name     string
		defaults func() map[string]string
		flags    []string
		want     map[string]string
		err      string
	}{
		{"none", nil, nil, nil, ""},
		{"captured only", captured, nil, map[string]string{"PATH": "/captured", "KEEP": "1"}, ""},
		{"--env wins", captured, []string{"PATH=/mine", "X=a=b"}, map[string]string{"PATH": "/mine", "KEEP": "1", "X": "a=b"}, ""},
		{"empty value", nil, []string{"EMPTY="}, map[string]string{"EMPTY": ""}, ""},
		{"no equals", nil, []string{"PATH"}, nil, `--env "PATH": want KEY=VALUE`},
		{"no key", nil, []string{"=x"}, nil, "want KEY=VALUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := entryEnv(&Options{DefaultEnv: tt.defaults}, tt.flags)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("entryEnv = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestEnableInProcess runs enable on a tree whose Options capture an
// environment, and checks the written entry: the test binary's resolved
// path, the group's path to start, and DefaultEnv under --env.
func TestEnableInProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	root := &cobra.Command{Use: "kubectl2"}
	root.AddCommand(New(Options{Name: "serve-mcp", DefaultEnv: func() map[string]string {
		return map[string]string{"PATH": "/usr/bin", "KUBECONFIG": "/captured"}
	}}))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs([]string{"serve-mcp", "gemini", "enable", "--config-path", path, "--env", "KUBECONFIG=/mine", "--", "--tools", "a*"})
	if err := root.Execute(); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	exe, err := executable()
	if err != nil {
		t.Fatal(err)
	}
	e, _ := entryNamed(t, "gemini", path, "kubectl2")
	want := clientcfg.Server{Command: exe, Args: []string{"serve-mcp", "start", "--tools", "a*"},
		Env: map[string]string{"PATH": "/usr/bin", "KUBECONFIG": "/mine"}}
	if !reflect.DeepEqual(e.Server, want) {
		t.Errorf("entry = %+v\nwant %+v", e.Server, want)
	}

	out.Reset()
	root.SetArgs([]string{"serve-mcp", "gemini", "enable", "--help"})
	if err := root.Execute(); err != nil || !strings.Contains(out.String(), "  kubectl2 serve-mcp gemini enable --scope project --dry-run\n") ||
		!strings.Contains(out.String(), "-- --tools 'kubectl2_get_*'") {
		t.Errorf("help examples: %v\n%s", err, out.String())
	}

	root.SetArgs([]string{"serve-mcp", "windsurf", "enable", "--scope", "project"})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "unknown flag: --scope") {
		t.Errorf("--scope on a client without project scope: %v", err)
	}
	root.SetArgs([]string{"serve-mcp", "cursor", "list", "--scope", "team"})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), `--scope "team": Cursor has user and project`) {
		t.Errorf("bad --scope: %v", err)
	}
}

func TestIsThisCLI(t *testing.T) {
	start := []string{"mcp", "start"}
	tests := []struct {
		name string
		s    clientcfg.Server
		want bool
	}{
		{"same binary", clientcfg.Server{Command: "/opt/mycli", Args: []string{"anything"}}, true},
		{"same name elsewhere", clientcfg.Server{Command: "/usr/local/bin/mycli", Args: []string{"mcp", "start", "--tools", "x"}}, true},
		{"same name, other args", clientcfg.Server{Command: "/usr/local/bin/mycli", Args: []string{"serve"}}, false},
		{"other program", clientcfg.Server{Command: "npx", Args: []string{"mcp", "start"}}, false},
		{"remote", clientcfg.Server{URL: "https://x"}, false},
	}
	for _, tt := range tests {
		if got := isThisCLI(tt.s, "/opt/mycli", "mycli", start, false); got != tt.want {
			t.Errorf("%s: got %v", tt.name, got)
		}
	}
	// One executable serving many CLIs (cobramcp start -- BINARY): the
	// arguments naming the CLI decide.
	ext := []string{"start", "--", "/usr/bin/kubectl"}
	strict := []struct {
		name string
		s    clientcfg.Server
		want bool
	}{
		{"same CLI", clientcfg.Server{Command: "/opt/cobramcp", Args: []string{"start", "--", "/usr/bin/kubectl", "--read-only"}}, true},
		{"other CLI, same executable", clientcfg.Server{Command: "/opt/cobramcp", Args: []string{"start", "--", "/usr/bin/helm"}}, false},
		{"same CLI, other executable", clientcfg.Server{Command: "/usr/bin/other", Args: ext}, false},
	}
	for _, tt := range strict {
		if got := isThisCLI(tt.s, "/opt/cobramcp", "kubectl", ext, true); got != tt.want {
			t.Errorf("%s: got %v", tt.name, got)
		}
	}
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"/bin/my cli", "mcp", "--tools", "a*", "it's", ""})
	want := `'/bin/my cli' mcp --tools 'a*' 'it'\''s' ''`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestEnableUpdatesHandEditedEntry runs enable over an entry the user
// edited by hand: the message says it was updated and names what was
// kept, and the dry run says "update".
func TestEnableUpdatesHandEditedEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	src := "{\n  \"mcpServers\": {\n    \"kubectl2\": {\n      \"command\": \"/old\",\n      \"args\": [],\n" +
		"      \"env\": {\"TOKEN\": \"t\"},\n      \"trust\": true,\n      \"timeout\": 30000\n    }\n  }\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--dry-run"}, []string{`Dry run: would update server "kubectl2"`, "It would keep the entry's other settings: trust, timeout, env.TOKEN.", `+      "command": "`}},
		{nil, []string{`Updated server "kubectl2" in Gemini CLI config ` + path + ": its command, arguments and environment variables.", "Kept the entry's other settings: trust, timeout, env.TOKEN."}},
		{nil, []string{"already up to date"}},
		// The message names what changed, only that.
		{[]string{"--", "--read-only"}, []string{`Updated server "kubectl2" in Gemini CLI config ` + path + ": its arguments.\n"}},
		{[]string{"--env", "A=1", "--", "--read-only"}, []string{path + ": its environment variables.\n"}},
	}
	for _, tt := range tests {
		root := &cobra.Command{Use: "kubectl2"} // new flags for each run
		root.AddCommand(New(Options{Name: "serve-mcp", DefaultEnv: func() map[string]string {
			return map[string]string{"PATH": "/usr/bin"}
		}}))
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(append([]string{"serve-mcp", "gemini", "enable", "--config-path", path}, tt.args...))
		if err := root.Execute(); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("enable %q said:\n%s\nwant %q", tt.args, out.String(), w)
			}
		}
	}
	e, _ := entryNamed(t, "gemini", path, "kubectl2")
	if want := map[string]string{"A": "1", "PATH": "/usr/bin", "TOKEN": "t"}; !reflect.DeepEqual(e.Env, want) {
		t.Errorf("env = %v, want %v", e.Env, want)
	}
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte("\"trust\": true,\n      \"timeout\": 30000\n")) {
		t.Errorf("hand-added members not kept:\n%s", b)
	}
}

// TestEnableSwitchesOnDisabledEntry runs enable over an entry the user
// switched off, in a JSON client and in Codex's TOML, with no variables of
// its own to write: the entry is switched on and the message says so, and
// the Kept line names the user's variables that stay.
func TestEnableSwitchesOnDisabledEntry(t *testing.T) {
	tests := []struct {
		client, file, src string
		dryRun, want      []string
		on                string // in the file afterwards
	}{
		{"windsurf", "mcp_config.json",
			"{\n  \"mcpServers\": {\n    \"kubectl2\": {\n      \"command\": \"/old\",\n      \"args\": [],\n      \"env\": {\"TOKEN\": \"t\"},\n      \"disabled\": true\n    }\n  }\n}\n",
			[]string{"It would keep the entry's other settings: env.TOKEN.", `The entry is switched off ("disabled": true); it would be switched on ("disabled": false).`},
			[]string{`Updated server "kubectl2"`, ": its command and arguments.\n", `The entry was switched off ("disabled": true); it is switched on now ("disabled": false).`, "Kept the entry's other settings: env.TOKEN."},
			`"disabled": false`},
		{"codex", "config.toml",
			"[mcp_servers.kubectl2]\ncommand = \"/old\"\nargs = []\nenabled = false\nenv = { TOKEN = \"t\" }\n",
			[]string{"It would keep the entry's other settings: env.TOKEN.", "The entry is switched off (enabled = false); it would be switched on (enabled = true)."},
			[]string{`Updated server "kubectl2"`, "The entry was switched off (enabled = false); it is switched on now (enabled = true).", "Kept the entry's other settings: env.TOKEN."},
			"enabled = true"},
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, []byte(tt.src), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, run := range []struct {
				args []string
				want []string
			}{{[]string{"--dry-run"}, tt.dryRun}, {nil, tt.want}, {nil, []string{"already up to date"}}} {
				root := &cobra.Command{Use: "kubectl2"}
				root.AddCommand(New(Options{Name: "serve-mcp"}))
				var out bytes.Buffer
				root.SetOut(&out)
				root.SetErr(&out)
				root.SetArgs(append([]string{"serve-mcp", tt.client, "enable", "--config-path", path}, run.args...))
				if err := root.Execute(); err != nil {
					t.Fatalf("%v\n%s", err, out.String())
				}
				for _, w := range run.want {
					if !strings.Contains(out.String(), w) {
						t.Errorf("enable %q said:\n%s\nwant %q", run.args, out.String(), w)
					}
				}
				if run.want[0] == "already up to date" && strings.Contains(out.String(), "switched") {
					t.Errorf("a second enable says it switched the entry:\n%s", out.String())
				}
			}
			b, _ := os.ReadFile(path)
			if !strings.Contains(string(b), tt.on) {
				t.Errorf("the entry is not switched on (%s):\n%s", tt.on, b)
			}
			if e, _ := entryNamed(t, tt.client, path, "kubectl2"); e.Env["TOKEN"] != "t" {
				t.Errorf("the user's variable is gone: %v", e.Env)
			}
		})
	}
}
