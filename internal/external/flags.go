package external

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// flagPass is what one pass over a command's flags found besides the
// flags themselves: its notes and the ancestors' flags it showed to be
// persistent. They are kept apart until the command is known to parse its
// flags (a pass made on that assumption is thrown away otherwise).
type flagPass struct {
	notes      []string
	persistent []*Flag
	parses     bool    // the flag parser refused a value or took a flag: the command parses flags
	timedOut   bool    // a flag's type is unknown because the parser did not answer in time
	flags      []*Flag // the command's flags, while their types are asked
	// taken holds, by name, a value the parser took for each required
	// flag, found while listing the other flags (withRequired): the
	// questions asked with the required flags set use it.
	taken map[string]string
	// words are the help lines that this command's help prints for
	// flags it inherits (rclone's group sections): their type words,
	// which the defining command's help may not print.
	words []inheritedLine
}

// inheritedLine is a help line printed for an inherited flag.
type inheritedLine struct {
	f   *Flag // the ancestor's flag
	hf  *helpFlag
	raw string // the usage's first line as completion gives it (back quotes kept)
}

// sample is a value that flag f's parser takes: the one it took before,
// else one of its type's.
func (p *flagPass) sample(f *Flag, typ string) (string, bool) {
	if v, ok := p.taken[f.Name]; ok {
		return v, true
	}
	return sampleValue(typ)
}

func (p *flagPass) note(format string, a ...any) {
	p.notes = append(p.notes, fmt.Sprintf(format, a...))
}

// commit adds the pass's notes and persistent marks to what discovery found.
func (d *discoverer) commit(p *flagPass) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.notes = append(d.notes, p.notes...)
	d.words = append(d.words, p.words...)
	d.partial = d.partial || p.timedOut
	for _, f := range p.persistent {
		f.Persistent = true
	}
}

// flags fills in c's own flags from its flag-name completion and its help
// page; a flag its parent defines (same name, shorthand and usage) or the
// help lists under "Global Flags:" is inherited, and marked persistent where
// it is defined. It returns the flags whose types the help does not print,
// to be asked of the flag parser (types).
func (d *discoverer) flags(c *Command, path []string, page *helpPage, comp *completion, parent map[string]*Flag, listedRequired map[string]bool) (*flagPass, []*probeItem) {
	pass := &flagPass{}
	full := strings.Join(append([]string{d.name}, path...), " ")
	listed := flagsOf(comp)
	names := map[string]bool{}
	for _, f := range listed {
		names[f.name] = true
	}
	// Cobra 1.3+ lists only the required flags while one is unset: comp
	// holds them and then the others, listed with them set
	// (listedRequired), or, when they could not be set, the required ones
	// alone, and the help's flags stand for the others.
	required := map[string]bool{}
	if listedRequired != nil && !c.NoParse {
		required = listedRequired
	} else if len(listed) > 0 && d.newComp && !c.NoParse && !d.fullListing(names, page) {
		for _, f := range listed {
			required[f.name] = true
		}
		for name, hf := range page.flags {
			if !required[name] {
				listed = append(listed, &completedFlag{name: name, shorthand: hf.shorthand})
			}
		}
		if !page.sections {
			pass.note("%s: the flags that are not required could not be listed (its help shows none)", full)
		}
	}
	var probes []*probeItem
	for _, lf := range listed {
		if lf.name == "help" {
			continue // cobra's own flag, which the bridge leaves out too
		}
		if len(path) == 0 && lf.name == "version" && lf.usage == "version for "+d.name {
			d.versionFlag = true
			continue
		}
		hf := page.flags[lf.name]
		raw := lf.usage // as the CLI wrote it: completion keeps back quotes
		if hf != nil {
			hf.unwrap(raw)
			hf.unquote(raw)
			hf.restyle(raw)
			// The help has the whole usage (completion shows its first
			// line only), followed by the default.
			if u, _, _ := hf.split(helpType(hf)); u != "" || lf.usage == "" {
				lf.usage = u
			}
			if lf.shorthand == "" {
				lf.shorthand = hf.shorthand
			}
		}
		if p := parent[lf.name]; p != nil && d.inherited(page, hf, lf, p) {
			pass.persistent = append(pass.persistent, p)
			if hf != nil && hf.style == "pflag" && hf.word != "" {
				pass.words = append(pass.words, inheritedLine{p, hf, raw})
			}
			continue
		}
		f := &Flag{Name: lf.name, Shorthand: lf.shorthand, Usage: lf.usage, Required: required[lf.name], listed: lf.usage}
		c.Flags = append(c.Flags, f)
		if c.NoParse {
			f.Type, f.TypeFrom = "string", FromUnknown
			continue
		}
		if it := d.helpType(f, hf, page, raw); it != nil {
			probes = append(probes, it)
		}
	}
	return pass, probes
}

