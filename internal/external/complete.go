package external

import (
	"fmt"
	"strconv"
	"strings"
)

// activeHelpMarker starts the lines of cobra's active help, which are not
// completions.
const activeHelpMarker = "_activeHelp_ "

// completion is one answer of cobra's hidden __complete command: the
// completions it printed, one a line ("value\tdescription"), and the
// directive of its last line (":4").
type completion struct {
	items     []helpItem
	directive int
	errText   string // what it said on stderr after "Error: ", if anything
}

// parseCompletion reads the output of `BIN __complete ...`: zero or more
// completion lines, then ":N". Anything else is not a cobra completion.
func parseCompletion(stdout, stderr string) (*completion, error) {
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	// A command that writes its errors to stdout (kubectl's options does)
	// puts cobra's own note after the directive.
	for len(lines) > 1 && strings.HasPrefix(lines[len(lines)-1], "Completion ended with directive:") {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
		return nil, fmt.Errorf("no completion directive line (\":N\") at the end of its output%s", excerpt(stdout, stderr))
	}
	d, err := strconv.Atoi(strings.TrimPrefix(lines[len(lines)-1], ":"))
	if err != nil || d < 0 {
		return nil, fmt.Errorf("its last line %q is not a completion directive%s", lines[len(lines)-1], excerpt(stdout, stderr))
	}
	c := &completion{directive: d}
	for _, l := range lines[:len(lines)-1] {
		if l == "" || strings.HasPrefix(l, activeHelpMarker) {
			continue
		}
		if i := strings.Index(l, "[Error] "); i >= 0 && strings.HasPrefix(l, "[") {
			c.errText = l[i+len("[Error] "):] // cobra's stderr, written to stdout
			continue
		}
		name, desc, _ := strings.Cut(l, "\t")
		c.items = append(c.items, helpItem{name, strings.TrimSpace(desc)})
	}
	for _, l := range strings.Split(stderr, "\n") {
		if c.errText != "" {
			break
		}
		// cobra 1.2+ prints "[Debug] [Error] msg" (CompErrorln); older
		// ones "Error: msg".
		if i := strings.Index(l, "[Error] "); i >= 0 {
			c.errText = l[i+len("[Error] "):]
			break
		}
		if rest, ok := strings.CutPrefix(l, "Error: "); ok {
			c.errText = rest
			break
		}
	}
	return c, nil
}

// refused reports that a flag-name completion failed: cobra said why, or
// printed no flag at all (there is always --help) with the default
// directive, which is what cobra answers on an error.
func (c *completion) refused() bool {
	return c.errText != "" || len(c.items) == 0 && c.directive == 0
}

// excerpt quotes the start of what a process printed, for an error message.
func excerpt(stdout, stderr string) string {
	s := strings.TrimSpace(stdout)
	if s == "" {
		s = strings.TrimSpace(stderr)
	}
	if s == "" {
		return " (it printed nothing)"
	}
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return fmt.Sprintf(" (it printed %q)", s)
}

// completedFlag is a flag as cobra's flag-name completion lists it.
type completedFlag struct {
	name, shorthand, usage string
	takesValue             bool // old cobra lists "--name=" for flags that take a value
}

// flagsOf reads the flags of a flag-name completion: "--name\tusage",
// followed by "-s\tusage" for its shorthand (and, from cobra before 1.2,
// "--name=\tusage" for a flag that takes a value).
func flagsOf(c *completion) []*completedFlag {
	var out []*completedFlag
	byName := map[string]*completedFlag{}
	var last *completedFlag
	for _, it := range c.items {
		switch {
		case strings.HasPrefix(it.name, "--"):
			n := strings.TrimPrefix(it.name, "--")
			if base, ok := strings.CutSuffix(n, "="); ok {
				if f := byName[base]; f != nil {
					f.takesValue = true
				}
				continue
			}
			if byName[n] != nil {
				last = byName[n]
				continue
			}
			f := &completedFlag{name: n, usage: it.short}
			byName[n] = f
			out = append(out, f)
			last = f
		case strings.HasPrefix(it.name, "-") && len(it.name) == 2:
			if last != nil && last.shorthand == "" && last.usage == it.short {
				last.shorthand = it.name[1:]
			}
		}
	}
	return out
}
