package external

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// helpPage is what a command's help text says, as far as it can be read.
type helpPage struct {
	lead     string     // the text before "Usage:" (cobra prints Long, else Short)
	useLines []string   // the lines of the "Usage:" section
	aliases  []string   // from "Aliases:", the command's own name first
	example  string     // the "Examples:" section, as printed
	commands []helpItem // "NAME  SHORT" lines of the command sections
	flags    map[string]*helpFlag
	global   map[string]bool // flags listed under "Global Flags:"
	sections bool            // the help has cobra's "Flags:" section
	quotes   bool            // a kubectl-style flag line quotes its default: the help quotes strings' defaults
}

// leaf reports that the help shows a command without sub-commands: a
// "Usage:" section without cobra's "PATH [command]" line, and no command
// section.
func (p *helpPage) leaf() bool {
	if len(p.useLines) == 0 || len(p.commands) > 0 {
		return false
	}
	for _, l := range p.useLines {
		if strings.Contains(l, "[command]") {
			return false
		}
	}
	return true
}

type helpItem struct{ name, short string }

// helpFlag is one flag line (and its continuation lines) of a help text.
type helpFlag struct {
	name, shorthand string
	word            string // the word after the name in pflag's format ("" for bool)
	style           string // "pflag" or "assign" (kubectl's --name=DEFAULT:)
	noOpt           string // the [=X] part, without [= and ]
	boolNoOpt       bool   // pflag's [=true|false]
	assigned        string // kubectl style: the text after "=" (the default)
	text            []string
}