// fullListing reports whether a flag-name completion that listed names
// lists every flag of the command, not only the required ones (which cobra
// 1.3 and later list alone while one is unset). Cobra 1.4 and later list
// --help in a full listing; before 1.4 it never does (the build info
// tells which), and a listing is taken as full unless the help shows a
// flag it left out.
//
// A CLI that hides --help (docker) never lists it either: then, as before
// 1.4, the listing is full unless the help shows a flag it left out.
func (d *discoverer) fullListing(names map[string]bool, page *helpPage) bool {
	if names["help"] {
		return true
	}
	_, helpShown := page.flags["help"]
	if d.listsHelp && (helpShown || !page.sections) || !page.sections && !d.helpKnown {
		return false
	}
	for name := range page.flags {
		if name != "help" && !names[name] {
			return false
		}
	}
	return true
}

// types asks the parser the types of the flags in probes, and sets them.
func (d *discoverer) types(ctx context.Context, c *Command, path []string, pass *flagPass, probes []*probeItem) error {
	if len(probes) == 0 {
		return nil
	}
	if err := d.probe(ctx, path, c.Flags, probes, pass); err != nil {
		return err
	}
	full := strings.Join(append([]string{d.name}, path...), " ")
	for _, it := range probes {
		it.finish(pass, full)
	}
	return nil
}

// requiredGroups finds the required flags that are really a group of
// which one must be set (cobra's MarkFlagsOneRequired lists them all as
// required while none is set): setting one of them makes the others
// disappear from the list. They are then not required, and noted.
func (d *discoverer) requiredGroups(ctx context.Context, c *Command, path []string, pass *flagPass, full string) {
	required := map[string]bool{}
	for _, f := range c.Flags {
		if f.Required {
			required[f.Name] = true
		}
	}
	if len(required) < 2 {
		return
	}
	grouped := map[string]bool{}
	// Two flags share a group when setting either one takes the other
	// off the list: once every pair of f's is known from the other
	// flag's answers, f is not set.
	known := map[[2]string]bool{}
	for _, f := range c.Flags {
		if !f.Required {
			continue
		}
		if !slices.ContainsFunc(c.Flags, func(g *Flag) bool { return g.Required && g != f && !known[[2]string{g.Name, f.Name}] }) {
			continue
		}
		v, ok := pass.sample(f, f.Type)
		if !ok {
			continue
		}
		comp, err := d.complete(ctx, append(append([]string{}, path...), "--"+f.Name+"="+v, "-")...)
		if err != nil || comp.refused() {
			continue
		}
		still := map[string]bool{}
		for _, lf := range flagsOf(comp) {
			still[lf.name] = true
		}
		helpListed := d.listedFully(still, c.Flags)
		for name := range required {
			if name == f.Name {
				continue
			}
			known[[2]string{f.Name, name}] = true
			if helpListed || !still[name] {
				grouped[name], grouped[f.Name] = true, true
			}
		}
	}
	var names []string
	for _, f := range c.Flags {
		if grouped[f.Name] {
			f.Required = false
			names = append(names, "--"+f.Name)
		}
	}
	if len(names) > 0 {
		pass.note("%s: %s are not each required but one of a group is (cobra lists such groups as required): served as optional", full, strings.Join(names, ", "))
	}
}

// sampleValue is a value that a flag of the pflag type typ accepts: its
// kind's sample (flagschema.Kind.Sample), false for a custom type.
func sampleValue(typ string) (string, bool) {
	k, ok := flagschema.Lookup(typ)
	if !ok {
		return "", false
	}
	return k.Sample()
}

