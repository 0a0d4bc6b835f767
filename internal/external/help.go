package external

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// helpPage is what a command's help text says, as far as it can be read.
type helpPage struct {
	lead     string     // the text before "Usage:" (cobra prints Long, else Short)
	useLines []string   // the lines of the "Usage:" section, trimmed
	useSpace []string   // the white space each of useLines began with
	aliases  []string   // from "Aliases:", the command's own name first
	example  string     // the "Examples:" section, as printed
	commands []helpItem // "NAME  SHORT" lines of the command sections
	flags    map[string]*helpFlag
	global   map[string]bool // flags listed under "Global Flags:"
	sections bool            // the help has cobra's "Flags:" section
	upper    bool            // the titles are in upper case without colons (gh's layout)
	quotes   bool            // a kubectl-style flag line quotes its default: the help quotes strings' defaults
	// styled: the help was printed by a styling library (charmbracelet/fang's),
	// read without its padding (unpad): its flag lines name no type, and
	// its flags section holds the inherited flags too.
	styled bool
}

// leaf reports that the help shows a command without sub-commands: no
// command section, and no usage line that names a sub-command and nothing
// else ("PATH [command]", gh's "PATH <command> [flags]", docker's "PATH
// COMMAND"; docker's "run [OPTIONS] IMAGE [COMMAND]" names an arg).
func (p *helpPage) leaf(path string) bool {
	if len(p.useLines) == 0 || len(p.commands) > 0 {
		return false
	}
	return !p.groupLine(path)
}

// isCommandWord reports whether a word of a usage line stands for a
// sub-command of a group that does not run: cobra's "[command]", gh's
// "<command>", "<subcommand>", docker's "COMMAND".
func isCommandWord(w string) bool {
	switch strings.Trim(w, "[]<>") {
	case "command", "subcommand", "COMMAND":
		// Not kubectl's "SUBCOMMAND": its groups run (they print their
		// help).
		return true
	}
	return false
}

// isFlagsWord reports whether a word of a usage line stands for the flags
// ("[flags]", kubectl's "[options]", docker's "[OPTIONS]").
func isFlagsWord(w string) bool {
	switch w {
	case "[flags]", "[options]", "[OPTIONS]", "[FLAGS]", "[--flags]":
		return true
	}
	return false
}

type helpItem struct{ name, short string }

// helpFlag is one flag line (and its continuation lines) of a help text.
type helpFlag struct {
	name, shorthand string
	word            string // the word after the name in pflag's format ("" for bool)
	style           string // "pflag", "assign" (kubectl's --name=DEFAULT:) or "styled" (fang's, no type word)
	noOpt           string // the [=X] part, without [= and ]
	boolNoOpt       bool   // pflag's [=true|false]
	assigned        string // kubectl style: the text after "=" (the default)
	col             int    // pflag style: the column at which the usage starts
	raw             string // pflag style: the usage's first line as written, when pflag took its back quotes (unquote)
	text            []string
	section         string // the title of its section, in lower case ("flags", "global flags", "sync flags")
}

// ownSection reports whether a flag section's title is the one that
// templates give a command's own flags: cobra's "Flags:", kubectl's and
// docker's "Options:", gh's "FLAGS". Another title (rclone's "Sync Flags:"
// for the global flags of a command's group) may hold inherited ones.
func ownSection(title string) bool {
	switch title {
	case "flags", "options", "local flags":
		return true
	}
	return false
}

var (
	// pflag: "  -n, --name type[=x]   usage (default x)"; a placeholder
	// taken from the usage's back quotes may hold single spaces (k3d's
	// "--port-delete k3d cluster edit NODE --port-delete 8080:80"): pflag
	// puts two spaces at least before the usage.
	pflagLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s+(?:-([^-\s]), )?--([A-Za-z0-9][\w.:-]*)(\[=true\|false\])?(?: (\S+?(?: \S+?)*?))?(\[=.*?\])?(?:\s{2,}(.*))?$`)
	})
	// kubectl: "  -n, --name='default':" (the usage follows on the next lines)
	assignLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s+(?:-([^-\s]), )?--([A-Za-z0-9][\w.:-]*)=(.*):\s*$`)
	})
	// fang: "  -n --name   Usage (default)", no type word
	styledLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s+(?:-([^-\s]) )?--([A-Za-z0-9][\w.:-]*)(?:\s{2,}(.*))?$`)
	})
	// a command line of a command section: "  name   short"
	// (gh's "  auth:          Authenticate gh")
	commandLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {1,4}([A-Za-z0-9][\w.-]*:?)(?:\s+(.*))?$`) })
)

