package clientcfg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Updating an entry that is already there changes only what cobramcp
// writes: the members in owned ("type" when the client uses it,
// "command", "args") are set, and in "env" the variables being set are
// set while the user's other variables stay. Every other member of the
// entry (Gemini's "trust" and "timeout", Codex's "startup_timeout_sec",
// VS Code's "envFile", a "disabled" flag) stays as it was, with its
// place and its comments.

// owned are the members of an entry that Set writes.
var owned = []string{"type", "command", "args", "env"}

// An entry the user switched off without removing it is switched on:
// `enable` is asked for a server that runs. The JSON clients say "off"
// with "disabled": true (Claude Desktop, Cursor, Windsurf, Cline), Codex
// with enabled = false. Set gives that member its "on" value in place and
// reports it (Change.Enabled); any other value, and the other format's
// member, stay as they are.

// switchMember is the member that switches an entry off, and its "on" value.
type switchMember struct {
	name string
	on   bool
}

// switches holds each format's switch member.
var switches = sync.OnceValue(func() map[Format]switchMember {
	return map[Format]switchMember{JSON: {"disabled", false}, TOML: {"enabled", true}}
})

// switchedOff returns the member that switches old off in format f, or
// false when old is on.
func switchedOff(f Format, old map[string]any) (switchMember, bool) {
	sw := switches()[f]
	b, ok := old[sw.name].(bool)
	return sw, ok && b != sw.on
}

// updated says what Set did to an entry that was there.
type updated struct {
	kept    []string // what of the entry stays as it was (Change.Kept)
	enabled string   // the member that switched it off, now on (Change.Enabled)
}

// updatedEntry is what Set over old, in format f, does besides writing s.
func updatedEntry(f Format, order []string, old map[string]any, s Server) updated {
	u := updated{kept: keptMembers(f, order, old, s)}
	if sw, off := switchedOff(f, old); off {
		u.enabled = sw.name
	}
	return u
}

// ErrRemoteEntry is returned (wrapped) by Set when the entry of that name
// is a remote server (it has a URL, or a type other than stdio): it is
// not a command-line server, so it is left alone.
var ErrRemoteEntry = errors.New("it is a remote server, not one started by a command")

// remoteEntry reports whether a decoded entry is a remote server.
func remoteEntry(e map[string]any) bool {
	for _, k := range []string{"url", "serverUrl", "httpUrl"} {
		if _, ok := e[k]; ok {
			return true
		}
	}
	t, ok := e["type"]
	return ok && t != "stdio" && t != ""
}

// decodedEntry is s as it reads back from JSON: the types that
// decodeJSON and parseTOML produce for its members.
func decodedEntry(s Server) map[string]any {
	b, _ := json.Marshal(entryValue(s))
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	_ = d.Decode(&m)
	return m
}

// mergedEntry is old updated with s in format f: what Set must leave in the file
// when the entry was there (old is nil when it was not, or when it is
// replaced as a whole).
func mergedEntry(f Format, old map[string]any, s Server) map[string]any {
	ours := decodedEntry(s)
	if old == nil {
		return ours
	}
	out := maps.Clone(old)
	for k, v := range ours {
		if oldEnv, ok := old[k].(map[string]any); ok && k == "env" {
			env := maps.Clone(oldEnv)
			maps.Copy(env, v.(map[string]any))
			v = env
		}
		out[k] = v
	}
	if sw, off := switchedOff(f, old); off {
		out[sw.name] = sw.on
	}
	return out
}

// keptMembers names what mergedEntry keeps of old as it was: its members
// that Set does not write (nor switch on), in the order given, then
// "env.NAME" for each variable of the user's that stays, whether or not s
// sets variables of its own ("env" itself when it is not an object and s
// sets none).
func keptMembers(f Format, order []string, old map[string]any, s Server) []string {
	var kept []string
	sw, off := switchedOff(f, old)
	for _, k := range order {
		if (!slices.Contains(owned, k) || k == "type" && s.Type == "") && !(off && k == sw.name) {
			if !slices.Contains(kept, k) {
				kept = append(kept, k)
			}
		}
	}
	switch env, ok := old["env"].(map[string]any); {
	case ok:
		for _, k := range slices.Sorted(maps.Keys(env)) {
			if _, ours := s.Env[k]; !ours {
				kept = append(kept, "env."+k)
			}
		}
	case old["env"] != nil && len(s.Env) == 0:
		kept = append(kept, "env")
	}
	return kept
}

func remoteError(name string) error {
	return fmt.Errorf("server %q is already there and %w; pass another name, or remove it first", name, ErrRemoteEntry)
}
