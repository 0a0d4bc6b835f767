// Package clientcfg adds, updates, lists and removes one MCP server in the
// configuration files of MCP clients (Claude Desktop, Claude Code, VS Code,
// Cursor, Gemini CLI, Codex CLI, Windsurf) without disturbing anything else
// in them.
//
//	cl, _ := clientcfg.Lookup("vscode")
//	host, err := clientcfg.CurrentHost()
//	if err != nil {
//		return err
//	}
//	path, err := cl.Path(host, clientcfg.Project) // ./.vscode/mcp.json
//	if err != nil {
//		return err
//	}
//	ch, err := cl.File(path).Set("mycli", cl.Server("/usr/local/bin/mycli", []string{"mcp", "start"}, nil), false)
//	if err != nil {
//		return err // e.g. "/work/.vscode/mcp.json: not valid JSON: line 4, column 5: ..."
//	}
//	fmt.Println(ch.Found, ch.Kept, ch.Backup) // updated an entry?, what of it was kept, where the previous version is
//
// A new client is one entry in Clients (clients.go: ID and name, its file's
// format and key, its locations by scope, its tool limits), a fixture of
// its file and its expected locations in clientcfg_test.go, and its row in
// docs/clients.md: package bridge makes `mcp ID enable|disable|list` from
// the table, and plans the tool mode from the limits.
//
// What the package promises:
//
//   - Every other byte stays. JSON files (with or without comments and
//     trailing commas) are edited on a syntax tree that holds every byte
//     (github.com/tailscale/hujson); TOML files are edited line by line, one
//     [mcp_servers.NAME] table at a time. Adding a server and removing it
//     again gives back the file byte for byte (see docs/clients.md for the
//     few exceptions), and File.Remove deletes a file left holding only
//     the skeleton Set writes into a new file, so that a file that was not
//     there is not there again.
//   - An entry that is there is updated, not replaced: Set writes its
//     type, command and args and the env variables it is given; the
//     entry's other members and variables stay (Change.Kept names them).
//     An entry switched off ("disabled": true; Codex's enabled = false) is
//     switched on in place (Change.Enabled says so).
//     A remote server of that name is refused (ErrRemoteEntry).
//   - Each edit is checked: the result must parse and, decoded, equal the
//     original with exactly that one server changed; otherwise nothing is
//     written.
//   - A file that does not parse is not touched; the error names the file
//     and the line and column.
//   - Writes hold a lock beside the file (path + ".lock": flock where there
//     is one, an O_EXCL file elsewhere), re-read the file under it, keep the
//     previous version in path + ".bak", and replace the file atomically (a
//     temporary file in the same directory, fsync, rename) with its mode
//     kept. A missing file and its directories are created; a file whose
//     owner-write bit is off is refused (ErrReadOnly); a symbolic link is
//     kept and its target edited.
package clientcfg
