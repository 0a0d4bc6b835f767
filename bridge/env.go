package bridge

import "os"

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