// inherited reports whether the flag lf listed for a command is the one
// its ancestor defines (p).
func (d *discoverer) inherited(page *helpPage, hf *helpFlag, lf *completedFlag, p *Flag) bool {
	if page.global[lf.name] {
		return true
	}
	if hf != nil && page.sections && !page.styled && (ownSection(hf.section) || p.listed != lf.usage || p.Shorthand != lf.shorthand) {
		// Listed among the command's own flags; a flag that its
		// ancestor defines, shown under another title (rclone's "Sync
		// Flags:", the global flags of the command's group), is the
		// ancestor's, learned there once.
		return false
	}
	return p.listed == lf.usage && p.Shorthand == lf.shorthand
}

// helpType finds f's type, default and optional value from pflag's help
// format when the help prints it (kubectl's quotes the defaults of strings
// only); otherwise it returns what is left to ask the flag parser.
func (d *discoverer) helpType(f *Flag, hf *helpFlag, page *helpPage, raw string) *probeItem {
	hint := ""
	if hf != nil && hf.style == "pflag" {
		word := hf.word
		typ, ok := helpKind(word)
		from := FromHelp
		if hf.boolNoOpt {
			typ, ok = "bool", true
		}
		if ok && typ == "bool" && !hf.boolNoOpt {
			// No type word: a bool, or a type whose Type() is "" (an
			// enum), which a default no bool takes tells apart
			// ("(default ReadWrite)"): the parser is asked.
			if _, def, found := hf.split(""); found && !printedDefault("bool", def) {
				ok = false
			}
		}
		repeatable := false
		if !ok {
			// A well-known custom type keeps its name.
			repeatable, ok = customWords()[word]
			typ, from = word, FromTable
		}
		if ok {
			f.Type, f.TypeFrom, f.Repeatable = typ, from, repeatable
			if _, def, ok := hf.split(typ); ok && !zeroDefault(typ, def) {
				f.Default = def
			}
			if hf.noOpt != "" && hf.noOpt != "true|false" {
				v := hf.noOpt
				if typ == "string" {
					if u, err := strconv.Unquote(v); err == nil {
						v = u
					}
				}
				if !(typ == "bool" && v == "true") {
					f.NoOptDefVal = v
				}
			}
			return nil
		}
		if _, def, ok := hf.split(""); ok {
			hint = def
		}
	}
	custom, placeholder := "", false
	if hf != nil && hf.style == "pflag" && hf.word != "" {
		// A word pflag does not print for a type of its own: the type
		// name of a custom pflag.Value, unless it is a placeholder that
		// the usage names in back quotes (pflag prints the usage without
		// them: "--json fields   Output JSON with the specified fields").
		custom = hf.word
		placeholder = isPlaceholder(hf, raw)
		if !placeholder && !strings.ContainsAny(custom, " [") {
			// The name of a custom pflag.Value: served by that name as
			// a string, as in-process, whatever values its parser
			// takes; one whose name says Slice or Array takes one
			// value an occurrence (cobra offers such a flag again once
			// set, by its type's name). No process: helm's --output
			// (format, an enum) took eleven on each command.
			f.Type, f.TypeFrom = custom, FromHelp
			f.Repeatable = strings.Contains(custom, "Slice") || strings.Contains(custom, "Array")
			if _, def, ok := hf.split(custom); ok && !zeroDefault(custom, def) {
				f.Default = def
			}
			if hf.noOpt != "" && hf.noOpt != "true|false" {
				f.NoOptDefVal = hf.noOpt
			}
			return nil
		}
	}
	guess := ""
	if hf != nil && hf.style == "assign" {
		def, quoted := hf.assignDefault()
		f.Default = def
		hint = def
		if quoted {
			// kubectl quotes the defaults of string flags only.
			f.Type, f.TypeFrom = "string", FromHelp
			return nil
		}
		if page.quotes {
			// The help quotes the defaults of strings, so this flag's
			// type is not "string": guess it from its default, to be
			// confirmed by the parser.
			guess = guessType(def)
		}
	}
	it := &probeItem{f: f, hint: hint, list: strings.HasPrefix(hint, "[") && strings.HasSuffix(hint, "]"), guess: guess,
		answers: map[string]bool{}, hf: hf, custom: custom, placeholder: placeholder}
	if it.list {
		it.guess = "stringArray"
	}
	if !d.newComp {
		it.typ, it.from, it.guess = "string", FromUnknown, ""
		it.noParse = true
	}
	return it
}

