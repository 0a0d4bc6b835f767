package exec_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/exec"
)

func TestCommandLineArgv(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("context", "", "a root flag read before the sub-command (TraverseChildren)")
	fs.Int("cpu-shares", 0, "the command's own")
	fs.BoolP("detach", "d", false, "")
	fs.String("host", "", "the command's own --host")
	fs.String("d.host", "", "the root's --host, served under another name")
	isSub := func(w string) bool { return w == "inspect" }
	tests := []struct {
		name            string
		line            exec.CommandLine
		flags           map[string]any
		args, afterDash []string
		want            []string
		err             string
	}{
		{
			name:  "plain",
			line:  exec.CommandLine{Name: "d run", Path: []string{"run"}, Flags: fs},
			flags: map[string]any{"cpu-shares": 512}, args: []string{"nginx"},
			want: []string{"run", "--cpu-shares=512", "nginx"},
		},
		{
			name:  "an ancestor's flag goes before the sub-command",
			line:  exec.CommandLine{Name: "d container run", Path: []string{"container", "run"}, Flags: fs, Traversed: map[string]int{"context": 0}},
			flags: map[string]any{"context": "ctx", "cpu-shares": 512}, args: []string{"nginx"},
			want: []string{"--context=ctx", "container", "run", "--cpu-shares=512", "nginx"},
		},
		{
			name: "an ancestor's flag served under another name is written by its own",
			line: exec.CommandLine{Name: "d service create", Path: []string{"service", "create"}, Flags: fs,
				Traversed: map[string]int{"context": 0, "d.host": 0}, FlagNames: map[string]string{"d.host": "host"}},
			flags: map[string]any{"d.host": "tcp://h", "context": "c", "host": "a:1.2.3.4"}, args: []string{"nginx"},
			want: []string{"--context=c", "--host=tcp://h", "service", "create", "--host=a:1.2.3.4", "nginx"},
		},
		{
			name: "an arg naming a sub-command follows --",
			line: exec.CommandLine{Name: "d image", Path: []string{"image"}, Flags: fs, SubCommand: isSub},
			args: []string{"inspect"},
			want: []string{"image", "--", "inspect"},
		},
		{
			name: "no-parse: verbatim, then -- and the words after it",
			line: exec.CommandLine{Name: "d plugin", Path: []string{"plugin"}, Flags: fs, NoParse: true},
			args: []string{"--token=x", "-n"}, afterDash: []string{"ls"},
			want: []string{"plugin", "--token=x", "-n", "--", "ls"},
		},
		{
			name: "no-parse: a first word naming a sub-command is refused",
			line: exec.CommandLine{Name: "d plugin", Path: []string{"plugin"}, Flags: fs, NoParse: true, SubCommand: isSub},
			args: []string{"inspect"},
			err:  `would be read by cobra as a sub-command of "d plugin"`,
		},
		{
			name: "traverse: an arg anywhere that selects a sub-command is refused",
			line: exec.CommandLine{Name: "d image", Path: []string{"image"}, Flags: fs, TraverseSubCommand: func(w string) string {
				if w == "insp" {
					return "inspect"
				}
				return ""
			}},
			args: []string{"a", "insp"},
			err:  `could be read as the sub-command "inspect" of "d image"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.line.Argv(tt.flags, tt.args, tt.afterDash)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Argv = %q, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("Argv = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
