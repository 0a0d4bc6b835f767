package toolset

import (
	"os"
	"slices"
	"strings"
)

// withoutVars returns env (nil: the current environment) without the
// variables named in hide; a name ending in "*" hides every variable whose
// name begins with what precedes the "*". With nothing to hide it returns
// env as it is, so that nil still means "inherit".
func withoutVars(env, hide []string) []string {
	if len(hide) == 0 {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(hide, func(h string) bool { return hides(h, name) }) {
			out = append(out, kv)
		}
	}
	return out
}

// hides reports whether the entry h of HideEnv hides the variable name.
func hides(h, name string) bool {
	if stem, ok := strings.CutSuffix(h, "*"); ok {
		return strings.HasPrefix(name, stem)
	}
	return h == name
}

// hiding returns ts with the variables named in hide removed from its
// calls' environment, or ts itself when hide is empty. The copy shares
// everything else with ts (its tools, listing, limits and Wait). ts itself
// is not changed, so another server built from it, or its Call, still sees
// Config.Env.
func (ts *Toolset) hiding(hide []string) *Toolset {
	if len(hide) == 0 {
		return ts
	}
	cp := *ts
	cp.cfg.Env = withoutVars(ts.cfg.Env, hide)
	return &cp
}