// isPlaceholder reports whether the word of a pflag-style help line is a
// placeholder that the usage names in back quotes rather than the flag's
// type name. Completion gives the first line of the usage as the CLI wrote
// it, back quotes kept: a pair of them there decides ("Select another
// repository using the `[HOST/]OWNER/REPO` format"; crane's "Specifies
// the platform in the form..." has none, and its word "platform" is the
// type's name). Beyond the first line, the help's text is all there is:
// the word among its words is taken for a placeholder.
func isPlaceholder(hf *helpFlag, raw string) bool {
	if i := strings.Index(raw, "`"); i >= 0 && strings.Contains(raw[i+1:], "`") {
		return strings.Contains(raw, "`"+hf.word+"`")
	}
	if strings.Contains(hf.word, " ") {
		// No type's name has a space: the usage's words in back
		// quotes, which pflag leaves in the usage's text.
		return strings.Contains(strings.Join(hf.text, "\n"), hf.word)
	}
	if len(hf.text) < 2 {
		return raw == "" && slices.Contains(usageWords(strings.Join(hf.text, " ")), hf.word)
	}
	return slices.Contains(usageWords(strings.Join(hf.text[1:], " ")), hf.word)
}

// usageWords splits a usage into the words a placeholder can be.
func usageWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '/' || r == '[' || r == ']' || r == '.' || r == '<' || r == '>' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

// finish sets the type that the parser's answers gave, and the default.
func (it *probeItem) finish(pass *flagPass, full string) {
	f := it.f
	f.Type, f.TypeFrom = it.typ, it.from
	if it.custom != "" && !it.placeholder {
		k, known := flagschema.Lookup(f.Type) // the answers' type: pflag's own, or "string"
		switch {
		case known && k.IsList() && !k.IsMap():
			// Offered again once set: it takes many values (cobra
			// offers again a type whose name says Slice or Array:
			// helm's postRendererArgsSlice).
			f.Type, f.TypeFrom, f.Repeatable = it.custom, FromHelp, true
		default:
			// The word is the type's name (helm's WaitStrategy, which
			// takes "true" too, is no bool; a size that takes 1.5 and
			// 4Mi, no number; a map of the CLI's own, mapStringString
			// or crane's keyToValue, which speaks pflag's words for a
			// map; a type that refused every probe value, an enum): a
			// value that passed proves nothing of the values the type
			// takes. Served by that name as a string, as in-process.
			f.Type, f.TypeFrom = it.custom, FromHelp
		}
	}
	if f.TypeFrom == FromUnknown {
		switch {
		case it.timedOut != "":
			pass.timedOut = true
			pass.note("%s --%s: type unknown (%s): served as a string", full, f.Name, it.timedOut)
		case it.early != "":
			pass.note("%s --%s: type unknown (the CLI acts on the value before its flag parser answers, and refused every probe value: %q): served as a string", full, f.Name, it.early)
		case it.noParse:
			pass.note("%s --%s: type unknown (its help prints none and this cobra's completion does not parse flags): served as a string", full, f.Name)
		default:
			pass.note("%s --%s: type unknown (the parser refused every probe value): served as a string", full, f.Name)
		}
	}
	if it.hf != nil && (it.hf.style == "pflag" || it.hf.style == "styled") {
		// The usage and default, read again for the type found: a
		// string's default is quoted, so "(default [main branch])" on
		// a string is its usage's own words. A value whose Type() is ""
		// (no type word, no bool: an enum) has its default printed
		// unquoted: either form is taken.
		typ := f.Type
		if it.hf.style == "pflag" && it.hf.word == "" && !it.hf.boolNoOpt && typ != "bool" {
			typ = ""
		}
		u, def, ok := it.hf.split(typ)
		if u != "" {
			f.Usage = u
		}
		f.Default = ""
		if ok && !zeroDefault(f.Type, def) {
			f.Default = def
		}
		if it.hf.noOpt != "" && it.hf.noOpt != "true|false" && f.Type != "bool" {
			f.NoOptDefVal = it.hf.noOpt
			if f.Type == "string" {
				if u, err := strconv.Unquote(f.NoOptDefVal); err == nil {
					f.NoOptDefVal = u
				}
			}
		}
		return
	}
	if f.Default == "" && it.hint != "" {
		f.Default = it.hint
	}
	if f.Type == "string" && f.TypeFrom == FromUnknown {
		return
	}
	if f.Default != "" && zeroDefault(f.Type, f.Default) {
		f.Default = ""
	}
}

