package external

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Asking the flag parser for types, in batches.
//
// Each process costs a CLI such as kubectl tens of milliseconds of CPU, so
// a command's untyped flags are all set in one `__complete PATH --a=V
// --b=W ... -` call. pflag stops at the first value it refuses and names
// that flag and its reason ("invalid argument "V" for "--a" flag: ..."):
// that flag is answered, and the call is repeated with the others. Once
// every value is taken, cobra lists the flags again: a flag that was set
// and is offered again takes many values (a slice, an array or a map).
// So a flag the parser takes costs nothing beyond the batch, and one it
// refuses costs one process. The questions asked of each flag, and the
// type concluded from the answers, are those of asking it alone
// (decideType); only a guess from kubectl-style help may come first.

// probeItem is one flag whose type the flag parser is asked for.
type probeItem struct {
	f        *Flag
	hint     string // the default the help shows
	list     bool   // the default looks like a list or map ("[...]")
	guess    string // a type guessed from the help, tried first ("bool", "duration")
	noParse  bool   // the parser cannot be asked (cobra before 1.2)
	timedOut string // why the parser's answer is unknown: it did not come
	early    string // the CLI's error on a probe value, printed before its parser answered

	hf          *helpFlag // the flag's help line, nil when the help has none
	custom      string    // the help's type word that pflag does not print for a type of its own
	placeholder bool      // the usage names that word: it may be a placeholder, not a type

	answers map[string]bool // value -> taken
	first   string          // the parser's reason for refusing probeValue
	again   bool            // offered again once set to probeValue
	typ     string          // the type found ("" while asking)
	from    string
}

// guessValues are the values tried first for a guessed type: the guessed
// type takes them, and "string" (ruled out by the help) does too; any
// other scalar type refuses them.
//
// A flag whose default looks like a list ("[...]") is first set to a value
// with a stray quote: an array takes it and a slice (read as CSV) does
// not. Taking it, the flag is concluded an array as asking it alone would
// (which asks for probeValue first, assuming that a parser that takes
// `"cobramcp-probe` takes `cobramcp-probe`).
var guessValues = sync.OnceValue(func() map[string]string {
	return map[string]string{"bool": "true", "duration": "1s", "stringArray": `"` + probeValue}
})

var durationDefault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`) })

// guessType guesses the type of a flag from its default as kubectl-style
// help prints it (unquoted, so not a string): "" for no guess. Integer and
// float defaults are not guessed: a custom type that takes any string (a
// port number or service name, default 8080) takes a number too, and only
// a refused probe value tells it from an integer.
func guessType(def string) string {
	switch {
	case def == "true" || def == "false":
		return "bool"
	case durationDefault().MatchString(def):
		return "duration"
	}
	return ""
}

// next returns the value to set the flag to next, "" when its type is
// found.
func (it *probeItem) next() string {
	if it.typ != "" {
		return ""
	}
	if it.guess != "" {
		return guessValues()[it.guess]
	}
	need := ""
	accepts := func(v string) bool {
		ok, seen := it.answers[v]
		if !seen && need == "" {
			need = v
		}
		return ok
	}
	typ, from := decideType(accepts, func() string { return it.first }, func() bool { return it.again }, it.list)
	if need != "" {
		return need // the first question not answered yet
	}
	it.typ, it.from = typ, from
	return ""
}

// record stores the parser's answer to value v: taken (ok) and, if so,
// whether the flag was offered again (listed; helpListed says the listing
// was complete, not cobra's list of the required flags only), or refused
// for reason why.
func (it *probeItem) record(v string, ok bool, why string, listed, helpListed bool) {
	if it.guess != "" && v == guessValues()[it.guess] {
		switch {
		case ok && it.guess == "stringArray" && !listed && helpListed:
			// Taken and not offered again: no list, whatever its
			// default looks like (gh's "(default [main branch])" on a
			// string).
			it.list = false
		case ok && it.guess == "stringArray":
			it.typ, it.from = it.guess, FromProbe
		case ok && !listed && helpListed:
			// Taken, and set once only: the guessed scalar type.
			it.typ, it.from = it.guess, FromProbe
		}
		it.guess = "" // otherwise ask as if nothing were known
	}
	it.answers[v] = ok
	if v == probeValue {
		if ok {
			it.again = listed
			if !listed && helpListed {
				it.list = false // set once only
			}
		} else {
			it.first = why
		}
	}
}

// decideType is the sequence of questions asked of the parser about one
// flag, and the type concluded from its answers: accepts says whether the
// parser takes a value, first is its reason for refusing probeValue and
// again whether, set to probeValue, the flag was offered again; list says
// its default looks like a list.
func decideType(accepts func(string) bool, first func() string, again func() bool, list bool) (string, string) {
	if accepts(probeValue) && again() {
		// Cobra offers a set flag again only when it takes many values
		// (a slice, an array or a map).
		list = true
	}
	if !accepts(probeValue) {
		// pflag's reason names the type: one process instead of a
		// sequence of probes.
		if typ := fromMessage(first(), list); typ != "" {
			if typ == "stringToString" && !accepts("k=v") {
				typ = "stringToInt"
			}
			return typ, FromProbe
		}
	}
	typ := classify(accepts, list)
	if typ == "" {
		return "string", FromUnknown
	}
	return typ, FromProbe
}

// refusedFlag matches pflag's reason for refusing a value, which names the
// flag ("-n, --name" or "--name").
var refusedFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`invalid argument "(?:[^"\\]|\\.)*" for "(?:-[^-"], )?--([^"]+)" flag: `)
})

