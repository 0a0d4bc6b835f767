package mycli

import (
	"fmt"
	"strings"
)

// requirement is one term of a label or field selector.
type requirement struct {
	key, op, value string // op is "=", "!=", "exists" or "!exists"
}

// parseSelector parses a kubectl-style equality selector: "k=v,k==v,k!=v,k,!k".
func parseSelector(s string) ([]requirement, error) {
	var reqs []requirement
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, term := range strings.Split(s, ",") {
		term = strings.TrimSpace(term)
		var r requirement
		switch {
		case strings.Contains(term, "!="):
			k, v, _ := strings.Cut(term, "!=")
			r = requirement{key: k, op: "!=", value: v}
		case strings.Contains(term, "=="):
			k, v, _ := strings.Cut(term, "==")
			r = requirement{key: k, op: "=", value: v}
		case strings.Contains(term, "="):
			k, v, _ := strings.Cut(term, "=")
			r = requirement{key: k, op: "=", value: v}
		case strings.HasPrefix(term, "!"):
			r = requirement{key: term[1:], op: "!exists"}
		default:
			r = requirement{key: term, op: "exists"}
		}
		r.key = strings.TrimSpace(r.key)
		r.value = strings.TrimSpace(r.value)
		if r.key == "" {
			return nil, fmt.Errorf("invalid selector %q: empty key in %q", s, term)
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// matches reports whether labels satisfy every requirement.
func matches(reqs []requirement, labels map[string]string) bool {
	for _, r := range reqs {
		v, ok := labels[r.key]
		switch r.op {
		case "=":
			if !ok || v != r.value {
				return false
			}
		case "!=":
			if ok && v == r.value {
				return false
			}
		case "exists":
			if !ok {
				return false
			}
		case "!exists":
			if ok {
				return false
			}
		}
	}
	return true
}

// podFields are the fields a --field-selector may name, and their values for p.
func podFields(p Pod) map[string]string {
	return map[string]string{
		"metadata.name":      p.Name,
		"metadata.namespace": p.Namespace,
		"status.phase":       p.Status,
		"spec.nodeName":      p.Node,
	}
}

// parseFieldSelector parses a field selector for pods: only = and != on known fields.
func parseFieldSelector(s string) ([]requirement, error) {
	reqs, err := parseSelector(s)
	if err != nil {
		return nil, fmt.Errorf("field selector: %w", err)
	}
	known := podFields(Pod{})
	for _, r := range reqs {
		if _, ok := known[r.key]; !ok {
			return nil, fmt.Errorf("field selector: unknown field %q (want metadata.name, metadata.namespace, status.phase or spec.nodeName)", r.key)
		}
		if r.op != "=" && r.op != "!=" {
			return nil, fmt.Errorf("field selector: %q needs = or !=", r.key)
		}
	}
	return reqs, nil
}
