package bridge_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/toolset"
)

// entries returns the tool entries of an exported document in format f.
func entries(t *testing.T, f dialect.Format, doc []byte) []map[string]any {
	t.Helper()
	var list []map[string]any
	switch f {
	case dialect.Gemini:
		var d struct {
			Tools []struct {
				FunctionDeclarations []map[string]any `json:"functionDeclarations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(doc, &d); err != nil || len(d.Tools) != 1 {
			t.Fatalf("gemini document: %v (%d tools objects)\n%s", err, len(d.Tools), doc)
		}
		list = d.Tools[0].FunctionDeclarations
	case dialect.ToolVault:
		var d struct {
			Tools []map[string]any `json:"tools"`
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatalf("toolvault document: %v\n%s", err, doc)
		}
		list = d.Tools
	default:
		if err := json.Unmarshal(doc, &list); err != nil {
			t.Fatalf("%s document: %v\n%s", f, err, doc)
		}
	}
	return list
}

// entryName is the tool name of an entry of format f.
func entryName(f dialect.Format, e map[string]any) string {
	if f == dialect.OpenAI {
		fn, _ := e["function"].(map[string]any)
		s, _ := fn["name"].(string)
		return s
	}
	s, _ := e["name"].(string)
	return s
}

func TestToolsFormats(t *testing.T) {
	ts := newFake()
	for _, f := range dialect.Formats() {
		t.Run(string(f), func(t *testing.T) {
			// The tools as mcp tools lists them: only the mcp format has
			// server instructions to state the shared flags in, the other
			// formats are expanded.
			tools := ts.view(t, toolset.Listing{Mode: toolset.ToolModeFull, Expanded: f != dialect.MCP}).Tools()
			if len(tools) != 4 {
				t.Fatalf("the fake has %d tools, want 4", len(tools))
			}
			r := runMCP(ts, "", "tools", "--format", string(f), "-o", "-")
			if r.err != nil {
				t.Fatalf("tools --format %s: %v", f, r.err)
			}
			if !strings.HasSuffix(r.stdout, "}\n") && !strings.HasSuffix(r.stdout, "]\n") {
				t.Errorf("the document does not end in a newline: %q", r.stdout[max(0, len(r.stdout)-10):])
			}
			es := entries(t, f, []byte(r.stdout))
			if len(es) != len(tools) {
				t.Fatalf("%d entries, want one per tool (%d)", len(es), len(tools))
			}
			var names []string
			for _, e := range es {
				names = append(names, entryName(f, e))
			}
			if !slices.IsSorted(names) || slices.Contains(names, "") {
				t.Errorf("names %v: want all present and sorted", names)
			}
			// The document and the warnings are exactly those of dialect.Export.
			doc, warns, err := dialect.Export(f, tools, dialect.Options{Envelope: dialect.Envelope{
				Name: "fakecli", Version: ts.version, Description: ts.long,
			}})
			if err != nil {
				t.Fatal(err)
			}
			if f == dialect.MCP {
				sorted := slices.Clone(tools)
				slices.SortFunc(sorted, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
				want, err := exportJSON(sorted)
				if err != nil {
					t.Fatal(err)
				}
				doc = want
			}
			if compact(t, r.stdout) != compact(t, string(doc)) {
				t.Errorf("stdout differs from dialect.Export:\n%s\nwant\n%s", r.stdout, doc)
			}
			var want []string
			for _, w := range warns {
				want = append(want, w.String())
			}
			if got := lines(r.stderr); !slices.Equal(got, want) {
				t.Errorf("stderr:\n%s\nwant one line per warning:\n%s", r.stderr, strings.Join(want, "\n"))
			}
		})
	}
}

func TestToolsStrict(t *testing.T) {
	tests := []struct {
		format dialect.Format
		lossy  bool
	}{
		{dialect.MCP, false},
		{dialect.Anthropic, false},
		{dialect.ToolVault, false},
		{dialect.Canonical, true}, // fake_set-x is renamed
		{dialect.OpenAI, false},   // fake_label's map flag has a strict form: {key, value} pairs
	}
	for _, tc := range tests {
		t.Run(string(tc.format), func(t *testing.T) {
			ts := newFake()
			lax := runMCP(ts, "", "tools", "--format", string(tc.format), "-o", "-")
			if lax.err != nil {
				t.Fatal(lax.err)
			}
			if (lax.stderr != "") != tc.lossy {
				t.Fatalf("warnings %q, want some: %v", lax.stderr, tc.lossy)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out.json")
			r := runMCP(ts, "", "tools", "--format", string(tc.format), "--strict", "-o", out)
			if !tc.lossy {
				if r.err != nil {
					t.Fatalf("--strict failed without losses: %v", r.err)
				}
				b, err := os.ReadFile(out)
				if err != nil || string(b) != lax.stdout {
					t.Errorf("strict output differs from the lax one (%v)", err)
				}
				return
			}
			var loss *dialect.LossError
			if !errors.As(r.err, &loss) || loss.Format != tc.format {
				t.Fatalf("error = %v, want a *dialect.LossError for %s", r.err, tc.format)
			}
			for _, l := range lines(lax.stderr) {
				if !strings.Contains(r.err.Error(), l) {
					t.Errorf("the error does not list the loss %q", l)
				}
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s was written despite --strict (%v)", out, err)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
		})
	}
}

func TestToolsToolVaultEnvelope(t *testing.T) {
	tests := []struct {
		version, short, long string // the root command's
		wantDesc             string
	}{
		{"1.0.0", "Short.", "Long\ntext.\n", "Long\ntext."},
		{"2.0.0", "Only short.", "", "Only short."},
		{"", "", "", ""},
	}
	for _, tc := range tests {
		ts := newFake()
		ts.version, ts.short, ts.long = tc.version, tc.short, tc.long
		r := runMCP(ts, "", "tools", "--format", "toolvault", "-o", "-")
		if r.err != nil {
			t.Fatal(r.err)
		}
		var d map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			t.Fatal(err)
		}
		if v, _ := d["version"].(string); v != tc.version {
			t.Errorf("version %q, want %q", v, tc.version)
		}
		if v, _ := d["description"].(string); v != tc.wantDesc {
			t.Errorf("description %q, want %q", v, tc.wantDesc)
		}
	}
}

func TestToolsDefaultFile(t *testing.T) {
	t.Chdir(t.TempDir())
	ts := newFake()
	for _, f := range []string{"mcp", "openai", "gemini"} {
		args := []string{"tools"}
		if f != "mcp" {
			args = append(args, "--format", f)
		}
		r := runMCP(ts, "", args...)
		if r.err != nil {
			t.Fatalf("%s: %v", f, r.err)
		}
		b, err := os.ReadFile(f + "-tools.json")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		std := runMCP(ts, "", append(args, "-o", "-")...)
		if string(b) != std.stdout {
			t.Errorf("%s-tools.json differs from the -o - output", f)
		}
		if !strings.Contains(r.stderr, "wrote "+f+"-tools.json") {
			t.Errorf("stderr %q does not say what was written", r.stderr)
		}
	}
}

func TestToolsFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, `unknown format "xml"`},
		{[]string{"--format", "external"}, "needs --dir"},
		{[]string{"--format", "External"}, "needs --dir"},
		{[]string{"--format", "external", "--dir", "d", "-o", "x.json"}, "--output is not used"},
		{[]string{"--format", "openai", "--dir", "d"}, "--dir and --force are for --format external"},
		{[]string{"--force"}, "--dir and --force are for --format external"},
	}
	for _, tc := range tests {
		t.Chdir(t.TempDir())
		r := runMCP(newFake(), "", append([]string{"tools"}, tc.args...)...)
		if r.err == nil || !strings.Contains(r.err.Error(), tc.want) {
			t.Errorf("%v: error = %v, want %q", tc.args, r.err, tc.want)
		}
		if files, _ := os.ReadDir("."); len(files) != 0 {
			t.Errorf("%v: files were written: %v", tc.args, files)
		}
	}
}

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestToolsExternal(t *testing.T) {
	ts := newFake()
	dir := filepath.Join(t.TempDir(), "tools") // created by the command
	r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir)
	if r.err != nil {
		t.Fatalf("external: %v", r.err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	want := []string{"fake-argsflag", "fake-get", "fake-label", "fake-set-x"}
	if !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	mcpNames := map[string]string{"fake-argsflag": "fake_argsflag", "fake-get": "fake_get", "fake-label": "fake_label", "fake-set-x": "fake_set-x"}
	for _, f := range files {
		if !kebab.MatchString(f.Name()) {
			t.Errorf("%s is not in kebab-case", f.Name())
		}
		fi, err := f.Info()
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755", f.Name(), fi.Mode())
		}
		b, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		ls := strings.Split(string(b), "\n")
		if ls[0] != "#!/bin/sh" || !strings.HasPrefix(ls[1], "# cobramcp external tool") {
			t.Errorf("%s does not start with the shebang and the marker:\n%s", f.Name(), b)
		}
		// What the script runs, as the shell parses it.
		argv := shellArgv(t, string(b))
		wantArgv := []string{exe, "mcp", "tool", mcpNames[f.Name()], "--schema", "it's"}
		if !slices.Equal(argv, wantArgv) {
			t.Errorf("%s runs %q, want %q", f.Name(), argv, wantArgv)
		}
	}
	if !strings.Contains(r.stderr, "wrote 4 tools to "+dir) {
		t.Errorf("stderr %q does not say what was written", r.stderr)
	}
	if !strings.Contains(r.stderr, "fake_set-x: /name: canonical: renamed") {
		t.Errorf("stderr %q does not report the canonical rename", r.stderr)
	}
}

// shellArgv runs the exec line of script with sh, printing the words it
// would exec (with "--schema" and "it's" as the script's own arguments).
func shellArgv(t *testing.T, script string) []string {
	t.Helper()
	var line string
	for _, l := range strings.Split(script, "\n") {
		if strings.HasPrefix(l, "exec ") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no exec line in\n%s", script)
	}
	prog := `printf '%s\n' ` + strings.TrimPrefix(line, "exec ")
	out, err := exec.Command("sh", "-c", prog, "sh", "--schema", "it's").Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", prog, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

func TestToolsExternalQuoting(t *testing.T) {
	// A policy argument holding shell syntax (a pinned value) is one word
	// in the script, as is every other word. (A tool name cannot hold any:
	// the toolset makes names of [a-zA-Z0-9_-] only.)
	const hostile = `output=it's $(echo x) "y"`
	dir := t.TempDir()
	r := runMCP(newFake(), "", "tools", "--format", "external", "--dir", dir, "--set", hostile)
	if r.err != nil {
		t.Fatal(r.err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "fake-get"))
	if err != nil {
		t.Fatal(err)
	}
	argv := shellArgv(t, string(b))
	if len(argv) != 7 || argv[3] != "--set="+hostile || argv[4] != "fake_get" {
		t.Errorf("the script runs %q", argv)
	}
}

func TestToolsExternalOverwrite(t *testing.T) {
	ts := newFake()
	dir := t.TempDir()
	if r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir); r.err != nil {
		t.Fatal(r.err)
	}
	// Our own scripts are replaced.
	get := filepath.Join(dir, "fake-get")
	old, _ := os.ReadFile(get)
	if err := os.WriteFile(get, append(old, "# edited\n"...), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir); r.err != nil {
		t.Fatalf("rewriting our own scripts: %v", r.err)
	}
	if b, _ := os.ReadFile(get); string(b) != string(old) {
		t.Errorf("our script was not rewritten:\n%s", b)
	}

	// A file that is not ours blocks the whole export...
	label := filepath.Join(dir, "fake-label")
	foreign := "#!/bin/sh\necho mine\n"
	if err := os.WriteFile(label, []byte(foreign), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(get); err != nil {
		t.Fatal(err)
	}
	r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir)
	if r.err == nil || !strings.Contains(r.err.Error(), label) || !strings.Contains(r.err.Error(), "--force") {
		t.Fatalf("error = %v, want a refusal naming %s and --force", r.err, label)
	}
	if b, _ := os.ReadFile(label); string(b) != foreign {
		t.Errorf("the foreign file was changed:\n%s", b)
	}
	if _, err := os.Stat(get); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a script was written although the export was refused (%v)", err)
	}

	// ...unless --force is given.
	if r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir, "--force"); r.err != nil {
		t.Fatalf("--force: %v", r.err)
	}
	b, _ := os.ReadFile(label)
	if !strings.Contains(string(b), "# cobramcp external tool") {
		t.Errorf("--force did not replace the foreign file:\n%s", b)
	}
	if _, err := os.Stat(get); err != nil {
		t.Errorf("--force did not write every script: %v", err)
	}
	// No temporary files are left behind.
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if strings.HasPrefix(f.Name(), ".") {
			t.Errorf("left behind: %s", f.Name())
		}
	}
}