var (
	// pflag: "  -n, --name type[=x]   usage (default x)"
	pflagLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s+(?:-([^-\s]), )?--([A-Za-z0-9][\w.:-]*)(\[=true\|false\])?(?: (\S+?))?(\[=.*?\])?(?:\s{2,}(.*))?$`)
	})
	// kubectl: "  -n, --name='default':" (the usage follows on the next lines)
	assignLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s+(?:-([^-\s]), )?--([A-Za-z0-9][\w.:-]*)=(.*):\s*$`)
	})
	// a command line of a command section: "  name   short"
	commandLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^  ([A-Za-z0-9][\w.:-]*)(?:\s{2,}(.*))?$`) })
)

// parseHelp reads a help text in cobra's default layout (and, for flags,
// kubectl's); parts it cannot find stay empty.
func parseHelp(text string) *helpPage {
	p := &helpPage{flags: map[string]*helpFlag{}, global: map[string]bool{}}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	section := "lead"
	var lead, example []string
	var last *helpFlag
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if line != "" && line[0] != ' ' && line[0] != '\t' && strings.HasSuffix(trimmed, ":") && !strings.Contains(trimmed, "  ") {
			// A section header, such as "Usage:", "Flags:", "Basic Commands:".
			switch trimmed {
			case "Usage:":
				section = "usage"
			case "Aliases:":
				section = "aliases"
			case "Examples:", "Example:":
				section = "examples"
			case "Flags:", "Options:", "Local Flags:":
				section, p.sections = "flags", true
			case "Global Flags:", "Inherited Flags:":
				section = "global"
			case "Additional help topics:":
				section = "topics"
			default:
				if section == "examples" && !strings.Contains(strings.ToLower(trimmed), "command") {
					// Not a section of cobra's; but kubectl prints its
					// "Available Commands:" after the examples.
					example = append(example, line)
					continue
				}
				if strings.Contains(strings.ToLower(trimmed), "command") {
					section = "commands"
				} else {
					section = "other"
				}
			}
			last = nil
			continue
		}
		switch section {
		case "lead":
			lead = append(lead, line)
		case "usage":
			if trimmed != "" {
				p.useLines = append(p.useLines, trimmed)
			}
		case "aliases":
			if trimmed != "" && p.aliases == nil {
				for _, a := range strings.Split(trimmed, ",") {
					if a = strings.TrimSpace(a); a != "" {
						p.aliases = append(p.aliases, a)
					}
				}
			}
		case "examples":
			example = append(example, line)
		case "commands":
			if m := commandLine().FindStringSubmatch(line); m != nil {
				p.commands = append(p.commands, helpItem{m[1], strings.TrimSpace(m[2])})
			}
		case "flags", "global", "other":
			if f := matchFlag(line); f != nil {
				if _, quoted := f.assignDefault(); quoted && f.style == "assign" {
					p.quotes = true
				}
				if _, dup := p.flags[f.name]; !dup {
					p.flags[f.name] = f
				}
				if section == "global" {
					p.global[f.name] = true
				}
				last = f
			} else if last != nil && trimmed != "" {
				last.text = append(last.text, trimmed)
			} else {
				last = nil
			}
		}
	}
	p.lead = strings.TrimSpace(strings.Join(lead, "\n"))
	// The examples end at the first blank line followed by text that is
	// not indented (cobra's template puts a blank line before the next section).
	for len(example) > 0 && strings.TrimSpace(example[len(example)-1]) == "" {
		example = example[:len(example)-1]
	}
	p.example = strings.Join(example, "\n")
	return p
}

func matchFlag(line string) *helpFlag {
	if m := assignLine().FindStringSubmatch(line); m != nil {
		return &helpFlag{shorthand: m[1], name: m[2], style: "assign", assigned: m[3]}
	}
	m := pflagLine().FindStringSubmatch(line)
	if m == nil {
		return nil
	}
	f := &helpFlag{shorthand: m[1], name: m[2], style: "pflag", boolNoOpt: m[3] != "", word: m[4]}
	if m[5] != "" {
		f.noOpt = strings.TrimSuffix(strings.TrimPrefix(m[5], "[="), "]")
	}
	// "--name string[="x"]": the regexp's lazy word stops before "[".
	if i := strings.Index(f.word, "[="); i >= 0 {
		f.noOpt, f.word = strings.TrimSuffix(f.word[i+2:], "]"), f.word[:i]
	}
	if m[6] != "" {
		f.text = []string{strings.TrimSpace(m[6])}
	}
	return f
}

var (
	quotedDefault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^| )\(default ("(?:[^"\\]|\\.)*")\)$`) })
	plainDefault  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^| )\(default ([^"].*)\)$`) })
)

// split returns a pflag-style flag's usage and the default that pflag
// appended to it, " (default X)", given the flag's pflag type: strings are
// quoted (%q), other types are not ("" when the type is not known yet:
// either form). Continuation lines are joined with newlines. A
// kubectl-style flag's usage is its text as it is (see assignDefault).
func (f *helpFlag) split(typ string) (usage, def string, ok bool) {
	if len(f.text) == 0 {
		return "", "", false
	}
	lines := append([]string(nil), f.text...)
	if f.style == "assign" {
		// kubectl's style gives the default after "=": a "(default X)"
		// at the end is the usage's own text ("(default hide labels
		// column)").
		return strings.Join(lines, "\n"), "", false
	}
	last := lines[len(lines)-1]
	if typ == "string" || typ == "" {
		if m := quotedDefault().FindStringSubmatchIndex(last); m != nil {
			if u, err := strconv.Unquote(last[m[2]:m[3]]); err == nil {
				lines[len(lines)-1] = last[:m[0]]
				return strings.TrimSpace(strings.Join(lines, "\n")), u, true
			}
		}
	}
	if typ != "string" {
		if m := plainDefault().FindStringSubmatchIndex(last); m != nil {
			lines[len(lines)-1] = last[:m[0]]
			return strings.TrimSpace(strings.Join(lines, "\n")), last[m[2]:m[3]], true
		}
	}
	return strings.Join(lines, "\n"), "", false
}

// assignDefault returns the default of a kubectl-style line (--name=X:):
// a string in single or double quotes loses them, and quoted reports it.
func (f *helpFlag) assignDefault() (v string, quoted bool) {
	v = f.assigned
	if len(v) >= 2 && (v[0] == '\'' && v[len(v)-1] == '\'' || v[0] == '"' && v[len(v)-1] == '"') {
		if u, err := strconv.Unquote(v); err == nil && v[0] == '"' {
			return u, true
		}
		return v[1 : len(v)-1], true
	}
	return v, false
}

// useLine returns the line of the "Usage:" section that is the command's
// use line (cobra prints "PATH [command]" too for a command with
// sub-commands), and whether there is one: a command without one does not
// run.
func (p *helpPage) useLine(path string) (string, bool) {
	for _, l := range p.useLines {
		if l == path+" [command]" || strings.HasSuffix(l, " [command]") && !strings.Contains(l, "[flags]") && strings.Count(l, " ") == strings.Count(path, " ")+1 {
			continue
		}
		return l, true
	}
	return "", false
}
