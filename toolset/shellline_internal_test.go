package toolset

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestShellLine (issue 34.8): a word that a terminal would not show as
// itself is written in ANSI-C quoting with every such character escaped;
// other words are as before.
func TestShellLine(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"mycli", "delete", "pod", "web-0", "--kubeconfig=***"}, "mycli delete pod web-0 --kubeconfig=***"},
		{[]string{"a b", "it's", ""}, `'a b' 'it'\''s' ''`},
		{[]string{"web-0\x1b[2K\rmycli get pods"}, `$'web-0\x1b[2K\rmycli get pods'`},
		{[]string{"a\nb\tc"}, `$'a\nb\tc'`},
		{[]string{"pod\u202e0-bew"}, `$'pod\u202e0-bew'`},
		{[]string{"\u2066x\u2069", "\u200bzero", "nb\u00a0sp", "line\u2028sep", "nel\u0085"}, `$'\u2066x\u2069' $'\u200bzero' $'nb\u00a0sp' $'line\u2028sep' $'nel\u0085'`},
		{[]string{"tag\U000e0041", "vs\ufe0f", "\u3164", "bom\ufeff", "del\x7f", "bell\a"}, `$'tag\U000e0041' $'vs\ufe0f' $'\u3164' $'bom\ufeff' $'del\x7f' $'bell\x07'`},
		{[]string{"bad\xffutf8", "quote'and\\\x1b"}, `$'bad\xffutf8' $'quote\'and\\\x1b'`},
		{[]string{"naïve", "日本"}, `'naïve' '日本'`},
	} {
		got := shellLine(tt.argv)
		if got != tt.want {
			t.Errorf("shellLine(%q) = %s, want %s", tt.argv, got, tt.want)
		}
		for _, r := range got {
			if r != ' ' && (!unicode.IsGraphic(r) || unseen(r)) {
				t.Errorf("shellLine(%q) = %q holds %U", tt.argv, got, r)
			}
		}
	}
}

// TestShellLineReadBack: bash reads every line shellLine writes back to
// the argv it was written from, byte for byte.
func TestShellLineReadBack(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("no bash on PATH: this test reads the lines back as a shell does") // .ci/run is bash
	}
	argv := []string{"plain", "a b", "it's", "", "web-0\x1b[2K\rmycli get pods", "a\nb\tc", "pod\u202e0-bew",
		"\u2066x\u2069\u200b\u00a0\u2028\u0085", "tag\U000e0041\ufe0f\u3164\ufeff\x7f\a", "bad\xff\xfe", "quote'and\\\x1b5", "\x01\x1f1", "\u202eaf"}
	line := shellLine(argv)
	out, err := exec.Command(bash, "-c", `printf '%s\0' `+line).Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v", line, err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, argv) {
		t.Errorf("bash read %s back as\n%q, want\n%q", line, got, argv)
	}
	if bytes.ContainsAny([]byte(line), "\x1b\r\n\u202e") {
		t.Errorf("the line shows a control character raw: %q", line)
	}
}
