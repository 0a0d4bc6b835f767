package process

import (
	"fmt"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEnvironLikeOSExec checks the child's environment against os/exec's
// own (Cmd.Environ), which Run used to start children with.
func TestEnvironLikeOSExec(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name string
		env  []string
		dir  string
	}{
		{"nil inherits", nil, ""},
		{"nil with a dir sets PWD", nil, dir},
		{"given with a dir keeps PWD", []string{"PWD=/elsewhere", "A=1"}, dir},
		{"empty", []string{}, ""},
		{"no repeats", []string{"A=1", "B=2", "C="}, ""},
		{"last wins", []string{"A=1", "B=2", "A=3", "B=4", "A=5"}, ""},
		{"empty entries dropped", []string{"", "A=1", "", "B=2"}, ""},
		{"entries without =", []string{"X", "A=1", "X", "A=2"}, ""},
		{"leading =", []string{"=C:=x", "=C:=y", "=D=z", "=", "="}, ""},
		{"values with =", []string{"A=b=c", "A=d=e"}, ""},
		{"many, no repeats", manyEnv(100, 100), ""},
		{"many, last wins", manyEnv(100, 30), ""},
		{"64, last wins", manyEnv(64, 63), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := environ(slices.Clone(tt.env), tt.dir)
			if err != nil {
				t.Fatal(err)
			}
			want := (&osexec.Cmd{Env: slices.Clone(tt.env), Dir: tt.dir}).Environ()
			if !slices.Equal(got, want) {
				t.Errorf("environ(%q, %q) = %q; os/exec gives %q", tt.env, tt.dir, got, want)
			}
		})
	}
}

// manyEnv returns n entries over k distinct keys.
func manyEnv(n, k int) []string {
	env := make([]string, n)
	for i := range env {
		env[i] = fmt.Sprintf("K%d=%d", i%k, i)
	}
	return env
}

// TestEnvironRejectsNUL checks that an entry with a NUL byte fails the
// start, as os/exec's Start does, rather than reaching the child cut.
func TestEnvironRejectsNUL(t *testing.T) {
	t.Parallel()
	for _, env := range [][]string{{"A=1", "B=x\x00y"}, append(manyEnv(100, 100), "B=x\x00y")} {
		_, err := environ(env, "")
		if err == nil || !strings.Contains(err.Error(), "NUL") {
			t.Fatalf("environ with a NUL in %d entries: %v; want an error naming NUL", len(env), err)
		}
	}
	res, err := Run(t.Context(), self(t), []string{"exit", "0"}, Options{Env: []string{helperEnv + "=1", "B=x\x00y"}})
	if err == nil || res != nil {
		t.Fatalf("Run with a NUL in the environment = %+v, %v; want no start", res, err)
	}
}

// TestPrepareLikeOSExec checks the path and argv a start is given against
// os/exec's Command: a bare name is looked up in PATH, argv[0] stays the
// name as given.
func TestPrepareLikeOSExec(t *testing.T) {
	t.Parallel()
	sh, err := osexec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		argv []string
	}{
		{"sh", []string{"-c", "true"}},
		{sh, nil},
		{filepath.Join(".", "x", "y"), []string{"a", "", "--b"}},
	}
	for _, tt := range tests {
		s, err := prepare(tt.path, tt.argv, &Options{})
		if err != nil {
			t.Fatalf("prepare(%q): %v", tt.path, err)
		}
		cmd := osexec.Command(tt.path, tt.argv...)
		if s.path != cmd.Path || !slices.Equal(s.argv, cmd.Args) {
			t.Errorf("prepare(%q, %q) = %q, %q; os/exec gives %q, %q", tt.path, tt.argv, s.path, s.argv, cmd.Path, cmd.Args)
		}
	}
}
