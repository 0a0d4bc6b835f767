package toolset

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// maxInstructions is the most bytes of the server instructions: Claude Code
// cuts longer ones at 2 KB.
const maxInstructions = 2048

// instructions returns the server instructions that the initialize result
// carries: Config.instructions (the author's text), then what the CLI is
// and how its tools are called, then, in the compact listing, the shared
// flags, which no tool's schema repeats. The whole fits in
// maxInstructions bytes: the shared flags are stated with their meanings
// when they fit, each meaning cut to the most bytes that fit otherwise,
// by name and type when not even a short cut fits; text that still does
// not fit is cut with a mark.
func (s *Served) instructions() string {
	head := s.generatedInstructions()
	flags := s.instructionFlags()
	const sep = "\n\n"
	author := strings.TrimSpace(s.ts.cfg.Instructions)
	// The author's text comes first; it may take what the generated part
	// leaves, keeping room for the shared flags' names.
	reserve := len(head)
	if len(flags) > 0 {
		reserve += len(sep) + min(len(sharedIntro)+1+len(flagNames(flags)), maxInstructions/3)
	}
	if author != "" {
		author = cut(author, max(maxInstructions-reserve-len(sep), len(cutMark)+1))
		head = author + sep + head
	}
	if len(flags) == 0 {
		return cut(head, maxInstructions)
	}
	text, _ := sharedFlagsText(flags, maxInstructions-len(head)-len(sep))
	return cut(head+sep+text, maxInstructions)
}

// sharedIntro begins the statement of the shared flags.
const sharedIntro = "Shared flags, accepted in \"flags\" by every tool that has it though no schema lists them (a tool's own flag of the same name wins):"

// minFlagCut is the shortest cut of a shared flag's meaning worth stating;
// below it the flags are stated by name and type.
const minFlagCut = 24

// sharedFlagsText states the shared flags in at most budget bytes when it
// can: one line per flag with its first sentence and default; else each
// meaning cut to n bytes, the largest n that fits (a larger n never gives
// a text more than a few bytes shorter, so bisection finds it); else by
// name and type on one line, which may not fit either. n is 0 for the
// first form and -1 for the last.
func sharedFlagsText(flags []*pflag.Flag, budget int) (text string, n int) {
	if s := sharedIntro + "\n" + flagLines(flags, 0); len(s) <= budget {
		return s, 0
	}
	longest := 0
	for _, f := range flags {
		longest = max(longest, len(oneLine(f.Usage)))
	}
	n = -1
	for lo, hi := minFlagCut, longest; lo <= hi; {
		mid := (lo + hi) / 2
		if s := sharedIntro + "\n" + flagLines(flags, mid); len(s) <= budget {
			text, n, lo = s, mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	if n > 0 {
		return text, n
	}
	return sharedIntro + " " + flagNames(flags), -1
}

// generatedInstructions says what the CLI is and how its tools are called.
func (s *Served) generatedInstructions() string {
	name := s.ts.root.Name()
	var b strings.Builder
	b.WriteString(name)
	if v := s.ts.root.Version; v != "" {
		b.WriteString(" " + v)
	}
	if short := strings.TrimRight(oneLine(s.ts.root.Short), "."); short != "" {
		b.WriteString(": " + short)
	}
	b.WriteString(".\n")
	if m, ok := s.list.(*searchMode); ok {
		fmt.Fprintf(&b, "The tools reach every %s command: find one with %s, read its schema and help with %s, run it with %s {\"command\": NAME, \"flags\": {...}, \"args\": [...]}.", name, m.searchName, m.describe, m.run)
	} else {
		fmt.Fprintf(&b, "Each tool runs one %s command (%s: `%s`).", name, s.exampleTool(), s.exampleLine())
	}
	b.WriteString(" Arguments: {\"flags\": {NAME: VALUE}, \"args\": [...]}, flags by long name (one left out keeps its default; list flags take arrays), args positional. Result: stdout, stderr, exitCode; a non-zero exit code is an error.")
	return b.String()
}

// exampleTool and exampleLine name the first tool below the root, for the
// instructions' example.
func (s *Served) exampleTool() string {
	if t := s.exampleT(); t != nil {
		return t.Name
	}
	return toolName(s.ts.root.Name())
}

func (s *Served) exampleLine() string {
	if t := s.exampleT(); t != nil {
		return t.Command.CommandPath()
	}
	return s.ts.root.Name()
}

func (s *Served) exampleT() *Tool {
	for _, t := range s.tools {
		if len(t.Path) > 0 {
			return t
		}
	}
	if len(s.tools) > 0 {
		return s.tools[0]
	}
	return nil
}

// instructionFlags are the shared flags the instructions state: those of
// the compact listing that no pin fixes.
func (s *Served) instructionFlags() []*pflag.Flag {
	var out []*pflag.Flag
	for _, f := range s.shared {
		if s.pinFrom[f.Name] != "" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// flagLines states each flag on a line: --name TYPE: meaning. With n 0,
// a long meaning is cut to its first sentence and a default that is not
// the type's zero value follows; otherwise the meaning is cut to about n
// bytes.
func flagLines(flags []*pflag.Flag, n int) string {
	full := n == 0
	lines := make([]string, len(flags))
	for i, f := range flags {
		usage := oneLine(f.Usage)
		for _, p := range []string{"If true, ", "If present, ", "If set, "} {
			if rest, ok := strings.CutPrefix(usage, p); ok && !full {
				usage = rest
			}
		}
		if full {
			usage = briefUsage(usage)
		} else {
			usage = shortUsage(usage, n)
		}
		l := "--" + f.Name + " " + f.Value.Type()
		if usage != "" {
			l += ": " + usage
		}
		if full && !zeroDefault(f) {
			l += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// flagNames states the flags on one line: --name TYPE, ...
func flagNames(flags []*pflag.Flag) string {
	parts := make([]string, len(flags))
	for i, f := range flags {
		parts[i] = "--" + f.Name + " " + f.Value.Type()
	}
	return strings.Join(parts, ", ") + "."
}

// shortUsage cuts a usage to at most n bytes at a word boundary, marked "…".
func shortUsage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.LastIndexByte(s[:n], ' ')
	if i <= 0 {
		for i = n; i > 0 && !utf8.RuneStart(s[i]); i-- {
		}
	}
	return strings.TrimRight(s[:i], " ,.;:") + "…"
}

func zeroDefault(f *pflag.Flag) bool {
	switch f.DefValue {
	case "", "0", "false", "[]", "0s", "<nil>":
		return true
	}
	return false
}
