package dialect

import (
	"slices"
	"strings"
)

// Presence constraints are the keywords of an object schema that only
// say which of its properties are present: cobra's flag groups as the
// bridge writes them (not/anyOf of required pairs for "mutually
// exclusive", anyOf of required singles for "one required",
// dependentRequired for "required together", allOf of those). A dialect
// without these keywords loses nothing when it states them in words in
// the object's description instead, and reports that as [Restated]
// rather than as a loss.

// presenceKeywords are the keywords restate may state in words.
var presenceKeywords = []string{"not", "anyOf", "oneOf", "allOf", "dependentRequired"}

// restate returns the sentences that state keyword k, with value v, of an
// object schema, naming every property; ok is false when the keyword says
// anything besides which properties are present, or has a shape restate
// does not know.
func restate(k string, v any) (sentences []string, ok bool) {
	switch k {
	case "not":
		if names, ok := requiredOnly(v); ok {
			return []string{notAll(names)}, true
		}
		o, ok := v.(*object)
		if !ok || len(o.keys) != 1 || !o.has("anyOf") {
			return nil, false
		}
		sets, ok := requiredSets(o.m["anyOf"])
		if !ok {
			return nil, false
		}
		// not (A or B) is (not A) and (not B).
		if g := pairGroup(sets); g != nil {
			return []string{"At most one of " + oneOfList(g) + " may be set."}, true
		}
		for _, s := range sets {
			sentences = append(sentences, notAll(s))
		}
		return sentences, true
	case "anyOf", "oneOf":
		sets, ok := requiredSets(v)
		if !ok || k == "oneOf" && !distinctSets(sets) {
			// Two equal branches of a oneOf pass or fail together, which
			// "exactly one of" does not say.
			return nil, false
		}
		if len(sets) == 1 {
			return []string{mustAll(sets[0])}, true
		}
		quant := "At least one"
		if k == "oneOf" {
			quant = "Exactly one"
		}
		if singles(sets) {
			var names []string
			for _, s := range sets {
				names = append(names, s[0])
			}
			return []string{quant + " of " + oneOfList(names) + " must be set."}, true
		}
		var alts []string
		for _, s := range sets {
			verb := " are set"
			if len(s) == 1 {
				verb = " is set"
			}
			alts = append(alts, andList(s)+verb)
		}
		return []string{quant + " of these must hold: " + strings.Join(alts, "; ") + "."}, true
	case "allOf":
		branches, ok := v.([]any)
		if !ok || len(branches) == 0 {
			return nil, false
		}
		for _, b := range branches {
			bo, ok := b.(*object)
			if !ok || len(bo.keys) == 0 {
				return nil, false
			}
			for _, bk := range bo.keys {
				if bk == "required" {
					names, ok := names(bo.m[bk])
					if !ok {
						return nil, false
					}
					sentences = append(sentences, mustAll(names))
					continue
				}
				if !slices.Contains(presenceKeywords, bk) {
					return nil, false
				}
				s, ok := restate(bk, bo.m[bk])
				if !ok {
					return nil, false
				}
				sentences = append(sentences, s...)
			}
		}
		return sentences, true
	case "dependentRequired":
		return dependentSentences(v)
	}
	return nil, false
}

// dependentSentences states a dependentRequired object. Properties that
// each require all the others are one "all or none" group.
func dependentSentences(v any) ([]string, bool) {
	o, ok := v.(*object)
	if !ok {
		return nil, false
	}
	deps := map[string][]string{}
	for _, n := range o.keys {
		l, ok := o.m[n].([]any)
		if !ok {
			return nil, false
		}
		var names []string
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			names = append(names, s)
		}
		deps[n] = names
	}
	var sentences []string
	done := map[string]bool{}
	for _, n := range o.keys {
		if done[n] || len(deps[n]) == 0 {
			continue
		}
		group := append([]string{n}, deps[n]...)
		if closedGroup(group, deps) {
			for _, m := range group {
				done[m] = true
			}
			sentences = append(sentences, "Either all or none of "+oneOfList(group)+" may be set.")
			continue
		}
		sentences = append(sentences, "If "+jsonText(n)+" is set, "+andList(deps[n])+" must be set too.")
	}
	return sentences, true
}

// closedGroup reports whether every member of group requires exactly the
// other members, and nothing else: then "all or none" is exact.
func closedGroup(group []string, deps map[string][]string) bool {
	for _, m := range group {
		others := slices.DeleteFunc(slices.Clone(group), func(x string) bool { return x == m })
		got := slices.Clone(deps[m])
		slices.Sort(others)
		slices.Sort(got)
		if !slices.Equal(slices.Compact(got), slices.Compact(others)) {
			return false
		}
	}
	return true
}

// requiredOnly returns the names of a schema {"required": [...]} with no
// other keyword.
func requiredOnly(v any) ([]string, bool) {
	o, ok := v.(*object)
	if !ok || len(o.keys) != 1 || !o.has("required") {
		return nil, false
	}
	return names(o.m["required"])
}

// requiredSets returns the name lists of a list of {"required": [...]}
// schemas.
func requiredSets(v any) ([][]string, bool) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil, false
	}
	var sets [][]string
	for _, b := range l {
		n, ok := requiredOnly(b)
		if !ok {
			return nil, false
		}
		sets = append(sets, n)
	}
	return sets, true
}

// names returns a non-empty list of distinct strings.
func names(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil, false
	}
	var out []string
	for _, x := range l {
		s, ok := x.(string)
		if !ok || slices.Contains(out, s) {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// distinctSets reports whether no two of sets hold the same names.
func distinctSets(sets [][]string) bool {
	seen := map[string]bool{}
	for _, s := range sets {
		key := strings.Join(slices.Sorted(slices.Values(s)), "\x00")
		if seen[key] {
			return false
		}
		seen[key] = true
	}
	return true
}

func singles(sets [][]string) bool {
	for _, s := range sets {
		if len(s) != 1 {
			return false
		}
	}
	return true
}

// pairGroup returns G when sets are exactly the pairs of G, each once (so
// that "none of these pairs both set" is "at most one of G"), in the
// order the names first appear; else nil.
func pairGroup(sets [][]string) []string {
	var g []string
	for _, s := range sets {
		if len(s) != 2 {
			return nil
		}
		for _, n := range s {
			if !slices.Contains(g, n) {
				g = append(g, n)
			}
		}
	}
	if len(g) < 2 || len(sets) != len(g)*(len(g)-1)/2 {
		return nil
	}
	seen := map[[2]string]bool{}
	for _, s := range sets {
		a, b := s[0], s[1]
		if a > b {
			a, b = b, a
		}
		if seen[[2]string{a, b}] {
			return nil
		}
		seen[[2]string{a, b}] = true
	}
	return g
}

// mustAll says that every name is set.
func mustAll(names []string) string {
	return andList(names) + " must be set."
}

// notAll says that the names are not all set.
func notAll(names []string) string {
	switch len(names) {
	case 1:
		return jsonText(names[0]) + " must not be set."
	case 2:
		return andList(names) + " cannot both be set."
	}
	return andList(names) + " cannot all be set."
}

// andList quotes names as JSON strings: "a", "a" and "b", "a", "b" and "c".
func andList(names []string) string {
	q := quoted(names)
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// oneOfList quotes names as JSON strings, separated by commas.
func oneOfList(names []string) string { return strings.Join(quoted(names), ", ") }

func quoted(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = jsonText(n)
	}
	return q
}