// probe asks the parser the types of the command's flags in items, in
// batches; the pass records whether the answers show that the command
// parses flags. (Results are not shared between commands: flags of the
// same name, usage and default can differ in type, as kubectl's `run
// --env`, an array, and `debug --env`, a map, do.)
func (d *discoverer) probe(ctx context.Context, path []string, flags []*Flag, items []*probeItem, pass *flagPass) error {
	var ask []*probeItem
	for _, it := range items {
		if it.typ == "" {
			ask = append(ask, it)
		}
	}
	pass.flags = flags
	var required []*Flag
	for _, f := range flags {
		if f.Required {
			required = append(required, f)
		}
	}
	return d.batch(ctx, path, ask, required, pass)
}

// batch asks the parser about every item at once until each one's type is
// found; an answer that names none of them makes each half be asked apart.
func (d *discoverer) batch(ctx context.Context, path []string, items []*probeItem, required []*Flag, pass *flagPass) error {
	for {
		var pending []*probeItem
		var values []string
		args := slices.Clone(path)
		for _, it := range items {
			if v := it.next(); v != "" {
				pending = append(pending, it)
				values = append(values, v)
			}
		}
		for i, it := range pending {
			args = append(args, "--"+it.f.Name+"="+values[i])
		}
		if len(pending) == 0 {
			return nil
		}
		// The required flags are set too: while one is unset, cobra
		// lists the unset required flags only, and a flag offered again
		// could not be told.
		var requiredArgs []string
		for _, f := range required {
			if slices.ContainsFunc(pending, func(it *probeItem) bool { return it.f == f }) {
				continue // set to the value it is asked about
			}
			typ := f.Type
			if i := slices.IndexFunc(items, func(it *probeItem) bool { return it.f == f }); i >= 0 {
				typ = items[i].typ
			}
			if v, ok := pass.sample(f, typ); ok {
				requiredArgs = append(requiredArgs, "--"+f.Name+"="+v)
			}
		}
		args = append(args, requiredArgs...)
		c, _, err := d.completeOnce(ctx, append(args, "-")...)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			// A value that made the CLI fail before cobra answered
			// (kubectl opens its --kuberc file first).
			if errors.Is(err, errTimedOut) {
				return d.halves(ctx, path, pending, required, pass)
			}
			i, early, err := d.findEarly(ctx, path, pending, values, requiredArgs)
			if err != nil {
				return err
			}
			if i < 0 {
				return d.halves(ctx, path, pending, required, pass)
			}
			pending[i].early = early
			if err := d.alone(ctx, path, pending[i], pass); err != nil {
				return err
			}
			items = slices.DeleteFunc(slices.Clone(items), func(it *probeItem) bool { return it == pending[i] })
			continue
		}
		if c.refused() {
			pass.parses = true
			m := refusedFlag().FindStringSubmatch(c.errText)
			i := -1
			if m != nil {
				i = slices.IndexFunc(pending, func(it *probeItem) bool { return it.f.Name == m[1] })
			}
			if i < 0 {
				return d.halves(ctx, path, pending, required, pass) // a refusal that names none of them
			}
			pending[i].record(values[i], false, c.errText, false, false)
			continue
		}
		listed, helpListed := d.listedNames(c, pass.flags)
		for i, it := range pending {
			if helpListed && !listed[it.f.Name] {
				pass.parses = true // the flag was set: its command parsed it
			}
			it.record(values[i], true, "", listed[it.f.Name], helpListed)
		}
	}
}

