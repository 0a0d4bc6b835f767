package access

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[]`, `not a JSON object`},
		{`{"rule":[]}`, `unknown key "rule"`},
		{`{"rules":{}}`, `"rules" must be an array`},
		{`{"rules":[]}`, `no rules`},
		{`{"rules":[{"group":"a"}, 3]}`, `rule 2 3: a rule must be a JSON object`},
		{`{"rules":[{"group":"a", "readonly": true}]}`, `rule 1 {"group":"a","readonly":true}: unknown key "readonly" (a rule's keys are subject, group, scope, tools, exclude-tools, read-only, set, set-claim)`},
		{`{"rules":[{"subject":""}]}`, `rule 1 {"subject":""}: "subject" must be a non-empty string`},
		{`{"rules":[{"group":["a"]}]}`, `"group" must be a non-empty string`},
		{`{"rules":[{"scope":1}]}`, `"scope" must be a non-empty string`},
		{`{"rules":[{"tools":[]}]}`, `"tools" must name at least one`},
		{`{"rules":[{"exclude-tools":3}]}`, `"exclude-tools" must be an array of tool name patterns`},
		{`{"rules":[{"read-only":"yes"}]}`, `"read-only" must be true or false`},
		{`{"rules":[{"set":{"a":1}}]}`, `"set" must be an object of strings, FLAG to VALUE`},
		{`{"rules":[{"set":{"--a":"1"}}]}`, `"set" flag "--a": name a flag by its long name`},
		{`{"rules":[{"set-claim":{"as":""}}]}`, `"set-claim" flag "as": no claim named`},
		{`{"rules":[{"set":{"as":"x"},"set-claim":{"as":"email"}}]}`, `flag "as" is in both "set" and "set-claim"`},
	} {
		_, err := Parse([]byte(c.in))
		var re *RuleError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s): %v, want a RuleError containing %q", c.in, err, c.want)
		}
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "access.json")
	os.WriteFile(p, []byte(`{"rules":[{"grop":"a"}]}`), 0o600)
	_, err := Load(p)
	if err == nil || !strings.HasPrefix(err.Error(), "access file "+p+": rule 1 ") {
		t.Fatalf("err %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Fatal("a missing file loaded")
	}
}

func TestParse(t *testing.T) {
	f, err := Parse([]byte(`{"rules":[
		{"group":"admins","set":{"kubeconfig":"/secret/k"}},
		{"scope":"mycli.read","read-only":true,"tools":"mycli_get_*, mycli_echo","exclude-tools":["mycli_get_secret"]},
		{"subject":"carol","set-claim":{"namespace":"sub"}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rules) != 3 {
		t.Fatal(len(f.Rules))
	}
	r := f.Rules[1]
	if !r.ReadOnly || strings.Join(r.Tools, "|") != "mycli_get_*|mycli_echo" || r.ExcludeTools[0] != "mycli_get_secret" || r.Scope != "mycli.read" {
		t.Fatalf("%+v", r)
	}
	if f.Rules[0].Set["kubeconfig"] != "/secret/k" || f.Rules[2].SetClaim["namespace"] != "sub" {
		t.Fatal("pins")
	}
	if got := f.Rules[2].name(); got != `rule 3 {"subject":"carol","set-claim":{"namespace":"sub"}}` {
		t.Fatal(got)
	}
}

func TestMatch(t *testing.T) {
	f, err := Parse([]byte(`{"rules":[
		{"group":"admins"},
		{"scope":"mycli.read"},
		{"subject":"carol"},
		{"subject":"erin","group":"ops","scope":"mycli.write"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		who  *auth.TokenInfo
		rule int // -1: none
	}{
		{"groups list", &auth.TokenInfo{UserID: "bob", Extra: map[string]any{"groups": []any{"dev", "admins"}}}, 0},
		{"groups string", &auth.TokenInfo{UserID: "bob", Extra: map[string]any{"groups": "admins"}}, 0},
		{"first wins", &auth.TokenInfo{UserID: "carol", Extra: map[string]any{"groups": []any{"admins"}}}, 0},
		{"scope claim", &auth.TokenInfo{UserID: "alice", Extra: map[string]any{"scope": "openid mycli.read"}}, 1},
		{"scopes field", &auth.TokenInfo{UserID: "alice", Scopes: []string{"mycli.read"}}, 1},
		{"scp list", &auth.TokenInfo{UserID: "alice", Extra: map[string]any{"scp": []any{"mycli.read"}}}, 1},
		{"scope is a whole word", &auth.TokenInfo{UserID: "alice", Extra: map[string]any{"scope": "mycli.reader"}}, -1},
		{"subject from UserID", &auth.TokenInfo{UserID: "carol"}, 2},
		{"subject claim", &auth.TokenInfo{Extra: map[string]any{"sub": "carol"}}, 2},
		{"every key", &auth.TokenInfo{UserID: "erin", Extra: map[string]any{"groups": []any{"ops"}, "scope": "mycli.write"}}, 3},
		{"one key missing", &auth.TokenInfo{UserID: "erin", Extra: map[string]any{"groups": []any{"ops"}}}, -1},
		{"no rule", &auth.TokenInfo{UserID: "dave"}, -1},
	} {
		r, err := f.match(c.who)
		switch {
		case c.rule < 0 && !errors.Is(err, errNoRule):
			t.Errorf("%s: rule %v err %v, want ErrNoRule", c.name, r, err)
		case c.rule >= 0 && (err != nil || r.ruleIndex() != c.rule):
			t.Errorf("%s: rule %v err %v, want rule %d", c.name, r, err, c.rule+1)
		}
	}
	if _, err := f.match(nil); !errors.Is(err, errNoIdentity) {
		t.Fatal(err)
	}
}

func TestCatchAll(t *testing.T) {
	f, err := Parse([]byte(`{"rules":[{"group":"admins"},{"read-only":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.match(&auth.TokenInfo{UserID: "anyone"})
	if err != nil || r.ruleIndex() != 1 {
		t.Fatal(r, err)
	}
}
