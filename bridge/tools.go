package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/internal/jsonvalue"
)

// defaultToolsFile is where `mcp tools` writes by default (Ophis-compatible).
// Another --format writes FORMAT-tools.json.
const defaultToolsFile = "mcp-tools.json"

// formatExternal is the --format of `mcp tools` that writes one executable
// per tool into a directory instead of one JSON document.
const formatExternal = "external"

// externalMarker begins the second line of every script written by
// `mcp tools --format external`. A file without it is not overwritten
// unless --force is given.
const externalMarker = "# cobramcp external tool"

func newToolsCmd(o *Options) *cobra.Command {
	var output, format, dir string
	var strict, force bool
	var pf *policyFlags
	names := make([]string, 0, len(dialect.Formats())+1)
	for _, f := range dialect.Formats() {
		names = append(names, string(f))
	}
	names = append(names, formatExternal)
	c := &cobra.Command{
		Use:   "tools",
		Short: "Export the tool definitions as JSON, in MCP or another dialect",
		Long: "Write the tools, sorted by name, in one of these formats (--format):\n\n" +
			"  mcp        exactly as tools/list returns them (the default): compact unless --expanded\n" +
			"  canonical  [{name, description, parameters}], what an external tool's --schema prints\n" +
			"  openai     the Chat Completions \"tools\" array, functions in strict mode\n" +
			"  anthropic  the Messages API \"tools\" array of {name, description, input_schema}\n" +
			"  gemini     {\"tools\":[{\"functionDeclarations\":[...]}]}, Gemini's OpenAPI schema subset\n" +
			"  toolvault  {\"tools\":[...], \"version\", \"description\"}, the toolvault list envelope\n" +
			"  external   one executable per tool in --dir: TOOL --schema prints its canonical schema,\n" +
			"             TOOL alone reads the arguments as JSON on stdin and runs the call\n\n" +
			"The document goes to FORMAT-tools.json (" + defaultToolsFile + " for mcp), or --output FILE\n" +
			"('-' for stdout); the output is deterministic, so a diff shows what changed.\n\n" +
			"Every change a dialect forces on a tool (a keyword dropped, a name changed...) is\n" +
			"printed on stderr, one warning per line, as \"tool: /json/pointer: format: message\".\n" +
			"With --strict any such change is an error and nothing is written.\n\n" +
			"The mcp format is the compact listing that tools/list returns, in which the flags every\n" +
			"tool shares leave each schema: each tool names them with their types in the description\n" +
			"of its flags, the server instructions state their meanings once; --expanded lists every\n" +
			"flag in every tool. The other formats have no instructions: they are expanded.\n\n" +
			"--format external writes each script atomically. A file in --dir that was not written\n" +
			"by this command (its second line does not start with '" + externalMarker + "') is\n" +
			"not replaced unless --force is given; nothing is written when one is in the way. The\n" +
			"scripts this binary wrote earlier for tools it no longer has are removed; scripts of\n" +
			"other programs in the same directory are left alone. The scripts are POSIX sh.",
		Example: "  CLINAME mcp tools -o -\n" +
			"  CLINAME mcp tools --format openai --strict -o openai-tools.json\n" +
			"  CLINAME mcp tools --format external --dir ~/.agent/tools",
		Args: flagsOnly,
		RunE: func(c *cobra.Command, _ []string) error {
			format = strings.ToLower(strings.TrimSpace(format))
			if format == formatExternal {
				if dir == "" {
					return errors.New("--format external needs --dir DIR, the directory to write the tools into")
				}
				if c.Flags().Changed("output") {
					return errors.New("--output is not used with --format external: the tools go to --dir")
				}
			} else if c.Flags().Changed("dir") || c.Flags().Changed("force") {
				return fmt.Errorf("--dir and --force are for --format external, not %s", format)
			}
			var f dialect.Format
			if format != formatExternal {
				var err error
				if f, err = dialect.ParseFormat(format); err != nil {
					return fmt.Errorf("--format: %w, or %s", err, formatExternal)
				}
			}
			pol, err := pf.policy(o, c)
			if err != nil {
				return err
			}
			// Only MCP has server instructions to state the shared flags
			// in: the other formats list every tool expanded.
			if f != dialect.MCP || format == formatExternal {
				pol.Expanded = true
			}
			all, err := o.load(c)
			if err != nil {
				return err
			}
			ts, err := withPolicy(all, pol, c.Flags(), serverName(o, c), os.LookupEnv)
			if err != nil {
				return err
			}
			if format == formatExternal {
				if pol.Mode == toolset.ToolModeFull {
					pol.Mode = "" // mcp tool's default
				}
				pol.Expanded = false // mcp tool --schema is expanded anyway
				return writeExternal(c, ts, dir, strict, force, pol.args())
			}
			b, err := exportTools(c.ErrOrStderr(), ts, f, strict)
			if err != nil {
				return err
			}
			out := output
			if out == "" {
				out = string(f) + "-tools.json"
			}
			return writeOutput(c, out, b)
		},
	}
	c.Flags().StringVarP(&output, "output", "o", "", "file to write, '-' for stdout (default FORMAT-tools.json)")
	c.Flags().StringVar(&format, "format", string(dialect.MCP), "format: "+strings.Join(names, ", "))
	c.Flags().BoolVar(&strict, "strict", false, "fail, writing nothing, when the format cannot carry the tools without loss")
	c.Flags().StringVar(&dir, "dir", "", "with --format external: the directory to write one executable per tool into")
	c.Flags().BoolVar(&force, "force", false, "with --format external: replace files in --dir that this command did not write")
	pf = addPolicyFlags(c, toolset.ToolModeFull)
	return c
}

