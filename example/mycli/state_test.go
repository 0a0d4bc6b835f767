package mycli_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cobramcp/cobramcp/example/mycli"
)

func TestStatePersistsAcrossTrees(t *testing.T) {
	t.Parallel()
	state := newState(t)
	steps := []struct {
		args []string
		want string // in `get pods -A -o name` afterwards
		gone string
	}{
		{[]string{"delete", "pod", "db-0"}, "pod/api-5d8b6c-xyz89", "pod/db-0"},
		{[]string{"scale", "deployment", "web", "--replicas", "3"}, "pod/web-1", ""},
		{[]string{"run", "cache", "--image", "redis"}, "pod/cache-1", ""},
		{[]string{"label", "cache-1", "env=prod"}, "pod/cache-1", ""},
		{[]string{"delete", "pod", "-l", "env=prod"}, "pod/web-1", "pod/cache-1"},
	}
	for _, st := range steps {
		if r := run(t, state, st.args...); r.err != nil {
			t.Fatalf("mycli %q: %v", st.args, r.err)
		}
		r := run(t, state, "get", "pods", "-A", "-o", "name")
		if r.err != nil {
			t.Fatal(r.err)
		}
		got := lines(r.stdout)
		if !slices.Contains(got, st.want) || st.gone != "" && slices.Contains(got, st.gone) {
			t.Errorf("after %q: pods %q, want %s and not %q", st.args, got, st.want, st.gone)
		}
	}
	entries, err := os.ReadDir(filepath.Dir(state))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("state dir holds %d entries, want only the state file (no temporary files left)", len(entries))
	}
}

func TestStateFromEnv(t *testing.T) { // not parallel: it sets the environment
	state := filepath.Join(t.TempDir(), "sub", "dir", "state.json")
	t.Setenv(mycli.StateEnv, state)
	r := execute(t.Context(), nil, nil, "delete", "pod", "db-0")
	if r.err != nil {
		t.Fatal(r.err)
	}
	if slices.Contains(podNames(readState(t, state), "default"), "db-0") {
		t.Error("db-0 still in the state named by $MYCLI_STATE")
	}
	other := newState(t)
	if r := run(t, other, "get", "pods", "db-0"); r.err != nil {
		t.Errorf("--state must win over $%s: %v", mycli.StateEnv, r.err)
	}
}

func TestStateDefaultPath(t *testing.T) { // not parallel: it sets the environment
	home := t.TempDir()
	t.Setenv(mycli.StateEnv, "")
	t.Setenv("HOME", home)            // os.UserConfigDir on unix
	t.Setenv("XDG_CONFIG_HOME", home) // linux
	t.Setenv("AppData", home)         // windows
	if r := execute(t.Context(), nil, nil, "label", "db-0", "env=x"); r.err != nil {
		t.Fatal(r.err)
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dir, home) {
		t.Fatalf("UserConfigDir %s is not under the test's home %s", dir, home)
	}
	readState(t, filepath.Join(dir, "mycli", "state.json"))
}

func TestLoadState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := mycli.LoadState(filepath.Join(dir, "missing.json"))
	if err != nil || !reflect.DeepEqual(s, mycli.SeedState()) {
		t.Errorf("missing file: %v, %+v; want the seed", err, s)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := mycli.LoadState(bad); err == nil || !strings.Contains(err.Error(), "parse state") {
		t.Errorf("corrupt file: err = %v, want parse state error", err)
	}
	if r := run(t, bad, "get", "pods"); r.err == nil {
		t.Error("get pods with a corrupt state: no error")
	}
	if _, err := mycli.LoadState(dir); err == nil {
		t.Error("a directory as state: no error")
	}
}

func TestSaveRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a", "b", "state.json")
	want := mycli.SeedState()
	want.Pods = want.Pods[:1]
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := mycli.LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip: got %+v, want %+v", got, want)
	}
}

func TestSeedStateIsFresh(t *testing.T) {
	t.Parallel()
	a := mycli.SeedState()
	a.Pods[0].Labels["app"] = "changed"
	if mycli.SeedState().Pods[0].Labels["app"] != "web" {
		t.Error("SeedState shares maps between calls")
	}
}

// TestConcurrentTrees runs many trees at once (go test -race checks for shared state).
func TestConcurrentTrees(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	results := make([]result, 8)
	for i := range results {
		wg.Go(func() {
			ns := []string{"default", "kube-system"}[i%2]
			results[i] = execute(t.Context(), nil, nil, "--state", newState(t), "get", "pods", "-n", ns, "-o", "name")
		})
	}
	wg.Wait()
	for i, r := range results {
		want := "pod/db-0"
		if i%2 == 1 {
			want = "pod/kube-proxy-h2x9z"
		}
		if r.err != nil || !strings.Contains(r.stdout, want) {
			t.Errorf("tree %d: %v, %q; want %s", i, r.err, r.stdout, want)
		}
	}
}

func TestNewReturnsFreshTrees(t *testing.T) {
	t.Parallel()
	a, b := mycli.New(), mycli.New()
	if err := a.PersistentFlags().Set("namespace", "kube-system"); err != nil {
		t.Fatal(err)
	}
	if got := b.PersistentFlags().Lookup("namespace").Value.String(); got != "default" {
		t.Errorf("second tree's namespace = %q, want default", got)
	}
	pa, _, _ := a.Find([]string{"get", "pods"})
	pb, _, _ := b.Find([]string{"get", "pods"})
	if pa == pb || pa.Flags() == pb.Flags() {
		t.Error("two trees share the get pods command or its flags")
	}
}
