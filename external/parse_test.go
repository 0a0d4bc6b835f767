package external

import "testing"

func TestParseCompletion(t *testing.T) {
	// kubectl's options command writes cobra's stderr to stdout: the note
	// after the directive and the error before it are not completions.
	c, err := parseCompletion("[Debug] [Error] unknown flag: --x\n:0\nCompletion ended with directive: ShellCompDirectiveDefault\n", "")
	if err != nil || c.directive != 0 || len(c.items) != 0 || !c.refused() || c.errText != "unknown flag: --x" {
		t.Errorf("stdout with cobra's notes: %+v, %v", c, err)
	}
	c, err = parseCompletion("--all\tall of them\n-A\tall of them\n_activeHelp_ hint\n:4\n", "[Debug] Completion ended")
	if err != nil || c.directive != 4 || len(c.items) != 2 || c.refused() {
		t.Errorf("flag list: %+v, %v", c, err)
	}
	fl := flagsOf(c)
	if len(fl) != 1 || fl[0].name != "all" || fl[0].shorthand != "A" || fl[0].usage != "all of them" {
		t.Errorf("flags: %+v", fl)
	}
	for _, bad := range []string{"", "hello\n", ":x\n", "garbage\n:-1\n"} {
		if _, err := parseCompletion(bad, ""); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestFromMessage(t *testing.T) {
	tests := []struct {
		msg  string
		list bool
		want string
	}{
		{`invalid argument "cobramcp-probe" for "--int" flag: must be an integer`, false, "int"},
		{`invalid argument "cobramcp-probe" for "--v" flag: strconv.ParseUint: parsing "cobramcp-probe": invalid syntax`, false, "uint"},
		{`invalid argument "x" for "--n" flag: must be a non-negative integer`, false, "uint"},
		{`invalid argument "x" for "--b" flag: strconv.ParseBool: parsing "x": invalid syntax`, true, "boolSlice"},
		{`invalid argument "x" for "--d" flag: time: invalid duration "x"`, false, "duration"},
		{`invalid argument "x" for "--m" flag: x must be formatted as key=value`, true, "stringToString"},
		{`invalid argument "x" for "--ip" flag: failed to parse IP: "x"`, false, "ip"},
		{`invalid argument "cobramcp-probe" for "--aggregation-rule" flag: malformed pair, expect string=string`, false, "stringToString"},
		{`invalid argument "x" for "--level" flag: not a level`, false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := fromMessage(tt.msg, tt.list); got != tt.want {
			t.Errorf("fromMessage(%q, %v) = %q, want %q", tt.msg, tt.list, got, tt.want)
		}
	}
}

// TestHelpCommandsAfterExamples: kubectl prints "Available Commands:"
// after "Examples:"; the list is the command's sub-commands, not part of
// its examples.
func TestHelpCommandsAfterExamples(t *testing.T) {
	p := parseHelp("Apply a configuration.\n\nExamples:\n  # Apply\n  kubectl apply -f x.yaml\n\nAvailable Commands:\n  edit-last-applied   Edit it\n  view-last-applied   View it\n\nOptions:\n    --all=false:\n\tSelect all.\n\nUsage:\n  kubectl apply (-f FILENAME | -k DIRECTORY) [options]\n", helpContext{path: "kubectl apply"})
	if p.example != "  # Apply\n  kubectl apply -f x.yaml" {
		t.Errorf("example = %q", p.example)
	}
	if len(p.commands) != 2 || p.commands[0].name != "edit-last-applied" || p.leaf() {
		t.Errorf("commands = %+v, leaf %v", p.commands, p.leaf())
	}
	if leaf := parseHelp("Get it.\n\nUsage:\n  kubectl get [NAME] [options]\n", helpContext{path: "kubectl get"}); !leaf.leaf() {
		t.Error("a help without sub-commands is a leaf")
	}
}

func TestRefusedFlag(t *testing.T) {
	for _, tt := range []struct{ msg, want string }{
		{`Error while parsing flags from args [--v=x --a=b]: invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax`, "v"},
		{`invalid argument "\"cobramcp-probe" for "--filename" flag: parse error on line 1, column 1: bare " in non-quoted-field`, "filename"},
		{`unknown flag: --cobramcp-no-such-flag`, ""},
	} {
		got := ""
		if m := refusedFlag.FindStringSubmatch(tt.msg); m != nil {
			got = m[1]
		}
		if got != tt.want {
			t.Errorf("refusedFlag(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestAssignStyleUsageKeepsDefaultWords: kubectl's help gives a flag's
// default after "="; a "(default ...)" ending its usage is the usage's own
// text (kubectl get --show-labels), not a default to take out of it.
func TestAssignStyleUsageKeepsDefaultWords(t *testing.T) {
	p := parseHelp("Get it.\n\nOptions:\n    --show-labels=false:\n\tWhen printing, show all labels as the last column (default hide labels column)\n\n    --output='':\n\tOutput format (default table)\n\nUsage:\n  kubectl get [NAME] [options]\n", helpContext{path: "kubectl get"})
	for name, want := range map[string]string{
		"show-labels": "When printing, show all labels as the last column (default hide labels column)",
		"output":      "Output format (default table)",
	} {
		hf := p.flags[name]
		if hf == nil {
			t.Fatalf("--%s not parsed: %+v", name, p.flags)
		}
		for _, typ := range []string{"", "bool", "string"} {
			if u, def, ok := hf.split(typ); u != want || def != "" || ok {
				t.Errorf("--%s split(%q) = %q, %q, %v; want %q and no default", name, typ, u, def, ok, want)
			}
		}
	}
}
