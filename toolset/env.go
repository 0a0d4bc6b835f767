package toolset

import (
	"os"
	"slices"
	"strings"
)

// withoutVars returns env (nil: the current environment) without the
// variables named in hide. With nothing to hide it returns env as it is, so
// that nil still means "inherit".
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
		if !slices.Contains(hide, name) {
			out = append(out, kv)
		}
	}
	return out
}