// classify finds a pflag type from which values the parser accepts; list
// says the default looks like a list or map ("[...]"). It returns "" when
// no built-in type fits.
func classify(accepts func(string) bool, list bool) string {
	if list {
		switch {
		case accepts(probeValue):
			if accepts(`"` + probeValue) { // csv refuses a stray quote
				return "stringArray"
			}
			return "stringSlice"
		case accepts("k=v"):
			return "stringToString"
		case accepts("k=1"):
			return "stringToInt"
		case accepts("true"):
			return "boolSlice"
		case accepts("-1"):
			if accepts("1.5") {
				return "float64Slice"
			}
			return "intSlice"
		case accepts("1"):
			return "uintSlice"
		case accepts("1s"):
			return "durationSlice"
		case accepts("127.0.0.1"):
			return "ipSlice"
		}
		return ""
	}
	switch {
	case accepts(probeValue):
		return "string"
	case accepts("true"):
		return "bool"
	case accepts("-1"):
		if accepts("1.5") {
			return "float64"
		}
		return "int"
	case accepts("1"):
		return "uint"
	case accepts("1s"):
		return "duration"
	case accepts("127.0.0.1"):
		return "ip"
	case accepts("10.0.0.0/8"):
		return "ipNet"
	case accepts("k=v"):
		return "stringToString"
	}
	return ""
}

// helpType is the pflag type a help line names, "" when it names none
// known (or is not in pflag's format).
func helpType(hf *helpFlag) string {
	if hf.style != "pflag" {
		return ""
	}
	if hf.boolNoOpt {
		return "bool"
	}
	if t, ok := helpKind(hf.word); ok {
		return t
	}
	if _, ok := customWords()[hf.word]; ok {
		return hf.word
	}
	return ""
}

// parserReasons map what pflag's Set says when it refuses a value (the
// words of pflag 1.1 and the strconv/time errors of earlier versions) to
// the scalar type that says it.
var parserReasons = []struct{ text, typ string }{
	{"must be a non-negative integer", "uint"},
	{"strconv.ParseUint", "uint"},
	{"must be an integer", "int"},
	{"strconv.ParseInt", "int"},
	{"strconv.Atoi", "int"},
	{"must be a number", "float64"},
	{"strconv.ParseFloat", "float64"},
	{"must be true or false", "bool"},
	{"strconv.ParseBool", "bool"},
	{"must be a duration", "duration"},
	{"time: invalid duration", "duration"},
	{"invalid string being converted to IPNet", "ipNet"},
	{"invalid CIDR address", "ipNet"},
	{"failed to parse IP", "ip"},
	{"invalid string being converted to IP address", "ip"},
	{"must be formatted as key=value", "stringToString"},
	// Kubernetes' component-base flag types (kubectl's --aggregation-rule).
	{"malformed pair, expect string=string", "stringToString"},
}

// fromMessage returns the type that the parser's reason for refusing a
// value names ("" when it names none known); list selects the slice type
// of a scalar.
func fromMessage(msg string, list bool) string {
	if msg == "" {
		return ""
	}
	for _, r := range parserReasons {
		if !strings.Contains(msg, r.text) {
			continue
		}
		if !list {
			return r.typ
		}
		if k, ok := flagschema.Lookup(r.typ); ok && k.IsMap() {
			return r.typ // a map's default looks like a list too
		}
		if k, ok := flagschema.ListOf(r.typ); ok {
			return k.Name()
		}
		return ""
	}
	return ""
}

