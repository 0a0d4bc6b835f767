package clientcfg

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Scope says whose configuration a file is: the user's (every project) or
// one project's (a file in the project, usually committed).
type Scope string

const (
	// User is the user-wide configuration.
	User Scope = "user"
	// Project is the configuration in the current project directory.
	Project Scope = "project"
)

// Host is what the locations of configuration files depend on. Tests set
// its fields; CurrentHost reads them from the running process.
type Host struct {
	GOOS      string              // runtime.GOOS
	Home      string              // os.UserHomeDir
	ConfigDir string              // os.UserConfigDir: ~/.config (or $XDG_CONFIG_HOME), ~/Library/Application Support, %AppData%
	WorkDir   string              // the project directory: the working directory
	Getenv    func(string) string // os.Getenv
}

// CurrentHost returns the Host of the running process.
func CurrentHost() (Host, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Host{}, fmt.Errorf("find the home directory: %w", err)
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return Host{}, fmt.Errorf("find the user configuration directory: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return Host{}, fmt.Errorf("find the working directory: %w", err)
	}
	return Host{GOOS: runtime.GOOS, Home: home, ConfigDir: cfg, WorkDir: wd, Getenv: os.Getenv}, nil
}

// Client is an MCP client whose configuration files this package edits.
type Client struct {
	// ID is the name used on the command line, e.g. "vscode".
	ID string
	// Name is the product name, e.g. "VS Code".
	Name string
	// Format of its files.
	Format Format
	// Key holds the servers in its files.
	Key []string
	// Type is the "type" written in each entry ("stdio"), empty when the
	// client's docs show none.
	Type string
	// Docs are where the format and locations were taken from.
	Docs []string

	// What the client accepts of a server's tools (see docs/clients.md);
	// zero means no known limit. MaxTools is how many tools it takes in
	// all; MaxName is the longest tool name, counting Prefix, what it puts
	// before a tool name of the server named server; Defers is set when it
	// loads tool definitions on demand (tool search) instead of sending
	// every one to the model, so that the full listing fits it whatever
	// its size.
	MaxTools int
	MaxName  int
	Prefix   func(server string) string
	Defers   bool

	user, project func(Host) string
}

// Scopes returns the scopes the client has, User first.
func (c Client) Scopes() []Scope {
	s := []Scope{User}
	if c.project != nil {
		s = append(s, Project)
	}
	return s
}

// Path returns the location of the client's file for scope on h.
func (c Client) Path(h Host, s Scope) (string, error) {
	switch {
	case s == User:
		return c.user(h), nil
	case s == Project && c.project != nil:
		return c.project(h), nil
	}
	return "", fmt.Errorf("%s has no %s scope (it has: %v)", c.Name, s, c.Scopes())
}

// File returns the client's configuration file at path.
func (c Client) File(path string) File {
	return File{Path: path, Format: c.Format, Key: c.Key}
}

// Server returns the entry that starts command with args and env, in the
// client's form.
func (c Client) Server(command string, args []string, env map[string]string) Server {
	return Server{Type: c.Type, Command: command, Args: args, Env: env}
}

// Clients returns the supported clients, in the order of their IDs on the
// command line.
func Clients() []Client {
	return []Client{
		{
			ID: "claude", Name: "Claude Desktop", Format: JSON, Key: []string{"mcpServers"},
			Docs:    []string{"https://modelcontextprotocol.io/quickstart/user"},
			MaxName: 64,
			// macOS ~/Library/Application Support/Claude, Windows
			// %APPDATA%\Claude; Linux (unofficial builds) ~/.config/Claude.
			user: func(h Host) string { return filepath.Join(h.ConfigDir, "Claude", "claude_desktop_config.json") },
		},
		{
			ID: "claude-code", Name: "Claude Code", Format: JSON, Key: []string{"mcpServers"}, Type: "stdio",
			Docs: []string{"https://code.claude.com/docs/en/mcp"},
			// anthropics/claude-code #19770, #22276; tool search on by default
			MaxName: 64, Prefix: func(s string) string { return "mcp__" + s + "__" }, Defers: true,
			user:    func(h Host) string { return filepath.Join(h.Home, ".claude.json") },
			project: func(h Host) string { return filepath.Join(h.WorkDir, ".mcp.json") },
		},
		{
			ID: "vscode", Name: "VS Code", Format: JSON, Key: []string{"servers"}, Type: "stdio",
			Docs: []string{"https://code.visualstudio.com/docs/copilot/reference/mcp-configuration"},
			// microsoft/vscode-copilot-release #11653; microsoft/vscode #243602
			MaxTools: 128, MaxName: 64,
			user:    func(h Host) string { return filepath.Join(h.ConfigDir, "Code", "User", "mcp.json") },
			project: func(h Host) string { return filepath.Join(h.WorkDir, ".vscode", "mcp.json") },
		},
		{
			ID: "cursor", Name: "Cursor", Format: JSON, Key: []string{"mcpServers"},
			Docs: []string{"https://cursor.com/docs/mcp"},
			// Cursor docs (40 tools); ComposioHQ/composio #2788, awslabs/mcp #1283 (server + tool <= 60)
			MaxTools: 40, MaxName: 60, Prefix: func(s string) string { return s },
			user:    func(h Host) string { return filepath.Join(h.Home, ".cursor", "mcp.json") },
			project: func(h Host) string { return filepath.Join(h.WorkDir, ".cursor", "mcp.json") },
		},
		{
			ID: "gemini", Name: "Gemini CLI", Format: JSON, Key: []string{"mcpServers"},
			Docs: []string{
				"https://geminicli.com/docs/cli/configuration",
				"https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md",
			},
			user:    func(h Host) string { return filepath.Join(h.Home, ".gemini", "settings.json") },
			project: func(h Host) string { return filepath.Join(h.WorkDir, ".gemini", "settings.json") },
		},
		{
			ID: "codex", Name: "Codex CLI", Format: TOML, Key: []string{"mcp_servers"},
			Docs: []string{
				"https://developers.openai.com/codex/config-basic",
				"https://developers.openai.com/codex/mcp",
			},
			user: func(h Host) string {
				if h.Getenv != nil {
					if d := h.Getenv("CODEX_HOME"); d != "" {
						return filepath.Join(d, "config.toml")
					}
				}
				return filepath.Join(h.Home, ".codex", "config.toml")
			},
			project: func(h Host) string { return filepath.Join(h.WorkDir, ".codex", "config.toml") },
		},
		{
			ID: "windsurf", Name: "Windsurf", Format: JSON, Key: []string{"mcpServers"},
			Docs:     []string{"https://docs.windsurf.com/windsurf/cascade/mcp"},
			MaxTools: 100, // Windsurf docs, Cascade MCP page: 100 tools in total
			user:     func(h Host) string { return filepath.Join(h.Home, ".codeium", "windsurf", "mcp_config.json") },
		},
	}
}

// Lookup returns the client with the given ID.
func Lookup(id string) (Client, bool) {
	for _, c := range Clients() {
		if c.ID == id {
			return c, true
		}
	}
	return Client{}, false
}