// exportTools renders ts's tools in format f, ending in a newline, and
// prints the warnings of the translation on w, one per line. In strict
// mode any warning is an error that lists them all.
func exportTools(w io.Writer, ts *toolset.Served, f dialect.Format, strict bool) ([]byte, error) {
	if f == dialect.MCP {
		b, err := jsonvalue.Marshal(sortedTools(ts.Tools()))
		if err != nil {
			return nil, fmt.Errorf("encoding tools: %w", err)
		}
		return b, nil
	}
	doc, err := exportDialect(w, ts.Tools(), ts.Toolset().Root(), f, strict)
	if err != nil {
		return nil, err
	}
	return append(doc, '\n'), nil
}

// exportDialect runs dialect.Export with the envelope of root and prints
// its warnings on w. A *dialect.LossError already lists the warnings, so
// they are not printed twice.
func exportDialect(w io.Writer, tools []*mcp.Tool, root *cobra.Command, f dialect.Format, strict bool) (json.RawMessage, error) {
	doc, warns, err := dialect.Export(f, tools, dialect.Options{Envelope: envelope(root), Strict: strict})
	var loss *dialect.LossError
	if errors.As(err, &loss) {
		return nil, err
	}
	for _, wn := range warns {
		fmt.Fprintln(w, wn.String())
	}
	if err != nil {
		return nil, fmt.Errorf("exporting the tools as %s: %w", f, err)
	}
	return doc, nil
}

// envelope describes the tool set for the toolvault list envelope: the
// root's version, and its long description or else its short one.
func envelope(root *cobra.Command) dialect.Envelope {
	desc := strings.TrimSpace(root.Long)
	if desc == "" {
		desc = strings.TrimSpace(root.Short)
	}
	return dialect.Envelope{Name: root.Name(), Version: root.Version, Description: desc}
}

// writeOutput writes b to the file named out, or to c's stdout for "-".
// A file is replaced atomically.
func writeOutput(c *cobra.Command, out string, b []byte) error {
	if out == "-" {
		_, err := c.OutOrStdout().Write(b)
		return err
	}
	if err := writeFileAtomic(out, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.ErrOrStderr(), "wrote %s\n", out)
	return nil
}

// writeFileAtomic replaces the file named name by one holding b with the
// given mode: a temporary file in the same directory renamed over it, so
// that a reader sees the old file or the new one, never a part. A name that
// exists and is not a regular file (/dev/null, /dev/stdout, a named pipe) is
// written into as it is: renaming over it would replace the device or pipe
// with a regular file.
func writeFileAtomic(name string, b []byte, mode os.FileMode) error {
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("writing %s: it is a directory", name)
		}
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", name, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// externalScript is one executable of `--format external`.
type externalScript struct {
	file string // the file name in the directory, in kebab-case
	body []byte
}