// requiredValues are the values tried, in turn, for a required flag whose
// type is not known yet, to list the other flags with it set.
var requiredValues = []string{probeValue, "true", "1", "1.5", "1s", "127.0.0.1", "10.0.0.0/8", "k=v", "k=1", "2006-01-02T15:04:05Z"}

// withRequired lists the flags of the command at path with the required
// flags (listed, cobra's listing while they are unset) set, each to a
// value its parser takes: cobra then lists every other flag. The value of
// a flag the parser refuses is replaced by a value its refusal offers
// (offeredValues: "valid values are {TEXT|DATE}"), else by the next of
// requiredValues (the help's type's first). It returns nil when no values
// were found, and otherwise the values taken, by flag name.
func (d *discoverer) withRequired(ctx context.Context, path []string, listed []*completedFlag, page *helpPage) (*completion, map[string]string, error) {
	values := make([][]string, len(listed))
	at := make([]int, len(listed))
	for i, f := range listed {
		if hf := page.flags[f.name]; hf != nil {
			if v, ok := sampleValue(helpType(hf)); ok {
				values[i] = append(values[i], v)
			}
		}
		for _, v := range requiredValues {
			if !slices.Contains(values[i], v) {
				values[i] = append(values[i], v)
			}
		}
	}
	for range 3 * len(requiredValues) {
		args := slices.Clone(path)
		for i, f := range listed {
			args = append(args, "--"+f.name+"="+values[i][at[i]])
		}
		c, err := d.complete(ctx, append(args, "-")...)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, err
			}
			// The CLI acted on a value before cobra answered (kubectl's
			// --kuberc), or the command parses its own flags: the
			// listing stays as it was.
			return nil, nil, nil
		}
		if !c.refused() {
			taken := make(map[string]string, len(listed))
			for i, f := range listed {
				taken[f.name] = values[i][at[i]]
			}
			return c, taken, nil
		}
		m := refusedFlag().FindStringSubmatch(c.errText)
		if m == nil {
			return nil, nil, nil
		}
		i := slices.IndexFunc(listed, func(f *completedFlag) bool { return f.name == m[1] })
		if i < 0 {
			return nil, nil, nil
		}
		// The values the refusal offers come next, once each.
		var offered []string
		for _, v := range offeredValues(c.errText) {
			if !slices.Contains(values[i][:at[i]+1], v) && !slices.Contains(offered, v) {
				offered = append(offered, v)
			}
		}
		if len(offered) > 0 {
			rest := slices.DeleteFunc(slices.Clone(values[i][at[i]+1:]), func(v string) bool { return slices.Contains(offered, v) })
			values[i] = append(append(values[i][:at[i]+1:at[i]+1], offered...), rest...)
		}
		if at[i]+1 >= len(values[i]) {
			return nil, nil, nil
		}
		at[i]++
	}
	return nil, nil, nil
}

// maxOffered bounds the length of a value taken from a refusal: a CLI's
// message is no place for longer ones.
const maxOffered = 256

// offeredRe matches a list of values in braces, brackets or parentheses.
var offeredRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[{\[(]([^{}\[\]()]+)[}\])]`) })

// offeredValues returns the values that a parser's refusal offers, at
// most two: the first list of two or more words in braces, brackets or
// parentheses after pflag's `for "--name" flag: ` ("valid values are
// {TEXT|SINGLE_SELECT|DATE}", "must be one of [json, yaml]"), each at most
// maxOffered bytes. They are only tried: the parser decides.
func offeredValues(why string) []string {
	_, reason, ok := strings.Cut(why, " flag: ")
	if !ok {
		return nil
	}
	for _, m := range offeredRe().FindAllStringSubmatch(reason, -1) {
		words := strings.FieldsFunc(m[1], func(r rune) bool {
			return r == '|' || r == ',' || r == '"' || r == '\'' || unicode.IsSpace(r)
		})
		if len(words) >= 2 && len(words[0]) <= maxOffered && len(words[1]) <= maxOffered {
			return words[:2]
		}
	}
	return nil
}
