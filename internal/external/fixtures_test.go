package external_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/toolset"
)

// fixture builds one of the test CLIs: a directory under testdata (this
// module) or a module of its own (test/oldcli).
func fixture(t *testing.T, dir string) string {
	t.Helper()
	return goBuild(t, dir, filepath.Base(dir))
}

type wantFlag struct {
	cmd, name, typ, def, shorthand string
	required, persistent           bool
}

func checkFlags(t *testing.T, spec *external.Spec, want []wantFlag) {
	t.Helper()
	for _, w := range want {
		c := findCommand(spec.Root, w.cmd)
		if c == nil {
			t.Errorf("no command %q", w.cmd)
			continue
		}
		var f *external.Flag
		for _, x := range c.Flags {
			if x.Name == w.name {
				f = x
			}
		}
		if f == nil {
			t.Errorf("%q: no flag --%s", w.cmd, w.name)
			continue
		}
		if f.Type != w.typ || f.Default != w.def || f.Shorthand != w.shorthand || f.Required != w.required || f.Persistent != w.persistent {
			t.Errorf("%q --%s: type %q (from %s) default %q shorthand %q required %v persistent %v; want %q %q %q %v %v",
				w.cmd, w.name, f.Type, f.TypeFrom, f.Default, f.Shorthand, f.Required, f.Persistent, w.typ, w.def, w.shorthand, w.required, w.persistent)
		}
	}
}

func findCommand(c *external.Command, path string) *external.Command {
	for _, name := range strings.Fields(path) {
		var next *external.Command
		for _, s := range c.Commands {
			if s.Name == name {
				next = s
			}
		}
		if next == nil {
			return nil
		}
		c = next
	}
	return c
}

