package clientcfg

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// The module's promise, as a property: for every client's format and any
// file that parses, enable then disable of a new entry gives back the
// original bytes, and enable twice changes nothing the second time.
// TestEnableDisableProperty checks it on a corpus of realistic files in
// many layouts; FuzzEnableDisableRoundTrip on whatever the fuzzer makes
// of them.

// roundTripCorpus are existing files shaped as users write them, in
// layouts the editor must keep: comments (line and block), trailing
// commas, one-line and multi-line objects, other servers, the servers'
// key absent. Each runs as is and in the variants of layoutVariants.
var roundTripCorpus = []struct {
	name   string
	format Format
	key    string // "mcpServers" is replaced by the client's key
	src    string
}{
	{"json pretty", JSON, "", "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\",\n      \"args\": []\n    }\n  }\n}\n"},
	{"json key absent", JSON, "", "{\n  \"theme\": \"dark\",\n  \"fontSize\": 14\n}\n"},
	{"json key absent, comment last", JSON, "", "{\n  \"theme\": \"dark\" // mine\n}\n"},
	{"json key absent, block comment before close", JSON, "", "{\"theme\": \"dark\" /* mine */}"},
	{"json only comments", JSON, "", "// settings\n{\n  // nothing yet\n}\n"},
	{"json line comments", JSON, "", "// top\n{\n  // servers\n  \"mcpServers\": {\n    // a's\n    \"a\": {\"command\": \"x\"}, // after a\n    \"b\": {\"command\": \"y\"} // after b\n  } // after servers\n}\n// end\n"},
	{"json block comments", JSON, "", "/* top */ {\n  \"mcpServers\": { /* open */\n    \"a\": {\"command\": \"x\"} /* after a */\n  } /* after servers */\n} /* end */\n"},
	{"json trailing commas", JSON, "", "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\",\n      \"args\": [\"1\",],\n    },\n  },\n  \"other\": [1, 2,],\n}\n"},
	{"json one line", JSON, "", `{"mcpServers":{"a":{"command":"x","args":[]}},"theme":"dark"}`},
	{"json one line, spaces", JSON, "", `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}` + "\n"},
	{"json one line, trailing comma", JSON, "", `{"mcpServers": {"a": {"command": "x"},},}`},
	{"json one-line root, servers one a line", JSON, "", "{\"mcpServers\": {\n  \"a\": {\n    \"command\": \"x\"\n  } // note\n}}\n"},
	{"json servers last, other keys first", JSON, "", "{\n    \"inputs\": [],\n    \"mcpServers\": {\n        \"remote\": {\"type\": \"http\", \"url\": \"https://x\"}\n    }\n}"},
	{"json servers first", JSON, "", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  },\n  \"theme\": \"dark\"\n}\n"},
	{"json deep other keys", JSON, "", "{\n  \"projects\": {\n    \"/home/a\": {\n      \"mcpServers\": {}\n    }\n  },\n  \"numStartups\": 3\n}\n"},
	{"json key absent, no final newline", JSON, "", "{\n  \"a\": 1\n}"},
	{"json blank lines", JSON, "", "{\n\n  \"mcpServers\": {\n\n    \"a\": {\"command\": \"x\"}\n\n  }\n\n}\n\n"},
	{"json servers key twice, the last empty", JSON, "", "{\"mcpServers\": {\"a\": 1}, \"x\": 1, \"mcpServers\": {}}"},
	{"json servers key twice", JSON, "", "{\n  \"mcpServers\": {\"a\": 1},\n  \"mcpServers\": {\"b\": 2}\n}\n"},
	{"json one line, trailing comma, key absent", JSON, "", `{"a": 1,}`},
	{"json line comment before the close", JSON, "", "{\"a\": 1, // c\n}"},
	{"json comment after the root", JSON, "", "{\"mcpServers\": {\"a\": 1}}\n// end\n"},
	{"json servers object opened on a member's line", JSON, "", "{\n  \"mcpServers\": { \"a\": 1,\n    \"b\": 2 }\n}\n"},
	{"json entry there", JSON, "", "{\"mcpServers\":{\"mycli\":{\"command\":\"x\"} /* c */}}"},
	{"json entry there, switched off", JSON, "", "{\n  \"mcpServers\": {\n    \"mycli\": {\"command\": \"x\", \"disabled\": true}\n  }\n}\n"},
	{"json entry twice", JSON, "", "{\"\":2/**/,\"mcpServers\":{//\n\"mycli\":{/**/}, \"mycli\":{}}}"},
	{"json entry twice, comment-led line", JSON, "", "/**/{\"mcpServers\":{//\n\"mycli\":{},/**/\"mycli\":{}}/**/}"},
	{"json entry on a comment-led line", JSON, "", "{\"mcpServers\":{//\n/**/\"mycli\":{}}}"},
	{"json server on a comment-led line", JSON, "", "{\n  \"mcpServers\": {\n    /* a */ \"a\": {\n      \"command\": \"x\"\n    }\n  }\n}\n"},
	{"json empty servers with a comment", JSON, "", "{\n  \"mcpServers\": {} // none yet\n}\n"},
	{"toml servers", TOML, "", "model = \"m\"\n\n[mcp_servers.a]\ncommand = \"x\"\nargs = []\n"},
	{"toml key absent", TOML, "", "# Codex\nmodel = \"m\" # the model\n\n[tui]\nnotifications = true\n"},
	{"toml servers then other tables", TOML, "", "[mcp_servers.a]\ncommand = \"x\"\n\n# profiles\n[profiles.p]\nmodel = \"m\"\n"},
	{"toml servers with env table", TOML, "", "[mcp_servers.a]\ncommand = \"x\"\n\n[mcp_servers.a.env]\nK = \"v\" # c\n"},
	{"toml comment last", TOML, "", "model = \"m\"\n# the end\n"},
	{"toml string with a header", TOML, "", "x = \"\"\"\n[mcp_servers.mycli]\n\"\"\"\n"},
	{"toml only comments", TOML, "", "# nothing yet\n"},
	{"toml empty servers table", TOML, "", "[mcp_servers]\n"},
	{"toml servers table with a comment", TOML, "", "[mcp_servers] # servers\n[mcp_servers.a]\ncommand = \"x\"\n"},
	{"toml no final newline, comment", TOML, "", "a = 1 # c"},
	{"toml entry's env table alone", TOML, "", "[mcp_servers.mycli.env]\nA = \"1\"\n"},
	{"toml entry there, switched off", TOML, "", "[mcp_servers.mycli]\ncommand = \"x\"\nenabled = false # off\n\n[other]\n"},
	{"toml quoted and spaced headers", TOML, "", "[ mcp_servers . \"my cli\" ]\ncommand = \"x\"\n\n\n"},
	{"toml array of tables", TOML, "", "[[profiles]]\nname = \"x\"\n"},
}

// layoutVariants rewrites a file in another layout: CRLF line ends, tabs
// for indentation, a byte order mark.
var layoutVariants = []struct {
	name string
	fn   func(string) string
}{
	{"", func(s string) string { return s }},
	{"crlf", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
	{"tabs", func(s string) string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			t := strings.TrimLeft(l, " ")
			lines[i] = strings.Repeat("\t", (len(l)-len(t))/2) + t
		}
		return strings.Join(lines, "\n")
	}},
	{"bom", func(s string) string { return "\xef\xbb\xbf" + s }},
	{"bom crlf", func(s string) string { return "\xef\xbb\xbf" + strings.ReplaceAll(s, "\n", "\r\n") }},
}

// TestEnableDisableProperty runs checkRoundTrip for every client on the
// corpus in every layout variant, and on the fixtures of
// testdata/clients.
func TestEnableDisableProperty(t *testing.T) {
	for _, cl := range Clients() {
		for _, c := range roundTripCorpus {
			if c.format != cl.Format {
				continue
			}
			for _, v := range layoutVariants {
				src := v.fn(strings.ReplaceAll(c.src, "mcpServers", cl.Key[0]))
				t.Run(cl.ID+"/"+c.name+"/"+v.name, func(t *testing.T) {
					checkRoundTrip(t, cl, []byte(src))
				})
			}
		}
		for _, fx := range fixtures {
			if fx.format == cl.Format && fx.key[0] == cl.Key[0] {
				t.Run(cl.ID+"/"+fx.file, func(t *testing.T) {
					checkRoundTrip(t, cl, readFixture(t, fx.file))
				})
			}
		}
	}
}

// FuzzEnableDisableRoundTrip is TestEnableDisableProperty on any input:
// src is the file; client picks the client (and so the format and key),
// and, divided by the number of clients, a layout variant that rewrites
// src first (CRLF, tabs, a byte order mark).
func FuzzEnableDisableRoundTrip(f *testing.F) {
	clients := Clients()
	for i, cl := range clients {
		for _, c := range roundTripCorpus {
			if c.format == cl.Format {
				f.Add([]byte(strings.ReplaceAll(c.src, "mcpServers", cl.Key[0])), uint8(i))
			}
		}
		for _, fx := range fixtures {
			if fx.format == cl.Format && fx.key[0] == cl.Key[0] {
				f.Add(readFixture(f, fx.file), uint8(i))
			}
		}
		edited, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "clients", "edited", "*"))
		for _, e := range edited {
			if strings.HasSuffix(e, ".toml") == (cl.Format == TOML) && !strings.HasSuffix(e, ".golden") {
				b, err := os.ReadFile(e)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b, uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, client uint8) {
		cl := clients[int(client)%len(clients)]
		v := layoutVariants[int(client)/len(clients)%len(layoutVariants)]
		checkRoundTrip(t, cl, []byte(v.fn(string(src))))
	})
}

// roundTripServer is the entry enabled: the client's type, and variables
// that need escaping in both formats.
func roundTripServer(cl Client) Server {
	s := testServer
	s.Type = cl.Type
	return s
}

// checkRoundTrip checks the promise on one file of client cl:
//   - a file that does not parse is refused by Set and Remove with an
//     error that says where, and no internal error;
//   - Set never fails its own safety check, and the entry it writes lists
//     back as written;
//   - Set again, with the same server, changes nothing;
//   - a server that was not there: Remove after Set gives back src byte
//     for byte, except in the two cases docs/clients.md names (a JSON
//     servers object that was there and empty is removed with the entry;
//     a TOML file without a final newline gets one) and a JSON file that
//     was blank (Remove leaves "{}\n"; File.Remove deletes it);
//   - Remove of a server that is not there returns src unchanged;
//   - updating the entry just written to another server works.
func checkRoundTrip(t *testing.T, cl Client, src []byte) {
	t.Helper()
	const name = "mycli"
	s := roundTripServer(cl)
	before, lerr := List(cl.Format, src, cl.Key)
	if lerr != nil {
		for _, op := range []string{"Set", "Remove"} {
			var err error
			if op == "Set" {
				_, _, err = Set(cl.Format, src, cl.Key, name, s)
			} else {
				_, _, err = Remove(cl.Format, src, cl.Key, name)
			}
			if err == nil {
				if strings.Contains(lerr.Error(), "not valid") {
					t.Fatalf("%s accepted a file that does not parse (%v):\n%q", op, lerr, src)
				}
				continue // a server List cannot read (its "args" a string) is not one Set or Remove edit
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%s: %v\n%q", op, err, src)
			}
		}
		return
	}
	had := hasName(before, name)
	out, found, err := Set(cl.Format, src, cl.Key, name, s)
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("Set: %v\n%q", err, src)
		}
		return // a shape Set refuses with a message (an inline table, a remote entry)
	}
	if found != had {
		t.Fatalf("Set found=%v, List had it=%v\n%q", found, had, src)
	}
	after, err := List(cl.Format, out, cl.Key)
	if err != nil {
		t.Fatalf("List after Set: %v\n%q", err, out)
	}
	var got *Entry
	for i := range after {
		if after[i].Name == name {
			got = &after[i]
		}
	}
	if got == nil || got.Command != s.Command || !reflect.DeepEqual(got.Args, s.Args) {
		t.Fatalf("entry after Set = %+v\nsrc %q\nout %q", got, src, out)
	}
	if !had && !reflect.DeepEqual(got.Server, s) {
		t.Fatalf("new entry = %+v, want %+v\n%q", got.Server, s, out)
	}
	if !had && len(after) != len(before)+1 {
		t.Fatalf("servers after Set: %v, before: %v\n%q", names(after), names(before), out)
	}

	again, found, err := Set(cl.Format, out, cl.Key, name, s)
	if err != nil || !found {
		t.Fatalf("second Set: found=%v err=%v\n%q", found, err, out)
	}
	if !bytes.Equal(again, out) {
		t.Fatalf("second Set changed the file:\n%s\nsrc %q", Diff("file", out, again), src)
	}
	if _, _, err := Set(cl.Format, out, cl.Key, name, updateServer); err != nil {
		t.Fatalf("update: %v\n%q", err, out)
	}

	if had {
		return
	}
	same, found, err := Remove(cl.Format, src, cl.Key, name)
	if err != nil || found || !bytes.Equal(same, src) {
		t.Fatalf("Remove of an absent server: found=%v err=%v changed=%v\n%q", found, err, !bytes.Equal(same, src), src)
	}
	back, found, err := Remove(cl.Format, out, cl.Key, name)
	if err != nil || !found {
		t.Fatalf("Remove: found=%v err=%v\n%q", found, err, out)
	}
	if bytes.Equal(back, src) {
		return
	}
	if why := roundTripException(cl, src, back); why != "" {
		return
	}
	t.Fatalf("enable then disable changed the file:\n%s\nsrc  %q\nout  %q\nback %q", Diff("file", src, back), src, out, back)
}

// roundTripException says why back may differ from src, "" when it may
// not.
func roundTripException(cl Client, src, back []byte) string {
	body := bytes.TrimPrefix(src, bom)
	switch cl.Format {
	case JSON:
		if len(bytes.TrimSpace(body)) == 0 && bytes.Equal(bytes.TrimPrefix(back, bom), []byte("{}\n")) {
			return "a blank file becomes {}"
		}
		if v, err := hujson.Parse(body); err == nil && bytes.Equal(squeeze(src), squeeze(back)) {
			if root, ok := v.Value.(*hujson.Object); ok && len(root.Members) == 0 {
				return "the blank space inside an empty root is laid out anew"
			}
		}
		doc, err := decodeJSON(body)
		if err != nil {
			return ""
		}
		if c, ok := doc[cl.Key[0]].(map[string]any); ok && len(c) == 0 {
			if bytes.Equal(squeeze(src), squeeze(back)) {
				return "the blank space inside an empty servers object is laid out anew"
			}
			// The empty servers object goes with the entry: back must be
			// src without it.
			d, err := decodeJSON(bytes.TrimPrefix(back, bom))
			if err != nil {
				return ""
			}
			delete(doc, cl.Key[0])
			if fmt.Sprint(d) == fmt.Sprint(doc) {
				return "an empty servers object is removed"
			}
		}
	case TOML:
		if len(body) > 0 && body[len(body)-1] != '\n' && bytes.Equal(back, append(bytes.Clone(src), newline(body)...)) {
			return "a final newline is added"
		}
	}
	return ""
}

// squeeze drops the blanks of a JSON text (in its strings too: the
// callers compare two versions of one file).
func squeeze(b []byte) []byte {
	return bytes.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, b)
}
