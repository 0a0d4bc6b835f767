package external

import (
	"context"
	"strconv"
	"strings"
)

// flags fills in c's own flags from its flag-name completion and its help
// page; a flag its parent defines (same name, shorthand and usage) or the
// help lists under "Global Flags:" is inherited, and marked persistent where
// it is defined.
func (d *discoverer) flags(ctx context.Context, c *Command, path []string, page *helpPage, comp *completion, parent map[string]*Flag) {
	full := strings.Join(append([]string{d.name}, path...), " ")
	listed := flagsOf(comp)
	hasHelp := false
	for _, f := range listed {
		if f.name == "help" {
			hasHelp = true
		}
	}
	// Cobra 1.3+ lists only the required flags while one is unset.
	required := map[string]bool{}
	if !hasHelp && len(listed) > 0 && d.newComp && !c.NoParse {
		for _, f := range listed {
			required[f.name] = true
		}
		for name, hf := range page.flags {
			if !required[name] {
				listed = append(listed, &completedFlag{name: name, shorthand: hf.shorthand})
			}
		}
		if !page.sections {
			d.note("%s: the flags that are not required could not be listed (its help shows none)", full)
		}
	}
	for _, lf := range listed {
		if lf.name == "help" {
			continue // cobra's own flag, which the bridge leaves out too
		}
		if len(path) == 0 && lf.name == "version" && lf.usage == "version for "+d.name {
			d.versionFlag = true
			continue
		}
		hf := page.flags[lf.name]
		if hf != nil {
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
			d.mu.Lock()
			p.Persistent = true
			d.mu.Unlock()
			continue
		}
		f := &Flag{Name: lf.name, Shorthand: lf.shorthand, Usage: lf.usage, Required: required[lf.name]}
		if c.NoParse {
			f.Type, f.TypeFrom = "string", FromUnknown
		} else {
			d.flagType(ctx, f, path, hf, lf, full)
		}
		c.Flags = append(c.Flags, f)
	}
	d.requiredGroups(ctx, c, path, required, full)
}

