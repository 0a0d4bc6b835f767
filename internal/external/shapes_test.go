package external_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/internal/external/internal/shapes"
	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestShapesFromOutside reflects the shapes CLI from outside and compares
// every tool with its in-process reflection: a command that runs and has
// sub-commands, required flags listed in a help section of their own, a
// help command of the CLI's own with sub-commands of its own, and the
// binary under another file name (a renamed copy, a symlink). Each
// difference of a kind that docs/external.md does not list fails.
func TestShapesFromOutside(t *testing.T) {
	bin := fixture(t, "testdata/shapes")
	dir := t.TempDir()
	renamed := filepath.Join(dir, "sh")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(renamed, b, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "s")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	known, err := toolcompare.KnownLimits("../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	// The shapes CLI's helps print all of its text: none may be missing.
	delete(known, "description-missing")
	for _, tt := range []struct {
		name, bin string
		shapes    string // shapes.Env: the shapes chosen by name
	}{
		{"shapes", bin, ""},
		{"own help", bin, "own-help"},
		// gh's own persistent --help: one listing with it set tells
		// which commands parse their flags.
		{"own help flag", bin, "own-help-flag"},
		// gh's groups: no flag but --help, not listed.
		{"own help flag, no globals", bin, "own-help-flag,no-globals"},
		{"renamed copy", renamed, ""},
		{"symlink", link, ""},
		// kubebuilder's root lets unknown flags through: it parses its
		// flags all the same, and completion parses flags.
		{"lenient root", bin, "lenient"},
		// A usage template that prints the usage lines at column 0.
		{"unindented usage", bin, "unindented"},
		// goreleaser's help, printed by charmbracelet/fang.
		{"styled help", bin, "styled"},
		// yq's main: `shapes help PATH` runs the default command.
		{"default command", bin, "default-command"},
		// hugo's: "[command]" in the Use of a command that runs and
		// has sub-commands, and of one that has none.
		{"command in use", bin, "command-in-use"},
		// rclone's: global flags printed nowhere but completion and,
		// under their group's title, on the commands of that group.
		{"hidden globals", bin, "hidden-globals"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(shapes.Env, tt.shapes)
			o, err := shapes.OptionsFromEnv(os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			r, err := external.Load(context.Background(), tt.bin, &external.Options{NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range r.Notes {
				t.Logf("note: %s", n)
			}
			out, err := corpustest.Expanded(r.Root, &toolset.Config{Executable: r.Path})
			if err != nil {
				t.Fatal(err)
			}
			in, err := corpustest.Expanded(shapes.NewWith(o), nil)
			if err != nil {
				t.Fatal(err)
			}
			corpustest.Differences(t, known, in, out)
			if len(out.Tools()) != len(in.Tools()) {
				var names []string
				for _, tl := range out.Tools() {
					names = append(names, tl.Name)
				}
				t.Errorf("outside: %d tools %q, in-process %d", len(out.Tools()), names, len(in.Tools()))
			}
		})
	}
}

// TestShapesProcesses reads the processes that reflecting the shapes CLI
// starts (the CLI logs its args) and checks the ones that are spared, on
// a result that TestShapesFromOutside finds exact:
//   - a required flag whose parser takes only the values it names is set
//     to a value its refusal names, not to a list of guesses, and the
//     flags asked about with it set are asked with that value;
//   - of two required flags, setting one tells whether they are a group:
//     the other is not set alone;
//   - a group that does not run and shows no flag but a --help of the
//     CLI's own is not listed;
//   - the root is asked once whether it parses flags.
func TestShapesProcesses(t *testing.T) {
	bin := fixture(t, "testdata/shapes")
	log := filepath.Join(t.TempDir(), "argv")
	t.Setenv("SHAPES_ARGV_LOG", log)
	t.Setenv("SHAPES_OWN_HELP_FLAG", "1")
	t.Setenv("SHAPES_NO_GLOBALS", "1")
	// A process that did not answer in time would be asked again, and
	// counted twice: on a loaded machine none is late.
	r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, ProbeTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	// count counts the processes with args args, or, ending in "*",
	// that begin so.
	count := func(args string) (n int) {
		prefix, isPrefix := strings.CutSuffix(args, "*")
		for _, l := range lines {
			if l == args || isPrefix && strings.HasPrefix(l, prefix) {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct {
		args string
		want int
	}{
		// The listing with --channel set: the probe value, refused,
		// then "stable", which the refusal names.
		{"__complete release --channel=*", 2},
		{"__complete release --channel=stable -", 1},
		{"__complete release --channel=true*", 0},
		// The placeholders' types, asked with --channel=stable set.
		{"__complete release --label=cobramcp-probe --notes=cobramcp-probe --channel=stable -", 1},
		// --name and --region are each required: one of them set tells.
		{"__complete deploy --name=cobramcp-probe -", 1},
		{"__complete deploy --region=cobramcp-probe -", 0},
		// --email and --phone: one of them set tells they are a group.
		{"__complete notify --email=cobramcp-probe -", 1},
		{"__complete notify --phone=cobramcp-probe -", 0},
		// Whether completion parses flags, and the root does: one answer.
		{"__complete --cobramcp-no-such-flag=1 -", 1},
		// The config group: its help and its sub-commands, no listing.
		{"help config", 1},
		{"__complete help config ", 1},
		{"__complete config -", 0},
		{"__complete config --help=false -", 0},
	} {
		if got := count(tt.args); got != tt.want {
			t.Errorf("%d processes %q, want %d", got, tt.args, tt.want)
		}
	}
	if t.Failed() {
		t.Logf("processes:\n%s", b)
	}
	flags := map[string]*external.Flag{}
	var walk func(c *external.Command, path string)
	walk = func(c *external.Command, path string) {
		for _, f := range c.Flags {
			flags[path+" --"+f.Name] = f
		}
		for _, s := range c.Commands {
			walk(s, strings.TrimSpace(path+" "+s.Name))
		}
	}
	walk(r.Spec.Root, "")
	for _, tt := range []struct {
		flag, typ string
		required  bool
	}{
		{"release --channel", "string", true},
		{"release --notes", "string", false},
		{"release --label", "stringSlice", false},
		{"deploy --name", "string", true},
		{"deploy --region", "string", true},
		{"notify --email", "string", false},
		{"notify --phone", "string", false},
	} {
		f := flags[tt.flag]
		if f == nil {
			t.Errorf("%s: not found", tt.flag)
			continue
		}
		if f.Type != tt.typ || f.Required != tt.required {
			t.Errorf("%s: type %s, required %v; want %s, %v", tt.flag, f.Type, f.Required, tt.typ, tt.required)
		}
	}
}

// TestHiddenFlagOverlay: an overlay declares a flag that the CLI hides (a
// global option, as etcdctl's --endpoints), with its type: the CLI's
// parser takes it, so it is served on every command, and a call passes
// it. A flag the parser does not know, or a value of the type declared
// that it refuses, fails the overlay.
func TestHiddenFlagOverlay(t *testing.T) {
	bin := fixture(t, "testdata/shapes")
	load := func(overlay string) (*external.Result, error) {
		o, err := external.ParseOverlay([]byte(overlay))
		if err != nil {
			t.Fatal(err)
		}
		return external.Load(context.Background(), bin, &external.Options{NoCache: true, Overlay: o})
	}
	r, err := load(`{"commands": {"": {"flags": {"endpoints": {"type": "stringSlice", "hidden": true}}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := toolset.New(r.Root, &toolset.Config{Executable: r.Path})
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.Call(context.Background(), "shapes_server", json.RawMessage(`{"flags":{"endpoints":["a:1","b:2"]},"args":["x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if out, ok := res.StructuredContent.(toolset.Output); !ok || out.Stdout != "serving [x] endpoints [a:1 b:2]\n" {
		t.Errorf("a call with the hidden flag: %+v", res.StructuredContent)
	}
	for overlay, want := range map[string]string{
		`{"commands": {"": {"flags": {"no-such": {"type": "string", "hidden": true}}}}}`:    "unknown flag: --no-such",
		`{"commands": {"deploy": {"flags": {"retries": {"type": "int", "hidden": true}}}}}`: "",
		`{"commands": {"deploy": {"flags": {"retries": {"type": "ip", "hidden": true}}}}}`:  "the CLI's parser refuses --retries=127.0.0.1 (ip)",
		`{"commands": {"deploy": {"flags": {"port": {"type": "int", "hidden": true}}}}}`:    "unknown flag: --port",
		`{"commands": {"": {"flags": {"endpoints": {"hidden": true}}}}}`:                    "declared hidden: give its type",
	} {
		_, err := load(overlay)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", overlay, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v; want %q", overlay, err, want)
		}
	}
}

// TestUnreadableHelp: a command whose help cannot be read fails the
// reflection with an error that names the overlay that leaves it out;
// with that overlay, the others are served, and a cache entry written so
// is not served without it.
func TestUnreadableHelp(t *testing.T) {
	bin := fixture(t, "testdata/shapes")
	t.Setenv(shapes.Env, "default-command,broken-help")
	cache := t.TempDir()
	_, err := external.Load(context.Background(), bin, &external.Options{CacheDir: cache})
	var he *external.HelpError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), `give --overlay FILE, FILE holding {"exclude": ["crash"]}`) {
		t.Fatalf("err = %v; want a *HelpError naming the overlay that leaves crash out", err)
	}
	o, err := external.ParseOverlay([]byte(`{"exclude": ["crash"]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := external.Load(context.Background(), bin, &external.Options{CacheDir: cache, Overlay: o})
	if err != nil {
		t.Fatal(err)
	}
	if findCommand(r.Spec.Root, "crash") != nil || findCommand(r.Spec.Root, "deploy") == nil || findCommand(r.Spec.Root, "eval") == nil {
		t.Errorf("with the overlay: want deploy and eval, no crash; got %v", r.Spec.Root.Commands)
	}
	if r, err := external.Load(context.Background(), bin, &external.Options{CacheDir: cache, Overlay: o}); err != nil || !r.Cached {
		t.Errorf("again with the overlay: cached %v, err %v; want the cache entry", r != nil && r.Cached, err)
	}
	if _, err := external.Load(context.Background(), bin, &external.Options{CacheDir: cache}); !errors.As(err, &he) {
		t.Errorf("without the overlay, after the cache entry: err = %v; want a *HelpError", err)
	}
}

// TestInheritedFlagsAskedOnce: rclone's shape (global flags that the
// root's help does not print, some printed under their group's title on
// the commands of that group): the global flags are asked of the parser
// at the root alone, once; a command's help that prints one gives its type
// word and default, for no process.
func TestInheritedFlagsAskedOnce(t *testing.T) {
	bin := fixture(t, "testdata/shapes")
	log := filepath.Join(t.TempDir(), "argv")
	t.Setenv("SHAPES_ARGV_LOG", log)
	t.Setenv(shapes.Env, "hidden-globals")
	r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, ProbeTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	globals := []string{"--sync-size-", "--filter-size-", "--retries-", "--timeout-", "--log-", "--dry-", "--checks="}
	atRoot := 0
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		args := strings.Fields(l)
		if len(args) < 2 || args[0] != "__complete" {
			continue
		}
		for _, a := range args[1:] {
			if !slices.ContainsFunc(globals, func(g string) bool { return strings.HasPrefix(a, g) && strings.Contains(a, "=") }) {
				continue
			}
			if strings.HasPrefix(args[1], "-") {
				atRoot++
			} else {
				t.Errorf("a global flag asked again below the root: %s", l)
			}
			break
		}
	}
	if atRoot == 0 {
		t.Error("the global flags were never asked at the root")
	}
	for _, tt := range []struct{ flag, typ, def string }{
		{"sync-size-0", "SizeSuffix", "off"},
		{"checks", "Tristate", "unset"},
		{"retries-0", "int", "3"},
		{"timeout-0", "duration", ""},
	} {
		f := flagOf(r.Spec.Root, tt.flag)
		if f == nil || f.Type != tt.typ || f.Default != tt.def || !f.Persistent {
			t.Errorf("--%s: %+v; want type %s, default %q, persistent", tt.flag, f, tt.typ, tt.def)
		}
	}
}

// flagOf returns the flag named name that c defines.
func flagOf(c *external.Command, name string) *external.Flag {
	for _, f := range c.Flags {
		if f.Name == name {
			return f
		}
	}
	return nil
}
