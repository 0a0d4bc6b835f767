package toolset

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Confirm makes a person confirm a call before it runs: the server asks
// through the client's own interface (MCP elicitation), showing the
// command line about to run with pinned values hidden, and runs nothing
// until the person accepts. A decline, a cancel, or a client that does
// not offer elicitation is a refusal that says which. The zero value asks
// for nothing.
type Confirm struct {
	// Tools are patterns (path.Match syntax) of the tools whose calls are
	// confirmed. In search mode they name the commands' tools (what the
	// run tool takes: CLI_delete_pod), not the run tool.
	Tools []string
	// Destructive confirms the calls of every tool annotated destructive
	// (mcp.destructiveHint: "true"). A tool without the annotation is not
	// one: name it in Tools.
	Destructive bool
}

// Enabled reports whether c asks for any confirmation.
func (c Confirm) Enabled() bool { return len(c.Tools) > 0 || c.Destructive }

// asks reports whether a call of t is confirmed first.
func (c Confirm) asks(t *Tool) bool {
	if c.Destructive {
		if a := t.expanded.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
			return true
		}
	}
	for _, p := range c.Tools {
		if ok, _ := path.Match(p, t.Name); ok {
			return true
		}
	}
	return false
}

// CheckConfirm refuses a Confirm whose pattern is malformed or matches
// none of the tools s serves (in search mode: the commands run can run):
// a typo would leave unconfirmed the tool a person meant to confirm.
func (s *Served) CheckConfirm(c Confirm) error {
	return c.check(s.tools)
}

// check refuses a malformed pattern, and one that matches none of tools.
func (c Confirm) check(tools []*Tool) error {
	for _, p := range c.Tools {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("confirm pattern %q: %w", p, err)
		}
		found := false
		for _, t := range tools {
			if ok, _ := path.Match(p, t.Name); ok {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("confirm pattern %q matches no served tool: nothing would be confirmed", p)
		}
	}
	return nil
}

// confirmKey is the key of the confirmation in a call's input requests
// and responses.
const confirmKey = "cobramcp.confirm"

// confirmFor is how long a confirmation request stays answerable.
const confirmFor = time.Hour

// confirmer asks the person to confirm the calls its Confirm names. The
// question goes out the go-sdk's way: the call's result requests input
// (an elicitation) and carries a signed request state; the go-sdk asks
// the person (ServerSession.Elicit, for clients of protocol versions
// before 2026-07-28) or the client does, and the call comes again with
// the answer. The state binds the answer to this tool and this argv,
// expires, and is taken once: an answer the server did not ask for, or
// one given for another command line, asks again.
type confirmer struct {
	Confirm
	cli string
	key [32]byte
	mu  sync.Mutex
	// taken holds the states already answered, until they expire.
	taken map[string]time.Time
}

// newConfirmer returns the confirmer of c for the CLI named cli, or nil
// when c asks for nothing.
func newConfirmer(c Confirm, cli string) *confirmer {
	if !c.Enabled() {
		return nil
	}
	cf := &confirmer{Confirm: c, cli: cli, taken: map[string]time.Time{}}
	if _, err := rand.Read(cf.key[:]); err != nil {
		panic(fmt.Sprintf("toolset: reading random bytes: %v", err)) // crypto/rand does not fail on supported systems
	}
	return cf
}

// confirm returns nil when the call of t with argv may run: no
// confirmation is asked for it, or the person accepted exactly this call.
// Otherwise it returns what to answer instead: the request for the
// person's confirmation, or a refusal that says why nothing ran. shown is
// argv as the person sees it (pinned values hidden).
func (cf *confirmer) confirm(req *mcp.CallToolRequest, t *Tool, argv, shown []string) *mcp.CallToolResult {
	if cf == nil || !cf.asks(t) {
		return nil
	}
	line := shellLine(append([]string{cf.cli}, shown...))
	if req == nil || req.Params == nil {
		return errorResult(fmt.Sprintf("%s: a person must confirm `%s` before it runs, and there is no client to ask. Nothing was run.", t.Name, line))
	}
	if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
		return errorResult(fmt.Sprintf("%s: this server asks a person to confirm `%s` before it runs, through MCP elicitation, and this client does not offer elicitation, so no one can be asked. Nothing was run; use a client that supports elicitation, or ask the server's operator.", t.Name, line))
	}
	if r, ok := req.Params.InputResponses[confirmKey]; ok && cf.take(req.Params.RequestState, t.Name, argv) {
		action := "cancel"
		if er, ok := r.(*mcp.ElicitResult); ok {
			action = er.Action
		}
		switch action {
		case "accept":
			return nil
		case "decline":
			return errorResult(fmt.Sprintf("%s: the person declined to run `%s`. Nothing was run.", t.Name, line))
		default:
			return errorResult(fmt.Sprintf("%s: the person cancelled the confirmation of `%s` without accepting. Nothing was run.", t.Name, line))
		}
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{confirmKey: &mcp.ElicitParams{
			Mode:            "form",
			Message:         fmt.Sprintf("Run this %s command?\n\n%s\n\nAccept to run it; decline and nothing runs.", cf.cli, line),
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
		}},
		RequestState: cf.state(t.Name, argv),
	}
}

// state returns a new request state for a confirmation of the call of the
// tool named tool with argv: a random nonce and an expiry, signed with
// the tool and argv.
func (cf *confirmer) state(tool string, argv []string) string {
	b := make([]byte, 16+8, 16+8+sha256.Size)
	if _, err := rand.Read(b[:16]); err != nil {
		panic(fmt.Sprintf("toolset: reading random bytes: %v", err))
	}
	binary.BigEndian.PutUint64(b[16:], uint64(time.Now().Add(confirmFor).Unix()))
	b = append(b, cf.mac(b, tool, argv)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// take reports whether state is one that state made for tool and argv,
// not expired and not taken before; it is taken now.
func (cf *confirmer) take(state, tool string, argv []string) bool {
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) != 16+8+sha256.Size {
		return false
	}
	if !hmac.Equal(b[24:], cf.mac(b[:24], tool, argv)) {
		return false
	}
	now := time.Now()
	expires := time.Unix(int64(binary.BigEndian.Uint64(b[16:24])), 0)
	if !now.Before(expires) {
		return false
	}
	cf.mu.Lock()
	defer cf.mu.Unlock()
	for s, until := range cf.taken {
		if !now.Before(until) {
			delete(cf.taken, s)
		}
	}
	if _, dup := cf.taken[state]; dup {
		return false
	}
	cf.taken[state] = expires
	return true
}

// mac signs head (nonce and expiry) with the tool and argv.
func (cf *confirmer) mac(head []byte, tool string, argv []string) []byte {
	m := hmac.New(sha256.New, cf.key[:])
	m.Write(head)
	m.Write([]byte(tool))
	for _, a := range argv {
		// A NUL cannot be in an argv element: the elements stay apart.
		m.Write([]byte{0})
		m.Write([]byte(a))
	}
	return m.Sum(nil)
}

// shellLine is argv as a person would type it in a POSIX shell: a word
// with anything but letters, digits and -_.,/:=@%+ single-quoted.
func shellLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		safe := a != ""
		for _, r := range a {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,/:=@%+*", r)) {
				safe = false
				break
			}
		}
		if safe {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
