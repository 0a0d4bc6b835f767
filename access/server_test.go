package access_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/access"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"
)

func reflection(t *testing.T) *toolset.Toolset {
	t.Helper()
	ts, err := toolset.New(mycli.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func servers(t *testing.T, file string, o access.Options) (*access.Servers, error) {
	t.Helper()
	f, err := access.Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	return access.New(f, reflection(t), o)
}

// A bad rule stops the server at start, naming the rule.
func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		name, file, want string
		cli              []toolset.Policy
	}{
		{"a pattern matching nothing", `{"rules":[{"group":"a"},{"tools":["mycli_nope"]}]}`, `rule 2 {"tools":["mycli_nope"]}: tools: no tool matches mycli_nope`, nil},
		{"an exclusion matching nothing", `{"rules":[{"exclude-tools":["nope_*"]}]}`, `rule 1 {"exclude-tools":["nope_*"]}: exclude-tools: no tool matches nope_*`, nil},
		{"a claim pin on a flag no served tool has", `{"rules":[{"tools":["mycli_version"],"set-claim":{"str":"email"}}]}`, `rule 1 {"tools":["mycli_version"],"set-claim":{"str":"email"}}: "set-claim": no tool this rule serves takes --str`, nil},
		{"a pin its flag refuses", `{"rules":[{"tools":["mycli_echo"],"set":{"int":"many"}}]}`, `rule 1 {"tools":["mycli_echo"],"set":{"int":"many"}}: `, nil},
		{"a pin on a flag no tool takes", `{"rules":[{"set":{"nope":"x"}}]}`, `rule 1 {"set":{"nope":"x"}}: `, nil},
		{"nothing left with the command line", `{"rules":[{"tools":["mycli_version"]}]}`, `rule 1 {"tools":["mycli_version"]}: the policy leaves no tool to serve`, []toolset.Policy{{ExcludeTools: []string{"mycli_version"}}}},
		{"a flag pinned twice", `{"rules":[{"set":{"namespace":"a"}}]}`, `rule 1 {"set":{"namespace":"a"}}: `, []toolset.Policy{{Pins: []toolset.Pin{{Flag: "namespace", Value: "b", From: "--set"}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := servers(t, c.file, access.Options{Policies: c.cli})
			var re *access.RuleError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want a RuleError with %q", err, c.want)
			}
		})
	}
}

func names(t *testing.T, s *access.Servers, who *auth.TokenInfo) []string {
	t.Helper()
	v, err := s.View(who)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tool := range v.Tools() {
		out = append(out, tool.Name)
	}
	return out
}

func TestViews(t *testing.T) {
	s, err := servers(t, `{"rules":[
		{"group":"admins"},
		{"scope":"mycli.read","read-only":true},
		{"subject":"carol","tools":"mycli_echo,mycli_version","set-claim":{"namespace":"sub"}}
	]}`, access.Options{Listing: toolset.Listing{Mode: toolset.ToolModeFull}, Policies: []toolset.Policy{{ExcludeTools: []string{"mycli_version"}}}})
	if err != nil {
		t.Fatal(err)
	}
	bob := names(t, s, &auth.TokenInfo{UserID: "bob", Extra: map[string]any{"groups": []any{"admins"}}})
	alice := names(t, s, &auth.TokenInfo{UserID: "alice", Extra: map[string]any{"scope": "mycli.read"}})
	carol := names(t, s, &auth.TokenInfo{UserID: "carol"})
	if !slices.Contains(bob, "mycli_delete_pod") || slices.Contains(bob, "mycli_version") {
		t.Errorf("bob: %v", bob)
	}
	if slices.Contains(alice, "mycli_delete_pod") || !slices.Contains(alice, "mycli_get_pods") || len(alice) >= len(bob) {
		t.Errorf("alice: %v", alice)
	}
	if !slices.Equal(carol, []string{"mycli_echo"}) {
		t.Errorf("carol: %v (the command line excludes mycli_version for everyone)", carol)
	}
	// carol's namespace is pinned: it leaves her schema.
	v, err := s.View(&auth.TokenInfo{UserID: "carol"})
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v.Tools()[0].InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(j), `"namespace"`) {
		t.Errorf("carol's echo lists the pinned namespace: %s", j)
	}
}