// helpContext is what the parser itself tells about the command whose
// help is read: its path ("kubectl get") and the names of its flags that
// flag-name completion listed (nil when none could be listed: any flag
// line is then taken). The help's sections are recognized by it, not by
// the titles of cobra's default template.
type helpContext struct {
	path  string
	flags map[string]bool
	// styled: the help's flag lines are fang's (see helpPage.styled).
	styled bool
}

// command reads a command line of a command section in the help's style:
// the command's name and its short description. fang prints the name with
// its use line's args ("check [configuration files] [--flags]"), the
// short description after two spaces at least.
func (hc helpContext) command(line string) (name, short string, ok bool) {
	m := commandLine().FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	name, short = strings.TrimSuffix(m[1], ":"), strings.TrimSpace(m[2])
	if hc.styled {
		if i := strings.Index(short, "  "); i >= 0 {
			short = strings.TrimSpace(short[i:])
		} else if strings.HasPrefix(short, "[") || strings.HasPrefix(short, "<") {
			short = "" // args alone
		}
	}
	return name, short, true
}

// match reads a flag line in the help's style.
func (hc helpContext) match(line string) *helpFlag {
	if hc.styled {
		return matchStyled(line)
	}
	return matchFlag(line)
}

// unpad reads a help that a styling library printed (charmbracelet/fang's,
// as goreleaser's): every line indented by two spaces or more and padded
// with spaces to its block's width, the section titles ("USAGE",
// "EXAMPLES", "COMMANDS", "FLAGS") in upper case among them. It returns
// the text without the trailing spaces and the common indentation, the
// titles at column 0 as gh's, and reports whether the help is such a one.
func unpad(text string) (string, bool) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	indent, usage := -1, false
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		lines[i] = l
		if l == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
		usage = usage || strings.TrimSpace(l) == "USAGE"
	}
	if indent < 2 || !usage {
		return text, false
	}
	for i, l := range lines {
		if len(l) >= indent {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n"), true
}

// Section kinds of a help page.
const (
	secText     = "text" // the command's description, or text of no section
	secUsage    = "usage"
	secAliases  = "aliases"
	secExamples = "examples"
	secFlags    = "flags"
	secGlobal   = "global"
	secCommands = "commands"
	secTopics   = "topics"
	secOther    = "other" // a section of a layout's own (gh's LEARN MORE)
)

// indented reports whether a line starts with a space or a tab.
func indented(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t')
}

// heading reads an unindented line as a section title: its words without a
// trailing ":" ("Usage:", "USAGE", "Key-value commands"), and the text
// that follows "Usage:" on the same line (docker's "Usage:  docker run
// [OPTIONS] IMAGE").
func heading(line string) (title, rest string) {
	t := strings.TrimSpace(line)
	if r, ok := strings.CutPrefix(t, "Usage:"); ok && strings.TrimSpace(r) != "" {
		return "usage", strings.TrimSpace(r)
	}
	return strings.ToLower(strings.TrimSuffix(t, ":")), ""
}

// sectionOf returns the kind of section that the unindented line at i
// starts, "" when it starts none (it is text). A title alone only makes a
// section where nothing else can tell (examples, aliases); the others are
// recognized by what follows: a usage line that starts with the command's
// path, flag lines naming flags that completion listed, command lines.
func sectionOf(lines []string, i int, hc helpContext) string {
	title, rest := heading(lines[i])
	if len(title) > 40 || strings.ContainsAny(title, ".,;!?`'\"") {
		return ""
	}
	var body []string // the indented lines that follow, up to the next unindented one
	for _, l := range lines[i+1:] {
		if l != "" && !indented(l) {
			break
		}
		if strings.TrimSpace(l) != "" {
			body = append(body, l)
		}
	}
	switch title {
	case "usage":
		first := rest
		if first == "" && len(body) > 0 {
			first = strings.TrimSpace(body[0])
		}
		if first == "" && i+1 < len(lines) {
			// A template that prints the usage lines at column 0.
			first = lines[i+1]
		}
		if first == hc.path || strings.HasPrefix(first, hc.path+" ") {
			return secUsage
		}
		return ""
	case "examples":
		// The title cobra's, kubectl's, gh's and docker's templates
		// print; "Example:" is a description's own paragraph (docker's
		// context create).
		return secExamples
	case "aliases":
		return secAliases
	}
	for _, l := range body {
		if f := hc.match(l); f != nil && (hc.flags == nil || hc.flags[f.name]) {
			if strings.Contains(title, "global") || strings.Contains(title, "inherited") {
				return secGlobal
			}
			return secFlags
		}
	}
	if strings.Contains(title, "help topics") {
		return secTopics
	}
	// A title naming commands (not text that does: kustomize's example
	// "The command\n  set image ..."): "Available Commands:", gh's "CORE
	// COMMANDS", etcdctl's "Key-value commands".
	raw := strings.TrimSpace(lines[i])
	titled := strings.HasSuffix(raw, ":") || raw == strings.ToUpper(raw) || strings.HasSuffix(title, "commands")
	if titled && strings.Contains(title, "command") && slices.ContainsFunc(body, func(l string) bool { return commandLine().MatchString(l) }) {
		return secCommands
	}
	if rest == "" && title == strings.TrimSpace(strings.ToLower(lines[i])) && strings.ToUpper(strings.TrimSpace(lines[i])) == strings.TrimSpace(lines[i]) && len(body) > 0 &&
		strings.ContainsFunc(title, unicode.IsLetter) {
		// (A title has words: a "{" that opens a JSON example at
		// column 0 is the description's text.)
		return secOther // an upper-case title of a layout's own (gh's LEARN MORE, ARGUMENTS)
	}
	return ""
}

// parseHelp reads a help text in any layout: cobra's default, kubectl's
// (usage last, "Options:"), gh's (upper-case titles without colons),
// docker's (the usage line first, after "Usage:"). Its sections are found
// by what hc says of the command (see sectionOf); the text before the
// first section other than the usage is the command's description, kept
// whole, whatever its lines look like. Parts it cannot find stay empty.
func parseHelp(text string, hc helpContext) *helpPage {
	p := &helpPage{flags: map[string]*helpFlag{}, global: map[string]bool{}}
	text, p.styled = unpad(text)
	hc.styled = p.styled
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	section := secText
	leadOpen := true // no section seen yet but a usage section before any text
	var lead, example []string
	var last *helpFlag
	title := "" // the current section's title, in lower case
	// unindented: the usage section's lines so far are at column 0 (a
	// template's own), so the next unindented line that starts with the
	// command's path is one of them.
	unindented := false
	kinds := map[int]string{} // the kind of section each unindented line starts
	var order []int
	for i, line := range lines {
		if line != "" && !indented(line) {
			if k := sectionOf(lines, i, hc); k != "" {
				kinds[i] = k
				order = append(order, i)
			}
		}
	}
	// cobra's template prints the examples after the usage; kubectl's
	// puts the usage last. "Examples:" followed by the usage and then more
	// sections is the description's own text (helm's search repo).
	for j := 0; j+2 < len(order); j++ {
		if kinds[order[j]] == secExamples && kinds[order[j+1]] == secUsage {
			if j == 0 || j == 1 && kinds[order[0]] == secUsage {
				delete(kinds, order[j])
			}
			break
		}
	}
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if line != "" && !indented(line) && kinds[i] == "" && section == secUsage && unindented && (trimmed == hc.path || strings.HasPrefix(trimmed, hc.path+" ")) {
			p.useLines = append(p.useLines, trimmed)
			p.useSpace = append(p.useSpace, "")
			continue
		}
		if line != "" && !indented(line) {
			kind := kinds[i]
			last = nil
			unindented = false
			if kind == "" && section == secExamples {
				// cobra prints the examples as they are written:
				// they run up to the next section.
				example = append(example, line)
				continue
			}
			if kind == "" {
				// Text: the description's (before any section), or
				// text after a section, which is no part of it.
				section = secText
				if leadOpen {
					lead = append(lead, line)
				}
				continue
			}
			section = kind
			title, _ = heading(line)
			if t := strings.TrimSpace(line); t == strings.ToUpper(t) && !strings.HasSuffix(t, ":") {
				p.upper = true
			}
			if kind != secUsage || strings.TrimSpace(strings.Join(lead, "")) != "" {
				// Docker prints the usage first, the description after.
				leadOpen = false
			}
			switch kind {
			case secFlags, secGlobal:
				p.sections = true
			case secUsage:
				if _, rest := heading(line); rest != "" {
					p.useLines = append(p.useLines, rest)
					p.useSpace = append(p.useSpace, "")
				} else {
					unindented = i+1 < len(lines) && lines[i+1] != "" && !indented(lines[i+1])
				}
			}
			continue
		}
		switch section {
		case secText:
			if leadOpen {
				lead = append(lead, line)
			}
		case secUsage:
			if trimmed != "" {
				p.useLines = append(p.useLines, trimmed)
				p.useSpace = append(p.useSpace, line[:len(line)-len(strings.TrimLeft(line, " \t"))])
			}
		case secAliases:
			if trimmed != "" && p.aliases == nil {
				for _, a := range strings.Split(trimmed, ",") {
					if a = strings.TrimSpace(a); a != "" {
						p.aliases = append(p.aliases, a)
					}
				}
			}
		case secExamples:
			example = append(example, line)
		case secCommands:
			if name, short, ok := hc.command(line); ok {
				p.commands = append(p.commands, helpItem{name, short})
			}
		case secFlags, secGlobal:
			if f := hc.match(line); f != nil {
				f.section = title
				if _, quoted := f.assignDefault(); quoted && f.style == "assign" {
					p.quotes = true
				}
				if _, dup := p.flags[f.name]; !dup {
					p.flags[f.name] = f
				}
				if section == secGlobal {
					p.global[f.name] = true
				}
				last = f
			} else if last != nil && trimmed != "" {
				last.text = append(last.text, last.continuation(line))
			} else {
				last = nil
			}
		}
	}
	if p.styled {
		lead = unwrapStyled(lead)
	}
	p.lead = strings.TrimSpace(strings.Join(lead, "\n"))
	// The template's blank lines are empty; an example's own last line
	// may hold spaces (kustomize's "\t\t").
	for len(example) > 0 && example[len(example)-1] == "" {
		example = example[:len(example)-1]
	}
	if p.upper {
		// gh's help indents each section's text by two spaces; its
		// examples are written without.
		for i, l := range example {
			example[i] = strings.TrimPrefix(l, "  ")
		}
	}
	p.example = strings.Join(example, "\n")
	if p.styled {
		// fang prints cobra's "[flags]" as "[--flags]", and adds
		// "[command]" before the args of a command that has
		// sub-commands, whether it runs or not: a use line with args
		// besides (the group runs) is read without it.
		for i, l := range p.useLines {
			l = strings.Replace(l, " [--flags]", " [flags]", 1)
			if rest, ok := strings.CutPrefix(l, hc.path+" "); ok && !groupUse(rest) {
				l = strings.Replace(l, " [command]", "", 1)
			}
			p.useLines[i] = l
		}
	}
	return p
}

