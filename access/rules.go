package access

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/internal/caller"
)

// Rule is one rule of an access file: match keys, which all must match a
// caller's token for the rule to apply, and policy keys, which mean what
// the policy flags of `mcp stream` mean.
type Rule struct {
	// Match keys. A rule without any matches every caller.
	Subject string `json:"subject,omitempty"` // the token's sub
	Group   string `json:"group,omitempty"`   // one value of its groups claim
	Scope   string `json:"scope,omitempty"`   // one of the space-separated values of its scope claim

	// Policy keys.
	Tools        []string          `json:"tools,omitempty"`         // as --tools
	ExcludeTools []string          `json:"exclude-tools,omitempty"` // as --exclude-tools
	ReadOnly     bool              `json:"read-only,omitempty"`     // as --read-only
	Set          map[string]string `json:"set,omitempty"`           // as --set FLAG=VALUE
	SetClaim     map[string]string `json:"set-claim,omitempty"`     // FLAG -> CLAIM: pins FLAG to the caller's claim

	index int    // 0-based, in File.Rules
	text  string // the rule as written, for messages
}

// ruleKeys are the keys a rule may have.
var ruleKeys = []string{"subject", "group", "scope", "tools", "exclude-tools", "read-only", "set", "set-claim"}

// name names the rule in messages: its number in the file (from 1) and its
// JSON as written.
func (r *Rule) name() string { return fmt.Sprintf("rule %d %s", r.index+1, r.text) }

// ruleIndex is the rule's place in the file, from 0.
func (r *Rule) ruleIndex() int { return r.index }

// File is a parsed access file: {"rules": [...]}, the first rule that
// matches a caller applying to it.
type File struct {
	Rules []*Rule
	name  string // the file's path, for messages
}

// A RuleError is a rule the file cannot have.
type RuleError struct {
	File string // the access file's path; "" when parsed from bytes
	Rule *Rule  // nil when the error is not one rule's
	Err  error
}

func (e *RuleError) Error() string {
	var b strings.Builder
	b.WriteString("access file")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	if e.Rule != nil {
		b.WriteString(": " + e.Rule.name())
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *RuleError) Unwrap() error { return e.Err }

// Load reads and parses the access file at path.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("access file: %w", err)
	}
	f, err := Parse(b)
	if err != nil {
		var re *RuleError
		if errors.As(err, &re) {
			re.File = path
		}
		return nil, err
	}
	f.name = path
	return f, nil
}

// Parse parses an access file. Unknown keys, values of the wrong type,
// empty match or policy values and a flag both set and set from a claim
// are errors; so is a file without rules.
func Parse(data []byte) (*File, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, &RuleError{Err: fmt.Errorf("not a JSON object {\"rules\": [...]}: %v", err)}
	}
	for k := range top {
		if k != "rules" {
			return nil, &RuleError{Err: fmt.Errorf("unknown key %q: the file is {\"rules\": [...]}", k)}
		}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(top["rules"], &raws); err != nil || raws == nil {
		return nil, &RuleError{Err: errors.New(`"rules" must be an array of rules`)}
	}
	if len(raws) == 0 {
		return nil, &RuleError{Err: errors.New(`no rules: every caller would be refused`)}
	}
	f := &File{}
	for i, raw := range raws {
		r, err := parseRule(i, raw)
		if err != nil {
			return nil, err
		}
		f.Rules = append(f.Rules, r)
	}
	return f, nil
}