func TestServerFor(t *testing.T) {
	s, err := servers(t, `{"rules":[
		{"group":"admins"},
		{"set-claim":{"namespace":"team"}}
	]}`, access.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	get := func(who *auth.TokenInfo) any {
		t.Helper()
		srv, err := s.ServerFor(ctx, who)
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	admin1 := get(&auth.TokenInfo{UserID: "a", Extra: map[string]any{"groups": []any{"admins"}}})
	admin2 := get(&auth.TokenInfo{UserID: "b", Extra: map[string]any{"groups": []any{"admins"}}})
	red1 := get(&auth.TokenInfo{UserID: "c", Extra: map[string]any{"team": "red"}})
	red2 := get(&auth.TokenInfo{UserID: "d", Extra: map[string]any{"team": "red"}})
	blue := get(&auth.TokenInfo{UserID: "e", Extra: map[string]any{"team": "blue"}})
	if admin1 != admin2 || red1 != red2 || red1 != blue {
		t.Error("the callers of one rule do not share its server (a claim's value is read at each call)")
	}
	if admin1 == red1 {
		t.Error("different rules share a server")
	}
	for _, c := range []struct {
		name string
		who  *auth.TokenInfo
		want error
	}{
		{"no identity", nil, access.ErrNoIdentity},
		{"a claim missing", &auth.TokenInfo{UserID: "f"}, access.ErrClaim},
		{"a claim that is a list", &auth.TokenInfo{UserID: "g", Extra: map[string]any{"team": []any{"x"}}}, access.ErrClaim},
	} {
		_, err := s.ServerFor(ctx, c.who)
		if !errors.Is(err, serve.ErrForbidden) || !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want ErrForbidden and %v", c.name, err, c.want)
		}
	}
	// No rule matches.
	s2, err := servers(t, `{"rules":[{"group":"admins"}]}`, access.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.ServerFor(ctx, &auth.TokenInfo{UserID: "dave"}); !errors.Is(err, serve.ErrForbidden) || !errors.Is(err, access.ErrNoRule) {
		t.Fatal(err)
	}
}

// TestClaimValuesShareTheView (issue 34.6): callers with distinct claim
// values cost no view of their own: a thousand of them are served by their
// rule's one server, and a claim value its flag refuses is still refused.
func TestClaimValuesShareTheView(t *testing.T) {
	s, err := servers(t, `{"rules":[{"tools":["mycli_echo"],"set-claim":{"int":"uid","namespace":"email"}}]}`, access.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var first any
	for i := range 1000 {
		srv, err := s.ServerFor(ctx, &auth.TokenInfo{UserID: fmt.Sprint("u", i), Extra: map[string]any{"email": fmt.Sprintf("u%d@example.com", i), "uid": json.Number(fmt.Sprint(1000 + i))}})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = srv
		} else if srv != first {
			t.Fatalf("caller %d has a server of its own", i)
		}
	}
	_, err = s.ServerFor(ctx, &auth.TokenInfo{UserID: "x", Extra: map[string]any{"email": "x@example.com", "uid": "many"}})
	if !errors.Is(err, serve.ErrForbidden) || !errors.Is(err, access.ErrClaim) {
		t.Errorf("a uid claim --int refuses: %v, want ErrForbidden and ErrClaim", err)
	}
}

// A caller whom no rule admits, but a rule's scope would, is refused with
// the scopes that would admit it (step-up); without such a rule, without.
func TestStepUp(t *testing.T) {
	s, err := servers(t, `{"rules":[
		{"group":"admins","scope":"mycli.admin"},
		{"scope":"mycli.read","read-only":true},
		{"subject":"carol","scope":"mycli.write"},
		{"group":"ops","scope":"mycli.read"}
	]}`, access.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		who    *auth.TokenInfo
		scopes []string // nil: no step-up
	}{
		{"no scope", &auth.TokenInfo{UserID: "dave"}, []string{"mycli.read"}},
		{"an admin without the admin scope", &auth.TokenInfo{UserID: "erin", Extra: map[string]any{"groups": []any{"admins"}}}, []string{"mycli.admin", "mycli.read"}},
		{"carol", &auth.TokenInfo{UserID: "carol", Scopes: []string{"openid"}}, []string{"mycli.read", "mycli.write"}},
	} {
		_, err := s.ServerFor(context.Background(), c.who)
		var se *serve.ScopeError
		if !errors.As(err, &se) || !slices.Equal(se.Scopes, c.scopes) || !errors.Is(err, access.ErrNoRule) || !errors.Is(err, serve.ErrForbidden) {
			t.Errorf("%s: %v (%#v), want a ScopeError for %q wrapping ErrNoRule", c.name, err, se, c.scopes)
		}
	}
	s2, err := servers(t, `{"rules":[{"group":"admins"},{"subject":"carol","scope":"mycli.write"}]}`, access.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s2.ServerFor(context.Background(), &auth.TokenInfo{UserID: "dave"})
	var se *serve.ScopeError
	if errors.As(err, &se) || !errors.Is(err, access.ErrNoRule) {
		t.Errorf("dave, whom no scope would admit: %v, want ErrNoRule without a ScopeError", err)
	}
}

// BenchmarkServerFor is what serve asks of the rules at every request of
// a session: the caller's rule, found again from its token.
//
//	go test -run='^$' -bench=ServerFor -benchmem ./access/
func BenchmarkServerFor(b *testing.B) {
	f, err := access.Parse([]byte(`{"rules": [{"group": "admins"}, {"scope": "mycli.write"}, {"scope": "mycli.read", "read-only": true}]}`))
	if err != nil {
		b.Fatal(err)
	}
	ts, err := toolset.New(mycli.New(), nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := access.New(f, ts, access.Options{})
	if err != nil {
		b.Fatal(err)
	}
	who := &auth.TokenInfo{UserID: "alice", Scopes: []string{"openid", "mycli.read"}, Extra: map[string]any{"groups": []any{"dev", "oncall"}, "scope": "openid mycli.read"}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ServerFor(ctx, who); err != nil {
			b.Fatal(err)
		}
	}
}