// requiredGroups finds the required flags that are really a group of
// which one must be set (cobra's MarkFlagsOneRequired lists them all as
// required while none is set): setting one of them makes the others
// disappear from the list. They are then not required, and noted.
func (d *discoverer) requiredGroups(ctx context.Context, c *Command, path []string, required map[string]bool, full string) {
	if len(required) < 2 {
		return
	}
	grouped := map[string]bool{}
	for _, f := range c.Flags {
		if !f.Required {
			continue
		}
		v, ok := sampleValue(f.Type)
		if !ok {
			continue
		}
		comp, err := d.complete(ctx, append(append([]string{}, path...), "--"+f.Name+"="+v, "-")...)
		if err != nil || comp.refused() {
			continue
		}
		still := map[string]bool{}
		helpListed := false
		for _, lf := range flagsOf(comp) {
			still[lf.name] = true
			helpListed = helpListed || lf.name == "help"
		}
		for name := range required {
			if name != f.Name && (helpListed || !still[name]) {
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
		d.note("%s: %s are not each required but one of a group is (cobra lists such groups as required): served as optional", full, strings.Join(names, ", "))
	}
}

// sampleValue is a value that a flag of the pflag type typ accepts.
func sampleValue(typ string) (string, bool) {
	switch typ {
	case "string", "stringSlice", "stringArray", "time":
		if typ == "time" {
			return "2006-01-02T15:04:05Z", true
		}
		return probeValue, true
	case "bool", "boolSlice":
		return "true", true
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count",
		"float32", "float64", "intSlice", "int32Slice", "int64Slice", "uintSlice", "float32Slice", "float64Slice":
		return "1", true
	case "duration", "durationSlice":
		return "1s", true
	case "ip", "ipSlice":
		return "127.0.0.1", true
	case "ipNet", "ipNetSlice":
		return "10.0.0.0/8", true
	case "stringToString":
		return "k=v", true
	case "stringToInt", "stringToInt64":
		return "k=1", true
	}
	return "", false
}

// inherited reports whether the flag lf listed for a command is the one
// its ancestor defines (p).
func (d *discoverer) inherited(page *helpPage, hf *helpFlag, lf *completedFlag, p *Flag) bool {
	if page.global[lf.name] {
		return true
	}
	if hf != nil && page.sections {
		return false // listed among the command's own flags
	}
	return p.Usage == lf.usage && p.Shorthand == lf.shorthand
}

// flagType finds f's type, default and optional value: from pflag's help
// format when the help prints it, else from the flag parser's answers to
// probe values; a type that stays unknown is "string", with a note.
func (d *discoverer) flagType(ctx context.Context, f *Flag, path []string, hf *helpFlag, lf *completedFlag, full string) {
	hint := ""
	if hf != nil && hf.style == "pflag" {
		word := hf.word
		typ, ok := helpWords[word]
		from := FromHelp
		if hf.boolNoOpt {
			typ, ok = "bool", true
		}
		if !ok {
			typ, ok = TypeTable[word]
			from = FromTable
		}
		if ok {
			f.Type, f.TypeFrom = typ, from
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
			return
		}
		if _, def, ok := hf.split(""); ok {
			hint = def
		}
	}
	if hf != nil && hf.style == "assign" {
		def, quoted := hf.assignDefault()
		f.Default = def
		hint = def
		if quoted {
			// kubectl quotes the defaults of string flags only.
			f.Type, f.TypeFrom = "string", FromHelp
			return
		}
	}
	f.Type, f.TypeFrom = d.probeType(ctx, path, f, hint, full)
	if f.Default == "" && hint != "" {
		f.Default = hint
	}
	if f.Type == "string" && f.TypeFrom == FromUnknown {
		return
	}
	if f.Default != "" && zeroDefault(f.Type, f.Default) {
		f.Default = ""
	}
}

// probeType asks the flag parser, through `__complete PATH --name=VALUE -`
// (which parses flags but runs no command and calls no completion
// function), which values it takes; results are shared by flags of the
// same name, usage and default.
func (d *discoverer) probeType(ctx context.Context, path []string, f *Flag, hint, full string) (string, string) {
	if !d.newComp {
		d.note("%s --%s: type unknown (its help prints none and this cobra's completion does not parse flags): served as a string", full, f.Name)
		return "string", FromUnknown
	}
	key := f.Name + "\x00" + f.Usage + "\x00" + hint
	d.mu.Lock()
	if d.typed == nil {
		d.typed = map[string]*probeResult{}
	}
	r := d.typed[key]
	if r == nil {
		r = &probeResult{}
		d.typed[key] = r
	}
	d.mu.Unlock()
	r.once.Do(func() {
		answers := map[string]bool{}
		var first string // the parser's reason for refusing probeValue
		again := false   // the flag is offered again once set: it takes many values
		accepts := func(v string) bool {
			if ok, seen := answers[v]; seen {
				return ok
			}
			c, err := d.complete(ctx, append(append([]string{}, path...), "--"+f.Name+"="+v, "-")...)
			ok := err == nil && !c.refused()
			answers[v] = ok
			if v == probeValue && c != nil {
				first = c.errText
				for _, lf := range flagsOf(c) {
					again = again || ok && lf.name == f.Name
				}
			}
			return ok
		}
		list := strings.HasPrefix(hint, "[") && strings.HasSuffix(hint, "]")
		if accepts(probeValue) && again {
			// Cobra offers a set flag again only when it takes many
			// values (a slice, an array or a map).
			list = true
		}
		if !accepts(probeValue) {
			// pflag's reason names the type: one process instead of a
			// sequence of probes.
			if typ := fromMessage(first, list); typ != "" {
				if typ == "stringToString" && !accepts("k=v") {
					typ = "stringToInt"
				}
				r.typ, r.from = typ, FromProbe
				return
			}
		}
		r.typ = classify(accepts, list)
		r.from = FromProbe
		if r.typ == "" {
			r.typ, r.from = "string", FromUnknown
		}
	})
	if r.from == FromUnknown {
		d.note("%s --%s: type unknown (the parser refused every probe value): served as a string", full, f.Name)
	}
	return r.typ, r.from
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
	if t, ok := helpWords[hf.word]; ok {
		return t
	}
	return TypeTable[hf.word]
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
		if r.typ == "stringToString" || !list {
			return r.typ
		}
		switch r.typ {
		case "int":
			return "intSlice"
		case "uint":
			return "uintSlice"
		case "float64":
			return "float64Slice"
		case "bool":
			return "boolSlice"
		case "duration":
			return "durationSlice"
		case "ip":
			return "ipSlice"
		case "ipNet":
			return "ipNetSlice"
		}
		return ""
	}
	return ""
}
