package mycli_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/example/mycli"
)

func TestEcho(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      []string
		wantArgs  []string
		wantDash  int
		wantFlags map[string]any
	}{
		{name: "nothing", args: []string{"echo"}, wantArgs: []string{}, wantDash: -1, wantFlags: map[string]any{}},
		{name: "args only", args: []string{"echo", "a", "b c"}, wantArgs: []string{"a", "b c"}, wantDash: -1, wantFlags: map[string]any{}},
		{name: "args after dash stay args", args: []string{"echo", "a", "--", "--str=x", "-c"},
			wantArgs: []string{"a", "--str=x", "-c"}, wantDash: 1, wantFlags: map[string]any{}},
		{name: "every type", args: []string{"echo",
			"--str", "s p", "--int", "-3", "--int64", "9007199254740993", "--uint", "7", "--float", "2.5",
			"--bool", "--bool-true=false", "-ccc", "--duration", "90s", "--slice", "a,b", "--slice", "c",
			"--array", "x,y", "--array", "z", "--map", "k=v,k2=v2", "--ip", "10.0.0.1",
			"--time", "2024-05-06T07:08:09Z", "--opt", "-n", "kube-system", "-vv", "--output=json"},
			wantArgs: []string{}, wantDash: -1,
			wantFlags: map[string]any{
				"str": "s p", "int": float64(-3), "int64": float64(9007199254740993), "uint": float64(7), "float": 2.5,
				"bool": true, "bool-true": false, "count": float64(3), "duration": "1m30s",
				"slice": []any{"a", "b", "c"}, "array": []any{"x,y", "z"}, "map": map[string]any{"k": "v", "k2": "v2"},
				"ip": "10.0.0.1", "time": "2024-05-06T07:08:09Z", "opt": "implied",
				"namespace": "kube-system", "verbose": float64(2), "output": "json",
			}},
		{name: "optional value given", args: []string{"echo", "--opt=given", "--bool=false"}, wantArgs: []string{}, wantDash: -1,
			wantFlags: map[string]any{"opt": "given", "bool": false}},
		{name: "optional value does not take the next arg", args: []string{"echo", "--opt", "next"}, wantArgs: []string{"next"}, wantDash: -1,
			wantFlags: map[string]any{"opt": "implied"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := execute(t.Context(), nil, nil, tt.args...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			var got struct {
				Args          []string       `json:"args"`
				ArgsLenAtDash int            `json:"argsLenAtDash"`
				Flags         map[string]any `json:"flags"`
			}
			decode(t, r.stdout, &got)
			if !reflect.DeepEqual(got.Args, tt.wantArgs) || got.ArgsLenAtDash != tt.wantDash {
				t.Errorf("args %q (dash %d), want %q (dash %d)", got.Args, got.ArgsLenAtDash, tt.wantArgs, tt.wantDash)
			}
			if !reflect.DeepEqual(got.Flags, tt.wantFlags) {
				t.Errorf("flags\n%v\nwant\n%v", got.Flags, tt.wantFlags)
			}
		})
	}
}

func TestEchoKeepsLargeIntegersExact(t *testing.T) {
	t.Parallel()
	r := execute(t.Context(), nil, nil, "echo", "--int64", "9007199254740993", "--uint", "18446744073709551615")
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, want := range []string{`"int64":9007199254740993`, `"uint":18446744073709551615`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout %s lacks %s", r.stdout, want)
		}
	}
}

func TestFixtures(t *testing.T) {
	runCases(t, []cliCase{
		{name: "fail", args: []string{"fail", "--code", "3", "--message", "disk full", "--stdout", "partial"},
			wantErr: "exit code 3", out: []string{"partial\n"}, errOut: []string{"disk full\n"},
			check: func(t *testing.T, r result, _ string) {
				if got := mycli.ExitCode(r.err); got != 3 {
					t.Errorf("ExitCode = %d, want 3", got)
				}
			}},
		{name: "fail default", args: []string{"fail"}, errOut: []string{"failing on purpose"}, wantErr: "exit code 1",
			check: func(t *testing.T, r result, _ string) {
				if got := mycli.ExitCode(r.err); got != 1 {
					t.Errorf("ExitCode = %d, want 1", got)
				}
			}},
		{name: "fail bad code", args: []string{"fail", "--code", "0"}, wantErr: "must be 1-255"},
		{name: "flood", args: []string{"flood", "--bytes", "100000"},
			check: func(t *testing.T, r result, _ string) {
				if want := strings.Repeat(mycli.FloodLine, 100000/64+1)[:100000]; r.stdout != want {
					t.Errorf("got %d bytes, want %d bytes of FloodLine", len(r.stdout), len(want))
				}
			}},
		{name: "flood more than a chunk", args: []string{"flood", "--bytes", "3000000"},
			check: func(t *testing.T, r result, _ string) {
				if len(r.stdout) != 3000000 || strings.Count(r.stdout, mycli.FloodLine) != 3000000/64 {
					t.Errorf("got %d bytes with %d lines", len(r.stdout), strings.Count(r.stdout, mycli.FloodLine))
				}
			}},
		{name: "flood stderr", args: []string{"flood", "--bytes", "10", "--stderr"},
			check: func(t *testing.T, r result, _ string) {
				if r.stdout != "" || r.stderr != mycli.FloodLine[:10] {
					t.Errorf("stdout %q, stderr %q; want 10 bytes on stderr only", r.stdout, r.stderr)
				}
			}},
		{name: "flood negative", args: []string{"flood", "--bytes", "-5"}, wantErr: "must not be negative"},
		{name: "env-get", args: []string{"env-get", "PATH"}, out: []string{os.Getenv("PATH") + "\n"}},
		{name: "env-get unset", args: []string{"env-get", "MYCLI_TEST_SURELY_NOT_SET_9f2c"}, wantErr: "is not set",
			check: func(t *testing.T, r result, _ string) {
				if got := mycli.ExitCode(r.err); got != 2 {
					t.Errorf("ExitCode = %d, want 2", got)
				}
			}},
		{name: "env-get no name", args: []string{"env-get"}, wantErr: "accepts 1 arg(s), received 0"},
		{name: "sleep", args: []string{"sleep", "--for", "10ms"}, out: []string{"slept 10ms\n"}},
		{name: "sleep bad duration", args: []string{"sleep", "--for", "-1s"}, wantErr: "must not be negative"},
	})
}

func TestSleepStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r := execute(ctx, nil, nil, "sleep", "--for", "1h")
	if r.err == nil || !strings.Contains(r.err.Error(), "sleep interrupted") {
		t.Errorf("err = %v, want sleep interrupted", r.err)
	}
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{os.ErrNotExist, 1},
		{&mycli.ExitError{Code: 7}, 7},
		{&wrapped{&mycli.ExitError{Code: 4, Err: os.ErrPermission}}, 4},
	}
	for _, tt := range tests {
		if got := mycli.ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
	e := &mycli.ExitError{Code: 4, Err: os.ErrPermission}
	if e.Error() != os.ErrPermission.Error() || e.Unwrap() != os.ErrPermission {
		t.Errorf("ExitError with a cause: Error %q, Unwrap %v", e.Error(), e.Unwrap())
	}
}

type wrapped struct{ err error }

func (w *wrapped) Error() string { return "wrapped: " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }
