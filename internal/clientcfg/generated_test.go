package clientcfg

import (
	"math/rand"
	"strings"
	"testing"
)

// TestEnableDisableGenerated runs checkRoundTrip on files built at random
// (with a fixed seed, so every run checks the same files) from the pieces
// users' files are made of: objects and tables nested and laid out in
// every way, comments of both kinds anywhere blanks may go, trailing
// commas, the servers' key present, empty, twice or absent, the entry
// there or not. The fuzzer mutates bytes and seldom builds such shapes.
func TestEnableDisableGenerated(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	r := rand.New(rand.NewSource(1))
	for _, cl := range Clients() {
		for i := 0; i < n; i++ {
			var src string
			if cl.Format == JSON {
				src = genJSON(r, cl.Key[0])
			} else {
				src = genTOML(r)
			}
			src = layoutVariants[r.Intn(len(layoutVariants))].fn(src)
			checkRoundTrip(t, cl, []byte(src))
			if t.Failed() {
				return
			}
		}
	}
}

// genJSON returns a JSONC document whose root may hold the servers'
// key.
func genJSON(r *rand.Rand, key string) string {
	g := jsonGen{r: r, key: key, multi: r.Intn(3) > 0}
	var b strings.Builder
	b.WriteString(g.extra(0, true))
	g.object(&b, 0, []string{key, "theme", "inputs", key})
	b.WriteString(g.extra(0, false))
	if r.Intn(2) == 0 {
		b.WriteString("\n")
	}
	return b.String()
}

type jsonGen struct {
	r     *rand.Rand
	key   string
	multi bool // one member a line, indented
}

// extra returns blanks and comments for between tokens at depth.
func (g jsonGen) extra(depth int, lineStart bool) string {
	ind := strings.Repeat("  ", depth)
	var opts []string
	if g.multi {
		opts = []string{"\n" + ind, "\n" + ind, "\n" + ind, " // note\n" + ind, "\n" + ind + "// note\n" + ind, " /* note */\n" + ind, "\n\n" + ind}
	} else {
		opts = []string{"", "", " ", " ", " /* note */ ", "/*n*/", " // note\n"}
	}
	if lineStart && g.r.Intn(2) == 0 {
		return ""
	}
	return opts[g.r.Intn(len(opts))]
}

func (g jsonGen) object(b *strings.Builder, depth int, names []string) {
	b.WriteString("{")
	n := g.r.Intn(4)
	if depth == 1 && g.r.Intn(3) == 0 {
		n = 0
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(g.extra(depth+1, false))
		name := names[g.r.Intn(len(names))]
		b.WriteString(`"` + name + `"`)
		if g.r.Intn(4) == 0 {
			b.WriteString(" ")
		}
		b.WriteString(":")
		if g.multi || g.r.Intn(2) == 0 {
			b.WriteString(" ")
		}
		switch {
		case name == g.key && depth == 0:
			g.object(b, depth+1, []string{"a", "b", "mycli", "x-y"})
		case depth == 1:
			g.entry(b, depth+1)
		default:
			g.value(b, depth+1)
		}
		if g.r.Intn(5) == 0 {
			b.WriteString(" /* after */")
		}
	}
	if n > 0 && g.r.Intn(3) == 0 {
		b.WriteString(",")
	}
	if n > 0 || g.r.Intn(2) == 0 {
		b.WriteString(g.extra(depth, false))
	}
	b.WriteString("}")
}

// entry writes a server entry: mostly an object with the members clients
// know, sometimes something else.
func (g jsonGen) entry(b *strings.Builder, depth int) {
	if g.r.Intn(8) == 0 {
		g.value(b, depth)
		return
	}
	members := []string{`"command": "x"`, `"args": ["a", "b"]`, `"env": {"K": "v"}`, `"disabled": true`, `"type": "stdio"`, `"trust": false`, `"url": "https://x"`,
		`"args": []`, `"command": "x" /* c */`, "\"env\": {\n\"PATH\": \"p\" // c\n}", `"env": {}`, `"disabled": false`, `"timeout": 5`}
	g.r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	n := g.r.Intn(4)
	b.WriteString("{")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(g.extra(depth+1, false))
		b.WriteString(members[i])
	}
	if n > 0 && g.r.Intn(4) == 0 {
		b.WriteString(",")
	}
	if n > 0 {
		b.WriteString(g.extra(depth, false))
	}
	b.WriteString("}")
}

func (g jsonGen) value(b *strings.Builder, depth int) {
	switch g.r.Intn(6) {
	case 0:
		b.WriteString(`"s"`)
	case 1:
		b.WriteString("12")
	case 2:
		b.WriteString("[1, 2,]")
	case 3:
		b.WriteString("null")
	case 4:
		if depth < 3 {
			g.object(b, depth, []string{"a", "b"})
			return
		}
		b.WriteString("{}")
	default:
		b.WriteString("true")
	}
}

// genTOML returns a TOML document of top-level keys, tables, server
// tables and their sub-tables, comments and blank lines.
func genTOML(r *rand.Rand) string {
	pieces := []string{
		"model = \"m\"\n",
		"approval = \"never\" # c\n",
		"# comment\n",
		"\n",
		"\n",
		"[tui]\nnotifications = true\n",
		"[mcp_servers]\n",
		"[mcp_servers] # all\n",
		"[mcp_servers.a]\ncommand = \"x\"\nargs = [\"1\"]\n",
		"[mcp_servers.a.env]\nK = \"v\"\n",
		"[mcp_servers.b]\ncommand = \"y\"\nenv = { K = \"v\" }\n",
		"[mcp_servers.mycli]\ncommand = \"old\"\nenabled = false # off\n",
		"[mcp_servers.mycli.env]\nTOKEN = \"t\"\n",
		"[mcp_servers.\"q n\"]\ncommand = \"z\"\n",
		"[profiles.p]\nmodel = \"m\"\n",
		"[[hooks]]\nrun = \"x\"\n",
		"notes = \"\"\"\n[mcp_servers.mycli]\n\"\"\"\n",
		"list = [\n  1, # one\n  2,\n]\n",
		"[mcp_servers.mycli]\ncommand = \"old\"\nargs = [\n  \"a\", # c\n]\nenv.A = \"1\"\n",
		"[mcp_servers.mycli]\nenv = { A = \"1\" } # c\nstartup_timeout_sec = 5\n",
		"[mcp_servers.mycli] # mine\ncommand = \"x\" # c\n",
		"[mcp_servers.mycli]\r\ncommand = \"x\"\r\n",
	}
	var b strings.Builder
	n := r.Intn(8)
	for i := 0; i < n; i++ {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	s := b.String()
	if r.Intn(6) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}