// findEarly runs a batch that made the CLI fail before cobra answered
// again, its probe values marked (marked): the CLI's error names the mark
// of the value it acted on, and so the flag. It returns that flag's index
// in pending and the error's line, or -1 when the error names no single
// mark (or the marked batch did not fail alike). The marks are used only
// here: a parser may answer a marked value otherwise (a value too long).
func (d *discoverer) findEarly(ctx context.Context, path []string, pending []*probeItem, values, requiredArgs []string) (int, string, error) {
	if !slices.ContainsFunc(values, func(v string) bool { return strings.Contains(v, probeValue) }) {
		return -1, "", nil
	}
	args := slices.Clone(path)
	for i, it := range pending {
		args = append(args, "--"+it.f.Name+"="+marked(values[i], i))
	}
	args = append(args, requiredArgs...)
	_, out, err := d.completeOnce(ctx, append(args, "-")...)
	if err == nil || errors.Is(err, errTimedOut) {
		if ctx.Err() != nil {
			return -1, "", ctx.Err()
		}
		return -1, "", nil
	}
	i := markIn(out, len(pending))
	if i < 0 {
		return -1, "", nil
	}
	return i, markedLine(out, i), nil
}

// marked gives the i-th value of a batch a mark of its own when it is the
// probe value: an error that the CLI prints before cobra answers names the
// value it acted on, and so the flag.
func marked(v string, i int) string {
	return strings.Replace(v, probeValue, probeValue+"-"+strconv.Itoa(i), 1)
}

// markRe matches a mark in what a process printed.
var markRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(regexp.QuoteMeta(probeValue) + `-([0-9]+)`) })

// markIn returns the index of the one batch value whose mark the output
// names, -1 when it names none or several.
func markIn(out string, n int) int {
	found := -1
	for _, m := range markRe().FindAllStringSubmatch(out, -1) {
		i, err := strconv.Atoi(m[1])
		if err != nil || i >= n || found >= 0 && found != i {
			return -1
		}
		found = i
	}
	return found
}

// shortError is err's text, cut for a note.
func shortError(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// markedLine is the line of out that names the i-th mark, without it.
func markedLine(out string, i int) string {
	m := probeValue + "-" + strconv.Itoa(i)
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, m) {
			l = strings.TrimSpace(strings.ReplaceAll(l, m, probeValue))
			if len(l) > 160 {
				l = l[:160] + "..."
			}
			return l
		}
	}
	return ""
}

// halves asks about the two halves of items apart: the answer to them all
// at once could not be read. A single one is asked alone, without the
// required flags.
func (d *discoverer) halves(ctx context.Context, path []string, items []*probeItem, required []*Flag, pass *flagPass) error {
	if len(items) == 1 {
		return d.alone(ctx, path, items[0], pass)
	}
	h := len(items) / 2
	if err := d.batch(ctx, path, items[:h], required, pass); err != nil {
		return err
	}
	return d.batch(ctx, path, items[h:], required, pass)
}

// alone asks the parser about one flag until its type is found.
func (d *discoverer) alone(ctx context.Context, path []string, it *probeItem, pass *flagPass) error {
	for {
		v := it.next()
		if v == "" {
			return nil
		}
		c, err := d.complete(ctx, append(slices.Clone(path), "--"+it.f.Name+"="+v, "-")...)
		switch {
		case errors.Is(err, errTimedOut) && ctx.Err() == nil:
			// The flag is served as a string, and noted.
			it.typ, it.from, it.timedOut = "string", FromUnknown, err.Error()
			return nil
		case err != nil:
			if ctx.Err() != nil {
				return err
			}
			// The CLI failed before its parser answered.
			if it.early == "" {
				it.early = shortError(err)
			}
			it.record(v, false, "", false, false)
		case c.refused():
			pass.parses = true
			it.record(v, false, c.errText, false, false)
		default:
			listed, helpListed := d.listedNames(c, pass.flags)
			if helpListed && !listed[it.f.Name] {
				pass.parses = true
			}
			it.record(v, true, "", listed[it.f.Name], helpListed)
		}
	}
}

// listedNames returns the flag names a flag-name completion lists, and
// whether the listing is of every flag, not of the required flags only
// (see listedFully).
func (d *discoverer) listedNames(c *completion, flags []*Flag) (map[string]bool, bool) {
	names := map[string]bool{}
	for _, f := range flagsOf(c) {
		names[f.name] = true
	}
	return names, d.listedFully(names, flags)
}

// listedFully reports whether a flag-name completion that listed names,
// for a command whose flags are known, lists every flag that is not set,
// not the required ones only: it lists --help (cobra 1.4+), or, with a
// cobra that never lists --help, a flag that is not required.
func (d *discoverer) listedFully(names map[string]bool, flags []*Flag) bool {
	if names["help"] {
		return true
	}
	if d.listsHelp || !d.helpKnown {
		return false
	}
	for _, f := range flags {
		if names[f.Name] && !f.Required {
			return true
		}
	}
	return false
}
