package toolset

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"path"
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

// enabled reports whether c asks for any confirmation.
func (c Confirm) enabled() bool { return len(c.Tools) > 0 || c.Destructive }

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

// confirmWindow is how many confirmation requests a server keeps
// answerable at once: an answer to a request older than the last
// confirmWindow asked is refused, and the question asked again. It bounds
// what the server keeps of the answers taken (one bit each: 8 KiB at
// most, grown as requests are made), whatever the rate of requests.
const confirmWindow = 1 << 16

// confirmer asks the person to confirm the calls its Confirm names. The
// question goes out the go-sdk's way: the call's result requests input
// (an elicitation) and carries a signed request state; the go-sdk asks
// the person (ServerSession.Elicit, for clients of protocol versions
// before 2026-07-28) or the client does, and the call comes again with
// the answer. The state binds the answer to this tool and this argv,
// expires, and is taken once: an answer the server did not ask for, or
// one given for another command line, asks again.
//
// Each state carries a sequence number, and the confirmer keeps one bit
// per number of the last confirmWindow: taking a state is one bit set, in
// constant time and memory, and a state older than the window is refused
// as if expired (asked again, never run twice).
type confirmer struct {
	Confirm
	cli string
	key [32]byte
	mu  sync.Mutex
	// next is the sequence number of the next state made.
	next uint64
	// taken has one bit per state of the window, by its number modulo
	// confirmWindow: set once the state is answered. It grows to
	// confirmWindow bits as states are made.
	taken []uint64
}

// newConfirmer returns the confirmer of c for the CLI named cli, or nil
// when c asks for nothing.
func newConfirmer(c Confirm, cli string) *confirmer {
	if !c.enabled() {
		return nil
	}
	cf := &confirmer{Confirm: c, cli: cli}
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

// stateLen is the length of a request state before its encoding: the
// sequence number, the expiry and the signature.
const stateLen = 8 + 8 + sha256.Size

// state returns a new request state for a confirmation of the call of the
// tool named tool with argv: the next sequence number and an expiry,
// signed with the tool and argv.
func (cf *confirmer) state(tool string, argv []string) string {
	cf.mu.Lock()
	seq := cf.next
	cf.next++
	if w := int(seq % confirmWindow / 64); w < len(cf.taken) {
		cf.taken[w] &^= 1 << (seq % 64) // the number it had a window ago
	} else {
		cf.taken = append(cf.taken, 0)
	}
	cf.mu.Unlock()
	b := make([]byte, 16, stateLen)
	binary.BigEndian.PutUint64(b, seq)
	binary.BigEndian.PutUint64(b[8:], uint64(time.Now().Add(confirmFor).Unix()))
	b = append(b, cf.mac(b, tool, argv)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// take reports whether state is one that state made for tool and argv,
// not expired, within the window and not taken before; it is taken now.
// It costs the same however many states were made or taken.
func (cf *confirmer) take(state, tool string, argv []string) bool {
	if base64.RawURLEncoding.DecodedLen(len(state)) != stateLen {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) != stateLen {
		return false
	}
	if !hmac.Equal(b[16:], cf.mac(b[:16], tool, argv)) {
		return false
	}
	seq := binary.BigEndian.Uint64(b)
	if expires := time.Unix(int64(binary.BigEndian.Uint64(b[8:16])), 0); !time.Now().Before(expires) {
		return false
	}
	cf.mu.Lock()
	defer cf.mu.Unlock()
	if seq >= cf.next || cf.next-seq > confirmWindow {
		return false // too old: more than the window were asked since
	}
	w, bit := seq%confirmWindow/64, uint64(1)<<(seq%64)
	if cf.taken[w]&bit != 0 {
		return false
	}
	cf.taken[w] |= bit
	return true
}

// mac signs head (sequence number and expiry) with the tool and argv.
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