// TestOldPflagHelp reflects a CLI built with cobra v1.0.0 and pflag
// v1.0.5: bools without a type word, no sub-command completion from the
// help command, a completion that lists "--name=" and parses no flags.
func TestOldPflagHelp(t *testing.T) {
	bin := fixture(t, "../../test/oldcli")
	spec, err := external.Reflect(context.Background(), bin, "oldcli", nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := spec.Build; b == nil || b.Cobra != "v1.0.0" || b.Pflag != "v1.0.5" || b.GoVersion == "" {
		t.Errorf("build info: %+v; want cobra v1.0.0, pflag v1.0.5", b)
	}
	checkFlags(t, spec, []wantFlag{
		{cmd: "", name: "server", typ: "string", def: "local", shorthand: "s", persistent: true},
		{cmd: "", name: "debug", typ: "bool", persistent: true},
		{cmd: "echo", name: "array", typ: "stringArray"},
		{cmd: "echo", name: "bool", typ: "bool", def: "true"},
		{cmd: "echo", name: "duration", typ: "duration", def: "2s"},
		{cmd: "echo", name: "int", typ: "int", def: "3"},
		{cmd: "echo", name: "map", typ: "stringToString"},
		{cmd: "echo", name: "slice", typ: "stringSlice", def: "[a,b]"},
		{cmd: "echo", name: "str", typ: "string"},
		{cmd: "echo", name: "verbose", typ: "count", shorthand: "v"},
		{cmd: "remote add", name: "fetch", typ: "bool"},
	})
	if c := findCommand(spec.Root, "remote add"); c == nil || c.MinArgs != 0 || c.MaxArgs != -1 || !c.Runnable {
		t.Errorf("remote add: %+v", c)
	}
	if c := findCommand(spec.Root, "remote"); c == nil || c.Runnable {
		t.Errorf("remote is a group, not runnable: %+v", c)
	}
	if len(spec.Notes) != 0 {
		t.Errorf("notes: %q", spec.Notes)
	}
}

// TestKubectlStyleHelp reflects a CLI whose help template prints flags as
// kubectl does (--name=DEFAULT:, no types): the types come from probing
// the flag parser.
func TestKubectlStyleHelp(t *testing.T) {
	bin := fixture(t, "testdata/templated")
	spec, err := external.Reflect(context.Background(), bin, "templated", nil)
	if err != nil {
		t.Fatal(err)
	}
	checkFlags(t, spec, []wantFlag{
		{cmd: "", name: "context", typ: "string", def: "default", shorthand: "c", persistent: true},
		{cmd: "", name: "v", typ: "uint", persistent: true},
		{cmd: "", name: "rc", typ: "string", persistent: true},
		{cmd: "", name: "retries", typ: "int", def: "3", persistent: true},
		{cmd: "", name: "page", typ: "int", def: "10", persistent: true},
		{cmd: "echo", name: "ratio", typ: "float64", def: "1.5"},
		{cmd: "echo", name: "offset", typ: "int", def: "-3"},
		{cmd: "echo", name: "level", typ: "int"},
		{cmd: "echo", name: "array", typ: "stringArray"},
		{cmd: "echo", name: "bool", typ: "bool", def: "true"},
		{cmd: "echo", name: "duration", typ: "duration", def: "1s"},
		{cmd: "echo", name: "float", typ: "float64"},
		{cmd: "echo", name: "int", typ: "int", def: "7"},
		{cmd: "echo", name: "ip", typ: "ip"},
		{cmd: "echo", name: "map", typ: "stringToString"},
		{cmd: "echo", name: "slice", typ: "stringSlice"},
		{cmd: "echo", name: "str", typ: "string"},
		{cmd: "config set", name: "force", typ: "bool"},
		{cmd: "config need", name: "name", typ: "string", required: true},
		{cmd: "config need", name: "count", typ: "int", def: "1"},
		{cmd: "config need", name: "dry", typ: "bool"},
		{cmd: "config need", name: "tags", typ: "stringSlice"},
		{cmd: "config need", name: "notes", typ: "stringArray"},
		{cmd: "arr", name: "env", typ: "stringArray"},
		{cmd: "kv", name: "env", typ: "stringToString"},
		{cmd: "raw", name: "level", typ: "string"},
	})
	if c := findCommand(spec.Root, "raw"); c == nil || !c.NoParse || strings.Contains(c.Use, "[flags]") {
		t.Errorf("raw parses its own flags: %+v", c)
	}
	if c := findCommand(spec.Root, "config set"); c == nil || c.MinArgs != 0 || c.MaxArgs != -1 {
		t.Errorf("config set: %+v", c)
	}
	// The help appends " [options]" to a usage line as kubectl's does, and
	// "config set" sets DisableFlagsInUseLine as kubectl's commands do:
	// the built usage lines are the in-process ones.
	tree, _ := external.Build(spec)
	for path, want := range map[string]string{"config set": "templated config set NAME VALUE", "echo": "templated echo [ARGS...] [flags]"} {
		if c, _, err := tree.Find(strings.Fields(path)); err != nil || c.UseLine() != want {
			t.Errorf("%s: usage line %q, %v; want %q", path, c.UseLine(), err, want)
		}
	}
	// --rc is read before cobra parses anything (as kubectl's --kuberc):
	// every probe value fails the CLI, so its type stays unknown.
	if len(spec.Notes) != 1 || !strings.Contains(spec.Notes[0], "templated --rc: type unknown (the CLI acts on the value before its flag parser answers") ||
		!strings.Contains(spec.Notes[0], "error: loading rc file cobramcp-probe: no such file") {
		t.Errorf("notes: %q", spec.Notes)
	}
}

// TestProbeBatches counts the processes that discovery runs for the
// kubectl-style fixture: the untyped flags of a command are asked of the
// parser together, so a command costs one process for its help, one for its
// flag list, and one per value the parser refuses plus one.
func TestProbeBatches(t *testing.T) {
	bin := fixture(t, "testdata/templated")
	log := filepath.Join(t.TempDir(), "log")
	env := append(os.Environ(), "TEMPLATED_LOG="+log)
	// A process that did not answer in time would be asked again, and
	// counted twice: on a loaded machine none is late.
	if _, err := external.Reflect(context.Background(), bin, "templated", &external.Options{Env: env, ProbeTimeout: 5 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var echo, rc []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(l, "__complete echo --") {
			echo = append(echo, l)
		}
		if strings.HasPrefix(l, "__complete --") && strings.Contains(l, "--rc=") && strings.Count(l, " --") > 1 {
			rc = append(rc, l)
		}
	}
	// echo's untyped flags: --int, --float, --ip, --level, --offset,
	// --ratio (each refuses the probe value once), --slice (refuses the
	// array probe), --map (refuses the array probe and the probe value),
	// then one process that they all take. Asked one at a time, with an
	// unknown flag first, the first seven took 12.
	if len(echo) != 10 {
		t.Errorf("echo's flags took %d processes, want 10:\n%s", len(echo), strings.Join(echo, "\n"))
	}
	// The root's --rc fails the CLI before cobra answers; the batch is run
	// again with its values marked, the error names --rc's mark, and --rc
	// is asked alone at once: two batches hold it (searched by halves, at
	// least four would).
	if len(rc) != 2 || !strings.Contains(rc[1], "--rc=cobramcp-probe-1 ") {
		t.Errorf("--rc was in %d batches, want 2, the second marked:\n%s", len(rc), strings.Join(rc, "\n"))
	}
}

// TestProbeTimeouts: a probe that hangs, tried again, leaves its flag
// served as a string with a note; a command whose flag list hangs is left
// out with a note; the rest of the tree is reflected.
func TestProbeTimeouts(t *testing.T) {
	bin := fixture(t, "testdata/templated")
	env := append(os.Environ(), "TEMPLATED_HANG=--int=cobramcp-probe|__complete kv -")
	cache := t.TempDir()
	r, err := external.Load(context.Background(), bin, &external.Options{Env: env, ProbeTimeout: 2 * time.Second, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	spec := r.Spec
	if !spec.Partial {
		t.Error("Spec.Partial is false after processes timed out")
	}
	// Not cached: the next start, the binary answering, asks again and
	// finds kv; the one after reads what that start cached.
	for i, wantCached := range []bool{false, true} {
		r, err := external.Load(context.Background(), bin, &external.Options{ProbeTimeout: 2 * time.Second, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cached != wantCached || r.Spec.Partial || findCommand(r.Spec.Root, "kv") == nil {
			t.Errorf("start %d after the timeouts: cached %v (want %v), partial %v, kv found %v", i+2, r.Cached, wantCached, r.Spec.Partial, findCommand(r.Spec.Root, "kv") != nil)
		}
	}
	checkFlags(t, spec, []wantFlag{
		{cmd: "echo", name: "int", typ: "string", def: "7"},
		{cmd: "echo", name: "float", typ: "float64"},
		{cmd: "echo", name: "slice", typ: "stringSlice"},
		{cmd: "arr", name: "env", typ: "stringArray"},
	})
	if c := findCommand(spec.Root, "kv"); c != nil {
		t.Errorf("kv's flag list hangs; it is served: %+v", c)
	}
	var intNote, kvNote bool
	for _, n := range spec.Notes {
		intNote = intNote || strings.HasPrefix(n, "templated echo --int: type unknown (") && strings.Contains(n, "nor within 4s when tried again")
		kvNote = kvNote || strings.HasPrefix(n, "templated kv: left out: ") && strings.Contains(n, "did not finish within 2s")
	}
	if !intNote || !kvNote {
		t.Errorf("notes: %q", spec.Notes)
	}
}

// TestNoNetworkDuringReflection reflects a CLI whose completion functions,
// PersistentPreRun and Run all dial a listener: none may connect.
func TestNoNetworkDuringReflection(t *testing.T) {
	bin := fixture(t, "testdata/netcli")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// The fixture itself must be able to dial it: check with the command
	// that runs (a call), then reflect.
	env := append(os.Environ(), "NETCLI_ADDR="+l.Addr().String())
	spec, err := external.Reflect(context.Background(), bin, "netcli", &external.Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	// Whatever dialed during reflection is queued on the listener now.
	l.(*net.TCPListener).SetDeadline(time.Now())
	if c, err := l.Accept(); err == nil {
		buf := make([]byte, 100)
		n, _ := c.Read(buf)
		t.Fatalf("reflection reached the network: %q", buf[:n])
	}
	checkFlags(t, spec, []wantFlag{
		{cmd: "get", name: "selector", typ: "string"},
		{cmd: "get", name: "limit", typ: "int"},
		{cmd: "get logs", name: "follow", typ: "bool", required: true},
	})
	// The check is not vacuous: running the command dials.
	l.(*net.TCPListener).SetDeadline(time.Time{})
	r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runBinary(r.Path, env, "get", "pods"); err != nil {
		t.Fatal(err)
	}
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

// TestBrokenBinaries: a binary that hangs, one that is not a Cobra CLI and
// one that prints garbage each give a clear error, and nothing is left
// running.
func TestBrokenBinaries(t *testing.T) {
	t.Run("hangs", func(t *testing.T) {
		bin := fixture(t, "testdata/hang")
		pidfile := filepath.Join(t.TempDir(), "pid")
		env := append(os.Environ(), "HANG_PIDFILE="+pidfile)
		_, err := external.Reflect(context.Background(), bin, "hang", &external.Options{Env: env, ProbeTimeout: 500 * time.Millisecond})
		if err == nil || !strings.Contains(err.Error(), "did not finish within 500ms") || !errors.Is(err, external.ErrNotCobra) {
			t.Fatalf("err = %v", err)
		}
		b, err := os.ReadFile(pidfile)
		if err != nil {
			t.Fatal(err)
		}
		pid, _ := strconv.Atoi(string(b))
		// Reflect returned after the process group was ended: the child
		// is gone, or a zombie waiting for init to reap it.
		if err := syscall.Kill(pid, 0); err == nil {
			stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			if f := strings.Fields(string(stat)); len(f) < 3 || f[2] != "Z" {
				t.Errorf("the hanging binary's child %d is still running: %s", pid, stat)
			}
		}
	})
	for _, tc := range []struct{ dir, want string }{
		{"testdata/notcobra", "no completion directive line"},
		{"testdata/garbage", "is not a completion directive"},
	} {
		t.Run(filepath.Base(tc.dir), func(t *testing.T) {
			bin := fixture(t, tc.dir)
			_, err := external.Reflect(context.Background(), bin, filepath.Base(tc.dir), nil)
			if err == nil || !errors.Is(err, external.ErrNotCobra) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// TestStaleCache: with Options.Stale, a binary that changed since it was
// cached is served from the previous reflection at once, marked stale, and
// reflected again in the background; the next Load reads the new
// reflection from the cache. Without it, Load reflects the changed binary
// first.
func TestStaleCache(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	bin := filepath.Join(dir, "templated")
	install := func(src string) {
		t.Helper()
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin+".new", b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(bin+".new", bin); err != nil {
			t.Fatal(err)
		}
	}
	install(fixture(t, "testdata/templated"))
	load := func(stale bool) *external.Result {
		t.Helper()
		r, err := external.Load(context.Background(), bin, &external.Options{CacheDir: cache, Stale: stale})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := load(true); r.Cached || r.Stale || r.Refreshed != nil || findCommand(r.Spec.Root, "kv") == nil {
		t.Fatalf("first load: cached %v, stale %v, refreshing %v", r.Cached, r.Stale, r.Refreshed != nil)
	}
	// Another CLI installed at the same path (same root name): mycli has
	// no kv command.
	install(mycliBin(t))
	r := load(true)
	if !r.Cached || !r.Stale || r.Refreshed == nil || findCommand(r.Spec.Root, "kv") == nil || !strings.Contains(r.StaleSince, bin) {
		t.Fatalf("after the change: cached %v, stale %v (since %q), refreshing %v, kv served %v; want the previous reflection, stale, refreshing",
			r.Cached, r.Stale, r.StaleSince, r.Refreshed != nil, findCommand(r.Spec.Root, "kv") != nil)
	}
	if err := <-r.Refreshed; err != nil {
		t.Fatalf("background reflection: %v", err)
	}
	if _, open := <-r.Refreshed; open {
		t.Error("Refreshed not closed after its outcome")
	}
	r = load(true)
	if !r.Cached || r.Stale || r.Refreshed != nil || findCommand(r.Spec.Root, "kv") != nil {
		t.Errorf("next load: cached %v, stale %v, kv served %v; want the new reflection from the cache", r.Cached, r.Stale, findCommand(r.Spec.Root, "kv") != nil)
	}
	// Without Stale, a changed binary is reflected before Load returns.
	install(fixture(t, "testdata/templated"))
	r = load(false)
	if r.Cached || r.Stale || findCommand(r.Spec.Root, "kv") == nil {
		t.Errorf("without Stale: cached %v, stale %v, kv served %v; want a new reflection", r.Cached, r.Stale, findCommand(r.Spec.Root, "kv") != nil)
	}
}

// TestCustomValueTypes reflects custom pflag.Value types that a guess from
// the default would get wrong (a port-or-name with default 8080 and an API
// version with default 1.0 take any string; an interface name refuses
// values longer than 15 bytes; a uid-or-name wraps Atoi's error), beside
// pflag's integer and float types at their limits, and CLIs that fail
// before cobra answers and print their whole command line.
func TestCustomValueTypes(t *testing.T) {
	bin := fixture(t, "testdata/customtypes")
	spec, err := external.Reflect(context.Background(), bin, "customtypes", nil)
	if err != nil {
		t.Fatal(err)
	}
	checkFlags(t, spec, []wantFlag{
		{cmd: "types", name: "port", typ: "string", def: "8080"},
		{cmd: "types", name: "api", typ: "string", def: "1.0"},
		{cmd: "types", name: "iface", typ: "string"},
		{cmd: "types", name: "f0", typ: "float64"},
		{cmd: "types", name: "f3", typ: "float64", def: "3"},
		{cmd: "types", name: "u", typ: "uint"},
		{cmd: "types", name: "u8", typ: "uint", def: "7"},
		{cmd: "types", name: "i8", typ: "int", def: "5"},
		{cmd: "types", name: "i32", typ: "int", def: "2147483647"},
		{cmd: "types", name: "u64", typ: "uint", def: "18446744073709551615"},
		{cmd: "types", name: "cnt", typ: "int", shorthand: "c"},
		{cmd: "types", name: "lvl", typ: "int"},
		{cmd: "types", name: "d", typ: "duration"},
		{cmd: "types", name: "user", typ: "string", def: "0"},
		// pflag prints the type's name, which is no placeholder of the usage:
		// served by that name, as a string, as in-process ("(type: ifname)").
		{cmd: "pstyle", name: "iface", typ: "ifname"},
		// A custom type that refuses in pflag's words for a map (crane's
		// keyToValue) is its own type still: served by its name, as a
		// string, as in-process.
		{cmd: "pstyle", name: "env", typ: "keyToValue"},
		// A type word rules out bool, though the type takes "true".
		{cmd: "pstyle", name: "wait", typ: "WaitStrategy", def: "hookOnly"},
		// A placeholder word is probed; a default in words on a string is
		// its usage's text.
		{cmd: "pstyle", name: "head", typ: "string"},
		// A custom type offered again takes one value an occurrence:
		// served by its name, repeatable, as in-process.
		{cmd: "pstyle", name: "arg", typ: "argsSlice"},
		{cmd: "echoall", name: "tok", typ: "string"},
		{cmd: "echoall", name: "n", typ: "int", def: "3"},
		{cmd: "echoall", name: "r", typ: "float64", def: "0.5"},
		{cmd: "echoall2", name: "tok", typ: "string"},
		{cmd: "req", name: "thing", typ: "string", required: true},
		{cmd: "req", name: "n", typ: "int", def: "3"},
		{cmd: "req", name: "sl", typ: "stringSlice"},
		{cmd: "req", name: "ar", typ: "stringArray"},
	})
	// The root's help prints its Short alone: that is its Short (no
	// parent lists it), which the server's instructions begin with.
	if spec.Root.Short != "custom flag types" || spec.Root.Long != "" {
		t.Errorf("root: Short %q, Long %q; want the Short, no Long", spec.Root.Short, spec.Root.Long)
	}
	ps := findCommand(spec.Root, "pstyle")
	for _, f := range ps.Flags {
		if f.Repeatable != (f.Name == "arg") {
			t.Errorf("pstyle --%s: repeatable %v", f.Name, f.Repeatable)
		}
	}
	for name, want := range map[string][2]string{
		"head": {"The branch that contains commits (default [current branch])", ""},
		"wait": {"wait until resources are ready", "watcher"},
	} {
		var f *external.Flag
		for _, x := range ps.Flags {
			if x.Name == name {
				f = x
			}
		}
		if f == nil || f.Usage != want[0] || f.NoOptDefVal != want[1] || f.Repeatable {
			t.Errorf("pstyle --%s: %+v; want usage %q, optional value %q", name, f, want[0], want[1])
		}
	}
	for _, n := range spec.Notes {
		// echoall2's --cfg fails the CLI before cobra on every value but
		// its default: its type is unknown, and the note must say why.
		if strings.Contains(n, "echoall2 --cfg") && !strings.Contains(n, "before its flag parser answers") {
			t.Errorf("note: %s", n)
		}
	}
}

// TestStaleCacheCases: a link moved to another version (the cache is keyed
// by the path as named), a binary replaced by one that is not a Cobra CLI
// (its entry is dropped, so the next start fails clearly), and a binary
// that changes while it is reflected (served, not cached).
func TestStaleCacheCases(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	v1, v2 := filepath.Join(dir, "v1"), filepath.Join(dir, "v2")
	for _, d := range []string{v1, v2} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile := func(src, dst string, mode os.FileMode) {
		t.Helper()
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, mode); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(fixture(t, "testdata/templated"), filepath.Join(v1, "templated"), 0o755)
	copyFile(mycliBin(t), filepath.Join(v2, "templated"), 0o755)
	link := filepath.Join(dir, "templated")
	if err := os.Symlink(filepath.Join(v1, "templated"), link); err != nil {
		t.Fatal(err)
	}
	load := func() (*external.Result, error) {
		return external.Load(context.Background(), link, &external.Options{CacheDir: cache, Stale: true})
	}
	if _, err := load(); err != nil {
		t.Fatal(err)
	}
	// The link now points at the next version.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(v2, "templated"), link); err != nil {
		t.Fatal(err)
	}
	r, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if !r.Stale || findCommand(r.Spec.Root, "kv") == nil {
		t.Fatalf("after the link moved: stale %v, kv served %v; want the previous reflection", r.Stale, findCommand(r.Spec.Root, "kv") != nil)
	}
	if err := <-r.Refreshed; err != nil {
		t.Fatal(err)
	}
	// The binary is replaced by a script that is not a Cobra CLI.
	copyFile(filepath.Join(fixture(t, "testdata/notcobra")), filepath.Join(v2, "templated"), 0o755)
	if r, err = load(); err != nil {
		t.Fatal(err)
	}
	if err := <-r.Refreshed; !errors.Is(err, external.ErrNotCobra) {
		t.Fatalf("background reflection of a non-Cobra binary: %v, want ErrNotCobra", err)
	}
	if _, err := load(); !errors.Is(err, external.ErrNotCobra) {
		t.Errorf("the start after: %v, want ErrNotCobra (the previous reflection dropped)", err)
	}
	// A binary that changes while it is reflected: each run puts a copy of
	// the script in its place (a new file renamed over it, never a write to
	// the file others run, which would make their exec fail: ETXTBSY).
	real := fixture(t, "testdata/templated")
	script := filepath.Join(dir, "touchy", "templated")
	if err := os.Mkdir(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "#!/bin/sh\ncp \"$0\" \"$0.$$\" && mv -f \"$0.$$\" \"$0\"\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(script, past, past); err != nil {
		t.Fatal(err)
	}
	spec, err := external.Reflect(context.Background(), script, "templated", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !spec.Partial || !slices.ContainsFunc(spec.Notes, func(n string) bool { return strings.Contains(n, "changed while it was reflected") }) {
		t.Errorf("a binary changed during reflection: partial %v, notes %q", spec.Partial, spec.Notes)
	}
}

// TestTraverseChildren: whether the root reads its local flags before a
// sub-command's name is asked of the parser; then the served run tool
// takes them, written before "run", as the binary reads them.
func TestTraverseChildren(t *testing.T) {
	bin := fixture(t, "testdata/traverse")
	for _, tt := range []struct {
		off  bool
		want bool
	}{{false, true}, {true, false}} {
		if tt.off {
			t.Setenv("TRAVERSE_OFF", "1")
		}
		spec, err := external.Reflect(context.Background(), bin, "traverse", nil)
		if err != nil {
			t.Fatal(err)
		}
		if spec.TraverseChildren != tt.want {
			t.Errorf("TRAVERSE_OFF %v: TraverseChildren %v, want %v", tt.off, spec.TraverseChildren, tt.want)
		}
		if !tt.want {
			continue
		}
		tree, _ := external.Build(spec)
		ts, err := toolset.New(tree, &toolset.Config{Executable: bin})
		if err != nil {
			t.Fatal(err)
		}
		res, err := listed(t, ts).Call(context.Background(), "traverse_run", json.RawMessage(`{"flags":{"context":"prod","debug":true,"cpu-shares":512},"args":["nginx"]}`))
		if err != nil {
			t.Fatal(err)
		}
		if out, ok := res.StructuredContent.(toolset.Output); !ok || out.Stdout != "context=prod debug=true cpu-shares=512 image=nginx\n" {
			t.Errorf("run with the root's options: %+v", res.StructuredContent)
		}
	}
}