func TestToolsExternalCollision(t *testing.T) {
	// Two commands whose names differ only in case: fake_Get_Pods and
	// fake_get_pods would both be fake-get-pods.
	ts := newFake()
	ts.build = func() *cobra.Command {
		root := &cobra.Command{Use: "fakecli"}
		for _, name := range []string{"Get_Pods", "get_pods"} {
			root.AddCommand(&cobra.Command{Use: name, Short: name, RunE: func(*cobra.Command, []string) error { return nil }})
		}
		return root
	}
	dir := t.TempDir()
	r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir)
	if r.err == nil || !strings.Contains(r.err.Error(), `"fake_Get_Pods" and "fake_get_pods"`) {
		t.Fatalf("error = %v, want a collision naming both tools", r.err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("files were written: %v", files)
	}
}

func TestToolsExternalStrict(t *testing.T) {
	dir := t.TempDir()
	r := runMCP(newFake(), "", "tools", "--format", "external", "--dir", dir, "--strict")
	var loss *dialect.LossError
	if !errors.As(r.err, &loss) || loss.Format != dialect.Canonical {
		t.Fatalf("error = %v, want the canonical losses", r.err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("files were written: %v", files)
	}
}

func TestToolsExternalStale(t *testing.T) {
	ts := newFake()
	dir := t.TempDir()
	if r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir); r.err != nil {
		t.Fatal(r.err)
	}
	// Another program's script, with the marker, and a file of the user's.
	other := filepath.Join(dir, "othercli-get")
	otherBody := "#!/bin/sh\n" + "# cobramcp external tool" + ": othercli_get\nexec '/opt/othercli' 'mcp' tool 'othercli_get' \"$@\"\n"
	mine := filepath.Join(dir, "notes.txt")
	for name, body := range map[string]string{other: otherBody, mine: "my notes\n"} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// fake_label is gone from the CLI.
	ts.omit = map[string]bool{"label": true}
	r := runMCP(ts, "", "tools", "--format", "external", "--dir", dir)
	if r.err != nil {
		t.Fatal(r.err)
	}
	var names []string
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		names = append(names, f.Name())
	}
	want := []string{"fake-argsflag", "fake-get", "fake-set-x", "notes.txt", "othercli-get"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
	if !strings.Contains(r.stderr, "removed "+filepath.Join(dir, "fake-label")) {
		t.Errorf("stderr %q does not report the removal", r.stderr)
	}
}

// The tools in the Anthropic dialect, on stdout. Warnings, when a dialect
// has to change something, go to stderr.
func ExampleNew_toolsFormat() {
	ts := &fakeCLI{build: func() *cobra.Command {
		root := &cobra.Command{Use: "fakecli"}
		root.AddCommand(&cobra.Command{Use: "get [NAME...]", Short: "Get things.", Args: cobra.ArbitraryArgs, RunE: func(*cobra.Command, []string) error { return nil }})
		return root
	}}
	root := &cobra.Command{Use: "fakecli"}
	root.AddCommand(bridge.New(bridge.Options{Tree: ts.source}))
	root.SetOut(os.Stdout)
	root.SetArgs([]string{"mcp", "tools", "--format", "anthropic", "-o", "-"})
	if err := root.Execute(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [
	//   {
	//     "name": "fakecli_get",
	//     "description": "Get things.\n\nUsage: fakecli get [NAME...]",
	//     "input_schema": {
	//       "type": "object",
	//       "properties": {
	//         "args": {
	//           "type": "array",
	//           "items": {
	//             "type": "string"
	//           },
	//           "description": "Positional arguments, in order: [NAME...]."
	//         }
	//       },
	//       "additionalProperties": false
	//     }
	//   }
	// ]
}