// writeExternal writes one executable per tool of ts into dir. Each runs
// `mcp tool NAME` of this binary with the script's own arguments, so that
// `SCRIPT --schema` prints the tool's canonical schema and `SCRIPT` runs a
// call with the arguments read on stdin.
//
// policyArgs are the policy flags each script passes to `mcp tool`, so
// that the scripts enforce the policy the export was made with.
func writeExternal(c *cobra.Command, ts *toolset.Served, dir string, strict, force bool, policyArgs []string) error {
	// The canonical export checks the names and schemas that the scripts'
	// --schema will print, and reports what it changed.
	tools := sortedTools(ts.Tools())
	doc, err := exportDialect(c.ErrOrStderr(), tools, ts.Toolset().Root(), dialect.Canonical, strict)
	if err != nil {
		return err
	}
	var entries []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(doc, &entries); err != nil {
		return fmt.Errorf("reading the canonical export: %w", err)
	}
	if len(entries) != len(tools) {
		return fmt.Errorf("the canonical export has %d tools, want %d", len(entries), len(tools))
	}
	exe, err := executable()
	if err != nil {
		return err
	}
	// The words between the root and this command's group: `mcp` for
	// `CLINAME mcp tools`.
	var group []string
	if p := c.Parent(); p != nil {
		group = strings.Fields(p.CommandPath())[1:]
	}
	scripts := make([]externalScript, 0, len(tools))
	byFile := map[string]string{}
	for i, t := range tools {
		file := kebabCase(entries[i].Name)
		if file == "" {
			return fmt.Errorf("tool %q: no file name can be made from its name", t.Name)
		}
		if prev, ok := byFile[file]; ok {
			return fmt.Errorf("tools %q and %q would both be written to %s", prev, t.Name, filepath.Join(dir, file))
		}
		byFile[file] = t.Name
		scripts = append(scripts, externalScript{file: file, body: scriptBody(exe, group, policyArgs, t.Name, c.Root().Name())})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	// Check every target before writing any, so that a refusal leaves the
	// directory as it was.
	var blocked []string
	for _, s := range scripts {
		name := filepath.Join(dir, s.file)
		_, ours, err := readOurScript(name)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return err
		case !ours && !force:
			blocked = append(blocked, name)
		}
	}
	if len(blocked) > 0 {
		return fmt.Errorf("not replacing %d file(s) that this command did not write (use --force to replace them): %s",
			len(blocked), strings.Join(blocked, ", "))
	}
	for _, s := range scripts {
		if err := writeFileAtomic(filepath.Join(dir, s.file), s.body, 0o755); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.ErrOrStderr(), "wrote %d tools to %s\n", len(scripts), dir)
	return removeStale(c.ErrOrStderr(), dir, byFile, execPrefix(exe, group))
}

// removeStale removes the scripts in dir that this binary wrote for tools
// it no longer has: files not in keep, written by writeExternal, whose
// exec line starts with prefix (this binary and group). Scripts of other
// programs sharing the directory are left alone.
func removeStale(w io.Writer, dir string, keep map[string]string, prefix string) error {
	files, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	for _, f := range files {
		if _, ok := keep[f.Name()]; ok || !f.Type().IsRegular() || strings.HasPrefix(f.Name(), ".") {
			continue
		}
		name := filepath.Join(dir, f.Name())
		body, ours, err := readOurScript(name)
		if err != nil || !ours || !strings.Contains(string(body), "\n"+prefix) {
			continue
		}
		if err := os.Remove(name); err != nil {
			return fmt.Errorf("removing the stale tool %s: %w", name, err)
		}
		fmt.Fprintf(w, "removed %s: its tool is gone\n", name)
	}
	return nil
}

// scriptBody is the shell script that runs `EXE GROUP... tool NAME "$@"`.
func scriptBody(exe string, group, policyArgs []string, name, cli string) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "%s: %s\n", externalMarker, oneLine(name))
	fmt.Fprintf(&b, "# Written by `%s`; the next export replaces it.\n", oneLine(strings.Join(append(append([]string{cli}, group...), "tools", "--format", formatExternal), " ")))
	b.WriteString("# --schema prints the tool's schema; otherwise the arguments are read as JSON on stdin.\n")
	b.WriteString(execPrefix(exe, group))
	for _, a := range policyArgs {
		b.WriteString(shQuote(a) + " ")
	}
	b.WriteString(shQuote(name) + ` "$@"` + "\n")
	return []byte(b.String())
}

// execPrefix is the start of a script's exec line, up to the tool name:
// exec 'EXE' 'GROUP'... tool .
func execPrefix(exe string, group []string) string {
	argv := []string{"exec", shQuote(exe)}
	for _, g := range group {
		argv = append(argv, shQuote(g))
	}
	return strings.Join(append(argv, "tool", ""), " ")
}

// readOurScript reads the start of the file name (8 KiB, room for any
// exec line) and reports whether writeExternal wrote it: a regular file
// whose second line starts with externalMarker. The error wraps
// os.ErrNotExist when there is no file.
func readOurScript(name string) ([]byte, bool, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, false, err
		}
		return nil, false, fmt.Errorf("checking %s: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, false, fmt.Errorf("checking %s: %w", name, err)
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	lines := strings.SplitN(string(head), "\n", 3)
	return head, len(lines) >= 2 && strings.HasPrefix(lines[0], "#!") && strings.HasPrefix(lines[1], externalMarker), nil
}

// sortedTools returns the tools sorted by name, as dialect.Export sorts
// them.
func sortedTools(tools []*mcp.Tool) []*mcp.Tool {
	s := slices.Clone(tools)
	slices.SortStableFunc(s, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	return s
}

// kebabCase turns a tool name into a file name: lower case, every run of
// characters other than letters and digits turned into one '-', no '-' at
// either end. CLINAME_get_pods becomes CLINAME-get-pods.
func kebabCase(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// shQuote quotes s as one word of a POSIX shell command line.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// oneLine keeps s on one line of a shell comment.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
