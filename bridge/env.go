package bridge

import (
	"context"
	"os"
	"slices"
	"strings"
)

// captureEnv returns the current values of the named variables that are set.
func captureEnv(names []string) map[string]string {
	env := map[string]string{}
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			env[n] = v
		}
	}
	return env
}

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

// callEnvKey is the context key of the environment that a server's calls
// run in, when the server hides variables from them (ServerOptions.HideEnv).
type callEnvKey struct{}

// withCallEnv returns ctx carrying env as the environment of the calls run
// under it. The server sets it once per call; every way a call goes (a
// tool, search mode's run tool) reaches the same run path with it.
func withCallEnv(ctx context.Context, env []string) context.Context {
	return context.WithValue(ctx, callEnvKey{}, env)
}

// callEnv returns the environment set by withCallEnv, or def.
func callEnv(ctx context.Context, def []string) []string {
	if env, ok := ctx.Value(callEnvKey{}).([]string); ok {
		return env
	}
	return def
}