func parseRule(i int, raw json.RawMessage) (*Rule, error) {
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		compact.Reset()
		compact.Write(raw)
	}
	r := &Rule{index: i, text: compact.String()}
	fail := func(format string, a ...any) error { return &RuleError{Rule: r, Err: fmt.Errorf(format, a...)} }
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return nil, fail("a rule must be a JSON object")
	}
	var unknown []string
	for k := range keys {
		if !slices.Contains(ruleKeys, k) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fail("unknown key %s (a rule's keys are %s)", strings.Join(unknown, ", "), strings.Join(ruleKeys, ", "))
	}
	for k, v := range keys {
		var err error
		switch k {
		case "subject":
			err = nonEmpty(v, &r.Subject)
		case "group":
			err = nonEmpty(v, &r.Group)
		case "scope":
			err = nonEmpty(v, &r.Scope)
		case "tools":
			err = patterns(v, &r.Tools)
		case "exclude-tools":
			err = patterns(v, &r.ExcludeTools)
		case "read-only":
			if json.Unmarshal(v, &r.ReadOnly) != nil {
				err = errors.New("must be true or false")
			}
		case "set", "set-claim":
			m := map[string]string{}
			if json.Unmarshal(v, &m) != nil {
				err = errors.New("must be an object of strings, FLAG to VALUE, as the command line writes them: a number or a boolean in quotes ({\"replicas\": \"3\"})")
				if k == "set-claim" {
					err = errors.New("must be an object of strings, FLAG to CLAIM")
				}
				break
			}
			for flag, val := range m {
				if flag == "" || strings.HasPrefix(flag, "-") {
					err = fmt.Errorf("flag %q: name a flag by its long name, without dashes", flag)
				} else if k == "set-claim" && val == "" {
					err = fmt.Errorf("flag %q: no claim named", flag)
				}
			}
			if k == "set" {
				r.Set = m
			} else {
				r.SetClaim = m
			}
		}
		if err != nil {
			return nil, fail("%q %v", k, err)
		}
	}
	for flag := range r.SetClaim {
		if _, both := r.Set[flag]; both {
			return nil, fail("flag %q is in both \"set\" and \"set-claim\"", flag)
		}
	}
	return r, nil
}

func nonEmpty(v json.RawMessage, dst *string) error {
	if json.Unmarshal(v, dst) != nil || *dst == "" {
		return errors.New("must be a non-empty string")
	}
	return nil
}

// patterns reads tool name patterns: an array of strings, or one string
// of comma-separated patterns as the flags take them.
func patterns(v json.RawMessage, dst *[]string) error {
	var one string
	if json.Unmarshal(v, &one) == nil {
		for _, p := range strings.Split(one, ",") {
			if p = strings.TrimSpace(p); p != "" {
				*dst = append(*dst, p)
			}
		}
	} else if json.Unmarshal(v, dst) != nil {
		return errors.New("must be an array of tool name patterns (or one string of them, comma-separated)")
	}
	if len(*dst) == 0 || slices.Contains(*dst, "") {
		return errors.New("must name at least one tool name pattern, none empty")
	}
	return nil
}

// errNoIdentity is the refusal of a caller without a token: access rules
// need identities (OAuth).
var errNoIdentity = errors.New("access: the caller has no identity (access rules need OAuth)")

// errNoRule is the refusal of a caller that no rule matches.
var errNoRule = errors.New("access: no access rule admits this caller")

// match returns the first rule that matches who, or an error wrapping
// ErrNoRule (or ErrNoIdentity for a nil who).
func (f *File) match(who *auth.TokenInfo) (*Rule, error) {
	if who == nil {
		return nil, errNoIdentity
	}
	for _, r := range f.Rules {
		if r.matches(who) {
			return r, nil
		}
	}
	return nil, errNoRule
}

// stepUp returns the scopes that would admit who, whom no rule admits:
// those of the rules whose other match keys match who, in the file's
// order, each once; none when who has no identity.
func (f *File) stepUp(who *auth.TokenInfo) []string {
	if who == nil {
		return nil
	}
	var out []string
	for _, r := range f.Rules {
		if r.Scope == "" || slices.Contains(out, r.Scope) {
			continue
		}
		with := *r
		with.Scope = ""
		if with.matches(who) {
			out = append(out, r.Scope)
		}
	}
	return out
}

func (r *Rule) matches(who *auth.TokenInfo) bool {
	c := caller.FromToken(who)
	if r.Subject != "" {
		if sub, _ := c.Claim("sub"); sub != r.Subject {
			return false
		}
	}
	if r.Group != "" && !slices.Contains(c.Groups, r.Group) {
		return false
	}
	if r.Scope != "" && !slices.Contains(c.Scopes, r.Scope) {
		return false
	}
	return true
}
