package toolset

import (
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// Cobra's flag groups (mutually exclusive, required together, one
// required) expressed in the flags schema and the description.

// flagGroups returns cobra's flag groups of one kind among fs's flags,
// each restricted to the served flags, in a stable order.
func flagGroups(fs *pflag.FlagSet, annotation string) [][]string {
	seen := map[string]bool{}
	var groups [][]string
	fs.VisitAll(func(f *pflag.Flag) {
		for _, g := range f.Annotations[annotation] {
			if seen[g] {
				continue
			}
			seen[g] = true
			var names []string
			for _, n := range strings.Fields(g) {
				if fs.Lookup(n) != nil {
					names = append(names, n)
				}
			}
			if len(names) > 0 {
				groups = append(groups, names)
			}
		}
	})
	return groups
}

// Cobra's flag group annotations (flag_groups.go).
const (
	annRequiredTogether  = "cobra_annotation_required_if_others_set"
	annOneRequired       = "cobra_annotation_one_required"
	annMutuallyExclusive = "cobra_annotation_mutually_exclusive"
)

// addFlagGroups expresses cobra's flag groups in the flags schema and
// returns the sentences that state them in the description.
func addFlagGroups(s *jsonschema.Schema, fs *pflag.FlagSet) []string {
	var all []*jsonschema.Schema
	for _, g := range flagGroups(fs, annMutuallyExclusive) {
		if len(g) < 2 {
			continue
		}
		var pairs []*jsonschema.Schema
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				pairs = append(pairs, &jsonschema.Schema{Required: []string{g[i], g[j]}})
			}
		}
		all = append(all, &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: pairs}})
	}
	for _, g := range flagGroups(fs, annRequiredTogether) {
		if len(g) < 2 {
			continue
		}
		if s.DependentRequired == nil {
			s.DependentRequired = map[string][]string{}
		}
		for _, n := range g {
			var others []string
			for _, m := range g {
				if m != n {
					others = append(others, m)
				}
			}
			s.DependentRequired[n] = appendUnique(s.DependentRequired[n], others...)
		}
	}
	for _, g := range flagGroups(fs, annOneRequired) {
		var alts []*jsonschema.Schema
		for _, n := range g {
			alts = append(alts, &jsonschema.Schema{Required: []string{n}})
		}
		all = append(all, &jsonschema.Schema{AnyOf: alts})
	}
	if len(all) == 1 {
		if all[0].Not != nil {
			s.Not = all[0].Not
		} else {
			s.AnyOf = all[0].AnyOf
		}
	} else if len(all) > 1 {
		s.AllOf = all
	}
	return groupText(fs, nil)
}

// groupText returns the sentences that state cobra's flag groups among
// fs's flags for a model that cannot set the pinned flags, which every
// call sets: a mutually exclusive group with a pinned flag forbids the
// others, a required-together group with a pinned flag requires the
// others, and a one-required group with a pinned flag is met. A pinned
// flag is named only as the server's.
func groupText(fs *pflag.FlagSet, pinned []string) []string {
	var text []string
	split := func(g []string) (set, rest []string) {
		for _, n := range g {
			if slices.Contains(pinned, n) {
				set = append(set, n)
			} else {
				rest = append(rest, n)
			}
		}
		return set, rest
	}
	for _, g := range flagGroups(fs, annMutuallyExclusive) {
		set, rest := split(g)
		switch {
		case len(g) < 2 || len(rest) == 0:
		case len(set) == 0:
			text = append(text, "At most one of "+flagList(g)+" may be set.")
		default:
			text = append(text, flagsWord(rest)+" may not be set ("+flagList(set)+" "+isAre(set)+" set by the server).")
		}
	}
	for _, g := range flagGroups(fs, annRequiredTogether) {
		set, rest := split(g)
		switch {
		case len(g) < 2 || len(rest) == 0:
		case len(set) == 0:
			text = append(text, "Flags "+flagList(g)+" must be set together.")
		default:
			text = append(text, flagsWord(rest)+" must be set (required together with "+flagList(set)+", which the server sets).")
		}
	}
	for _, g := range flagGroups(fs, annOneRequired) {
		if set, _ := split(g); len(set) == 0 {
			text = append(text, "At least one of "+flagList(g)+" must be set.")
		}
	}
	return text
}

// flagsWord is "Flag --a" or "Flags --a, --b".
func flagsWord(names []string) string {
	if len(names) == 1 {
		return "Flag " + flagList(names)
	}
	return "Flags " + flagList(names)
}

func isAre(names []string) string {
	if len(names) == 1 {
		return "is"
	}
	return "are"
}

func appendUnique(list []string, xs ...string) []string {
	for _, x := range xs {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

func flagList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "--" + n
	}
	return strings.Join(q, ", ")
}

// pinnedGroups returns the flag groups of the flags schema s (as
// addFlagGroups writes them) rewritten for the pinned flags, which every
// call sets but the listed schema leaves out: a one-required group with a
// pinned flag goes, a mutually exclusive group with a pinned flag forbids
// the others, and a required-together group with a pinned flag requires
// the others. s itself is not changed.
func pinnedGroups(s *jsonschema.Schema, pinned []string) *jsonschema.Schema {
	out := *s
	rest := func(names []string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(pinned, n) })
	}
	// group returns the group g for the pins, or nil when they satisfy it.
	group := func(g *jsonschema.Schema) *jsonschema.Schema {
		switch {
		case g.Not != nil: // mutually exclusive: pairs that may not both be set
			var pairs []*jsonschema.Schema
			changed := false
			for _, p := range g.Not.AnyOf {
				r := rest(p.Required)
				changed = changed || len(r) != len(p.Required)
				pairs = append(pairs, &jsonschema.Schema{Required: r})
			}
			if !changed {
				return g
			}
			return &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: pairs}}
		case g.AnyOf != nil: // one required
			for _, a := range g.AnyOf {
				if len(rest(a.Required)) == 0 {
					return nil
				}
			}
		}
		return g
	}
	var groups []*jsonschema.Schema
	switch {
	case s.Not != nil:
		groups = []*jsonschema.Schema{{Not: s.Not}}
	case s.AnyOf != nil:
		groups = []*jsonschema.Schema{{AnyOf: s.AnyOf}}
	default:
		groups = s.AllOf
	}
	out.Not, out.AnyOf, out.AllOf = nil, nil, nil
	var kept []*jsonschema.Schema
	for _, g := range groups {
		if g = group(g); g != nil {
			kept = append(kept, g)
		}
	}
	switch {
	case len(kept) == 1 && kept[0].Not != nil:
		out.Not = kept[0].Not
	case len(kept) == 1:
		out.AnyOf = kept[0].AnyOf
	case len(kept) > 1:
		out.AllOf = kept
	}
	if s.DependentRequired != nil {
		out.DependentRequired = map[string][]string{}
		for n, deps := range s.DependentRequired {
			if slices.Contains(pinned, n) {
				out.Required = appendUnique(slices.Clone(out.Required), rest(deps)...)
			} else if r := rest(deps); len(r) > 0 {
				out.DependentRequired[n] = r
			}
		}
		if len(out.DependentRequired) == 0 {
			out.DependentRequired = nil
		}
	}
	return &out
}
