package exec

import (
	"os"
	"slices"
	"strings"
)

// WithoutEnv returns env (nil: the current environment) without the
// variables named in hide; a name ending in "*" hides every variable whose
// name begins with what precedes the "*". With nothing to hide it returns
// env as it is, so that nil still means "inherit".
func WithoutEnv(env, hide []string) []string {
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

// hides reports whether the entry h of a hide list (toolset.ServerOptions.HideEnv) hides the variable name.
func hides(h, name string) bool {
	if stem, ok := strings.CutSuffix(h, "*"); ok {
		return strings.HasPrefix(name, stem)
	}
	return h == name
}