// styledWidth is the width at which fang wraps a command's long text: its
// block is 120 columns wide, two of them its left padding.
const styledWidth = 118

// unwrapStyled joins the lines of a long text that fang wrapped at
// styledWidth: a line followed by one whose first word would not have
// fit on it was broken by the wrap (a break the text had there reads the
// same, and is joined too).
func unwrapStyled(lines []string) []string {
	var out []string
	for i, l := range lines {
		if i > 0 && len(out) > 0 {
			prev := out[len(out)-1]
			word, _, _ := strings.Cut(strings.TrimLeft(l, " "), " ")
			if prev != "" && word != "" && !indented(l) && len(prev)+1+len(word) > styledWidth {
				out[len(out)-1] = prev + " " + l
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// matchStyled reads a flag line of fang's help: "-n --name", then the
// usage with its first word title-cased and the default in parentheses.
func matchStyled(line string) *helpFlag {
	m := styledLine().FindStringSubmatch(line)
	if m == nil {
		return nil
	}
	f := &helpFlag{shorthand: m[1], name: m[2], style: "styled"}
	if m[3] != "" {
		f.text = []string{m[3]}
		f.col = strings.LastIndex(line, m[3])
	}
	return f
}

// restyle gives a fang-style flag's usage its first line as the CLI wrote
// it (raw, from completion): fang prints it with its first word
// title-cased and its spaces collapsed.
func (f *helpFlag) restyle(raw string) {
	if f.style != "styled" || raw == "" || len(f.text) == 0 {
		return
	}
	printed := strings.Join(strings.Fields(raw), " ")
	if len(f.text[0]) >= len(printed) && strings.EqualFold(f.text[0][:len(printed)], printed) {
		f.text[0] = raw + f.text[0][len(printed):]
		f.raw = raw
	}
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
		f.text = []string{strings.TrimLeft(m[6], " ")}
		f.col = strings.LastIndex(line, m[6])
	}
	return f
}

// unquote reads the flag's help line again, given its usage's first line
// as the CLI wrote it (raw: completion keeps back quotes). pflag prints
// the text of the usage's first pair of back quotes as the placeholder,
// then the optional value ("[=x]"), and the usage without that pair. When
// the pair is on the first line, the placeholder is known exactly, "[="
// in it too (k3d's "KEY[=VALUE][@NODEFILTER...]" has no optional value),
// and split gives the usage its back quotes again when it holds more.
func (f *helpFlag) unquote(raw string) {
	i := strings.IndexByte(raw, '`')
	if f.style != "pflag" || i < 0 {
		return
	}
	j := strings.IndexByte(raw[i+1:], '`')
	if j < 0 {
		return
	}
	name := raw[i+1 : i+1+j]
	printed := f.word
	if f.noOpt != "" {
		printed += "[=" + f.noOpt + "]"
	}
	switch {
	case printed == name:
		f.word, f.noOpt = name, ""
	case strings.HasPrefix(printed, name+"[=") && strings.HasSuffix(printed, "]"):
		f.word, f.noOpt = name, printed[len(name)+2:len(printed)-1]
	default:
		return
	}
	f.raw = raw
}

// unwrap undoes a help that wraps flag usages at the terminal's width
// (docker's): when the usage is one line as the CLI wrote it (raw, from
// completion) and the help's lines are that line broken at spaces, with
// pflag's " (default X)" after it, the flag's text is raw and the default
// again, on one line. Lines that hold more than raw and a default are the
// usage's own (completion shows a usage's first line only).
func (f *helpFlag) unwrap(raw string) {
	if f.style != "pflag" || len(f.text) < 2 || raw == "" || strings.ContainsAny(raw, "\n`") {
		return
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	rest, ok := strings.CutPrefix(norm(strings.Join(f.text, " ")), norm(raw))
	switch {
	case !ok:
	case rest == "" || strings.HasPrefix(rest, " (default ") && strings.HasSuffix(rest, ")"):
		f.text = []string{raw + rest}
	default:
		if lines, ok := unwrapLines(f.text, raw); ok {
			f.text = lines
		}
	}
}

// wrapSlop is how far past its width pflag's wrap lets the last piece of
// a usage run rather than leave a short word alone on a line (pflag's wrap
// takes it from the column's width).
const wrapSlop = 5

// unwrapLines undoes pflag's FlagUsagesWrapped on a usage of several lines
// (docker's --format: "Format output using a custom template:\n'json':
// ..."): printed is the help's lines of the usage, its first line raw as
// completion gives it. A break between two printed lines is the usage's
// own, or one the wrap made, which it can only be where the next word
// would not have fit in the width. Where it could be either, the text
// tells: after the end of a sentence or a clause (".", ":"...) or before
// an item ("'json':", "- ", an indented line) the break is the usage's,
// elsewhere the wrap's. The result must wrap
// back to the printed lines at some width, the narrowest tried first; it
// reports false when none does.
func unwrapLines(printed []string, raw string) ([]string, bool) {
	n := len(printed)
	// The breaks inside the first line are the wrap's, the one after it
	// the usage's own.
	first, joined := -1, ""
	for k := 0; k < n && len(joined) < len(raw); k++ {
		if k > 0 {
			joined += " "
		}
		joined += printed[k]
		if joined == raw {
			first = k
		}
	}
	if first < 0 || first == n-1 {
		return nil, false
	}
	longest := 0
	for _, l := range printed {
		longest = max(longest, len(l))
	}
	// pflag does not wrap a column narrower than 24.
	for width := 24 - wrapSlop; width <= longest+40; width++ {
		var b strings.Builder
		b.WriteString(printed[0])
		for k := 1; k < n; k++ {
			prev, line := printed[k-1], printed[k]
			next, _, _ := strings.Cut(line, " ")
			own := endsClause(prev) || strings.ContainsAny(line[:1], "'\"-* \t")
			wrapped := k-1 < first || k-1 > first && len(prev) < width && len(prev)+1+len(next) >= width && !own
			if wrapped {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
			b.WriteString(line)
		}
		if slices.Equal(pflagWrap(b.String(), width), printed) {
			return strings.Split(b.String(), "\n"), true
		}
	}
	return nil, false
}

// endsClause reports whether a line of a usage ends a sentence or a
// clause, so that a break after it may be the usage's own: it ends with
// ".", ":", ";", "!" or "?", but not with an abbreviation ("(eg.",
// "e.g.", "i.e.") nor with an item's label alone ("'os[/arch]':", the
// label a wrap left on a line of its own).
func endsClause(line string) bool {
	if line == "" || !strings.ContainsAny(line[len(line)-1:], ".:;!?") {
		return false
	}
	words := strings.Fields(line)
	last := strings.ToLower(strings.TrimLeft(words[len(words)-1], "(["))
	switch last {
	case "eg.", "e.g.", "ie.", "i.e.", "cf.", "vs.", "ex.":
		return false
	}
	if len(words) == 1 && len(last) > 3 && last[0] == '\'' && strings.HasSuffix(last, "':") {
		return false
	}
	return true
}

// pflagWrap wraps the usage s as pflag's FlagUsagesWrapped does when the
// usage's column is width+wrapSlop wide, and returns the lines without
// their indentation: pflag itself wraps it, as the usage of a flag of a
// set of its own, at the number of columns that gives that width.
func pflagWrap(s string, width int) []string {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.String("x", "", s)
	if strings.Contains(s, "`") {
		return nil // pflag would take back-quoted words for a placeholder
	}
	// The usage's column: where its first line follows the flag's name.
	const name = "--x string"
	first, _, _ := strings.Cut(s, "\n")
	plain := fs.FlagUsagesWrapped(0)
	at := strings.Index(plain, name)
	if at < 0 {
		return nil
	}
	at += len(name)
	col := strings.Index(plain[at:], first)
	if col < 0 {
		return nil
	}
	col += at
	lines := strings.Split(strings.TrimSuffix(fs.FlagUsagesWrapped(col+width+wrapSlop), "\n"), "\n")
	for i, l := range lines {
		if len(l) < col {
			return nil
		}
		lines[i] = l[col:]
	}
	return lines
}

// continuation returns the text of a continuation line of the flag's
// usage: pflag indents the lines of a usage to the column of its first,
// and the rest of the line is the usage's own (kustomize's "\t\tIf not
// specified"); kubectl's style indents them by a tab.
func (f *helpFlag) continuation(line string) string {
	if (f.style == "pflag" || f.style == "styled") && f.col > 0 && len(line) > f.col && strings.TrimLeft(line[:f.col], " ") == "" {
		return line[f.col:]
	}
	return strings.TrimSpace(line)
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
	if f.raw != "" && strings.Contains(strings.Join(lines, "\n"), "`") {
		// pflag printed the usage without its first pair of back
		// quotes, and it has more (k3d's "Example: `k3d ...`"): read
		// without the first pair given back, pflag would take the
		// next pair's text for the placeholder, and the usage would
		// lose those back quotes.
		if rest, ok := strings.CutPrefix(lines[0], strings.Replace(f.raw, "`"+f.word+"`", f.word, 1)); ok {
			lines[0] = f.raw + rest
		}
	}
	if f.style == "styled" {
		return f.styledSplit(typ, lines)
	}
	if f.style == "assign" {
		// kubectl's style gives the default after "=": a "(default X)"
		// at the end is the usage's own text ("(default hide labels
		// column)").
		return strings.Join(lines, "\n"), "", false
	}
	last := lines[len(lines)-1]
	if typ == "string" || typ == "" {
		if m := quotedDefault().FindStringSubmatchIndex(last); m != nil {
			if u, err := strconv.Unquote(last[m[2]:m[3]]); err == nil && printedDefault(typ, u) {
				lines[len(lines)-1] = last[:m[0]]
				return strings.TrimSpace(strings.Join(lines, "\n")), u, true
			}
		}
	}
	if typ != "string" {
		if m := plainDefault().FindStringSubmatchIndex(last); m != nil && printedDefault(typ, last[m[2]:m[3]]) {
			lines[len(lines)-1] = last[:m[0]]
			return strings.TrimSpace(strings.Join(lines, "\n")), last[m[2]:m[3]], true
		}
	}
	return strings.Join(lines, "\n"), "", false
}

// styledSplit is split for a fang-style flag: fang appends " (X)" to the
// usage for a default other than "", "false", "0" and "[]", as it is,
// unquoted. Where the usage is one line that completion gave (raw), the
// text after it tells; otherwise a " (X)" that ends the usage is the
// default only when typ is known and not a string, and X a value of it.
func (f *helpFlag) styledSplit(typ string, lines []string) (usage, def string, ok bool) {
	last := lines[len(lines)-1]
	if len(lines) == 1 && f.raw != "" {
		rest, _ := strings.CutPrefix(last, f.raw)
		if v, found := strings.CutPrefix(rest, " ("); found && strings.HasSuffix(v, ")") && len(rest) == len(last)-len(f.raw) {
			return f.raw, strings.TrimSuffix(v, ")"), true
		}
		return last, "", false
	}
	if typ != "" && typ != "string" {
		if i := strings.LastIndex(last, " ("); i >= 0 && strings.HasSuffix(last, ")") {
			if v := last[i+2 : len(last)-1]; printedDefault(typ, v) {
				lines[len(lines)-1] = last[:i]
				return strings.Join(lines, "\n"), v, true
			}
		}
	}
	return strings.Join(lines, "\n"), "", false
}

// printedDefault reports whether pflag could have printed def as the
// default of a flag of its own type typ: pflag leaves a default it takes
// for the type's zero out (pflag itself is asked), and a default is a
// value of the type. Otherwise the text is the usage's own words
// (docker's "(default 0 = unlimited)" on an int, "(default shows just
// running)" on a bool, "(default 0s)" on a duration). A custom or unknown
// type ("") may print anything.
func printedDefault(typ, def string) bool {
	k, builtin := flagschema.Lookup(typ)
	if !builtin {
		return true
	}
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	if !k.Define(fs, "f", "") {
		return true
	}
	fl := fs.Lookup("f")
	fl.DefValue = def
	if !strings.Contains(fs.FlagUsages(), "(default ") {
		return false // pflag does not print this default
	}
	// Printed, an empty map or list ("[]") is no value Set takes.
	return zeroDefault(typ, def) || setDefault(fl, def) == nil
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

// useLine returns the lines of the usage section that are the command's
// use line, and whether there is one: a command whose usage lines all
// name a sub-command and nothing else ("PATH [command]", gh's "PATH
// <command> [flags]", docker's "PATH COMMAND") is a group that does not
// run. A use line of more than one line (docker cp's "PATH A\n\tPATH B")
// keeps its lines and the white space they begin with.
func (p *helpPage) useLine(path string) (string, bool) {
	root, _, _ := strings.Cut(path, " ")
	var use []string
	// cobra's template prints the use line of a command that runs, then
	// "PATH [command]" when it has sub-commands: with that line last, the
	// first is the use line, whatever it names (hugo's Use strings hold
	// "[command]" themselves: "hugo server [command] [flags]").
	two := len(p.useLines) >= 2 && p.useLines[len(p.useLines)-1] == path+" [command]" &&
		(p.useLines[0] == path || strings.HasPrefix(p.useLines[0], path+" "))
	for i, l := range p.useLines {
		rest, ok := strings.CutPrefix(l, path)
		switch {
		case two && i == 0:
			use = append(use, l)
		case ok && (rest == "" || rest[0] == ' ') && groupUse(rest):
		case use == nil && ok && (rest == "" || rest[0] == ' '):
			use = append(use, l)
		case use != nil && (l == root || strings.HasPrefix(l, root+" ")):
			// The use line's own next line, which may name the
			// command by another path (docker container cp's "docker
			// cp ...").
			use = append(use, p.useSpace[i]+l)
		}
	}
	return strings.Join(use, "\n"), use != nil
}

// groupLine reports whether a usage line names a sub-command and nothing
// else ("PATH [command]").
func (p *helpPage) groupLine(path string) bool {
	for _, l := range p.useLines {
		if rest, ok := strings.CutPrefix(l, path); ok && groupUse(rest) {
			return true
		}
	}
	return false
}

// groupUse reports whether the words of a usage line after the command's
// path name a sub-command and nothing else but the flags.
func groupUse(rest string) bool {
	group := false
	for _, w := range strings.Fields(rest) {
		switch {
		case isCommandWord(w):
			group = true
		case !isFlagsWord(w):
			return false
		}
	}
	return group
}
