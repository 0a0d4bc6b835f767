package clientcfg_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cobramcp/cobramcp/internal/clientcfg"
)

// Set adds a server to a file with comments and keeps them, and the
// layout of the file.
func ExampleSet() {
	src := []byte(`{
	// Servers for this repository.
	"servers": {
		"fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] }, // web pages
	},
}
`)
	s := clientcfg.Server{Type: "stdio", Command: "/usr/local/bin/mycli", Args: []string{"mcp", "start"}}
	out, replaced, err := clientcfg.Set(clientcfg.JSON, src, []string{"servers"}, "mycli", s)
	if err != nil {
		panic(err)
	}
	fmt.Printf("replaced: %v\n%s", replaced, out)
	back, _, _ := clientcfg.Remove(clientcfg.JSON, out, []string{"servers"}, "mycli")
	fmt.Println("removed again, same bytes:", string(back) == string(src))
	// Output:
	// replaced: false
	// {
	// 	// Servers for this repository.
	// 	"servers": {
	// 		"fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] }, // web pages
	// 		"mycli": {
	// 			"type": "stdio",
	// 			"command": "/usr/local/bin/mycli",
	// 			"args": [
	// 				"mcp",
	// 				"start"
	// 			]
	// 		},
	// 	},
	// }
	// removed again, same bytes: true
}

// A Codex config.toml gets a table of its own; comments and other tables
// stay as they were.
func ExampleSet_toml() {
	src := []byte(`model = "gpt-5.4" # default model

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
`)
	s := clientcfg.Server{Command: "/usr/local/bin/mycli", Args: []string{"mcp", "start"}, Env: map[string]string{"PATH": "/usr/bin"}}
	out, _, err := clientcfg.Set(clientcfg.TOML, src, []string{"mcp_servers"}, "mycli", s)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// model = "gpt-5.4" # default model
	//
	// [mcp_servers.context7]
	// command = "npx"
	// args = ["-y", "@upstash/context7-mcp"]
	//
	// [mcp_servers.mycli]
	// command = "/usr/local/bin/mycli"
	// args = ["mcp", "start"]
	// env = { PATH = "/usr/bin" }
}

// List reads the servers in file order.
func ExampleList() {
	src := []byte(`{"mcpServers": {"b": {"command": "npx", "args": ["-y", "b"]}, "a": {"serverUrl": "https://a.example/mcp"}}}`)
	entries, err := clientcfg.List(clientcfg.JSON, src, []string{"mcpServers"})
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		fmt.Printf("%s: command=%q args=%q url=%q\n", e.Name, e.Command, e.Args, e.URL)
	}
	// Output:
	// b: command="npx" args=["-y" "b"] url=""
	// a: command="" args=[] url="https://a.example/mcp"
}

// Each client knows where its files are.
func ExampleClient_Path() {
	h := clientcfg.Host{GOOS: "linux", Home: "/home/alex", ConfigDir: "/home/alex/.config", WorkDir: "/src/shop"}
	for _, c := range clientcfg.Clients() {
		for _, s := range c.Scopes() {
			p, _ := c.Path(h, s)
			fmt.Printf("%-11s %-7s %s\n", c.ID, s, p)
		}
	}
	// Output:
	// claude      user    /home/alex/.config/Claude/claude_desktop_config.json
	// claude-code user    /home/alex/.claude.json
	// claude-code project /src/shop/.mcp.json
	// vscode      user    /home/alex/.config/Code/User/mcp.json
	// vscode      project /src/shop/.vscode/mcp.json
	// cursor      user    /home/alex/.cursor/mcp.json
	// cursor      project /src/shop/.cursor/mcp.json
	// gemini      user    /home/alex/.gemini/settings.json
	// gemini      project /src/shop/.gemini/settings.json
	// codex       user    /home/alex/.codex/config.toml
	// codex       project /src/shop/.codex/config.toml
	// windsurf    user    /home/alex/.codeium/windsurf/mcp_config.json
}

// Set over an entry the user edited by hand updates it: the command,
// args and the variables being set change; "trust", "timeout" and the
// user's token stay, in place. Change.Kept names them.
func ExampleFile_Set_update() {
	dir, _ := os.MkdirTemp("", "clientcfg")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "settings.json")
	os.WriteFile(path, []byte(`{
  "mcpServers": {
    "mycli": {
      "command": "/opt/old/mycli",
      "args": ["mcp", "start"],
      "env": { "TOKEN": "t0k3n" },
      "trust": true,
      "timeout": 30000
    }
  }
}
`), 0o600)
	f := clientcfg.File{Path: path, Format: clientcfg.JSON, Key: []string{"mcpServers"}}
	s := clientcfg.Server{Command: "/usr/local/bin/mycli", Args: []string{"mcp", "start"}, Env: map[string]string{"PATH": "/usr/bin"}}
	ch, err := f.Set("mycli", s, false)
	if err != nil {
		panic(err)
	}
	fmt.Println("found:", ch.Found, "kept:", ch.Kept)
	fmt.Print(string(ch.After))
	// Output:
	// found: true kept: [trust timeout env.TOKEN]
	// {
	//   "mcpServers": {
	//     "mycli": {
	//       "command": "/usr/local/bin/mycli",
	//       "args": [
	//         "mcp",
	//         "start"
	//       ],
	//       "env": { "TOKEN": "t0k3n", "PATH": "/usr/bin" },
	//       "trust": true,
	//       "timeout": 30000
	//     }
	//   }
	// }
}
