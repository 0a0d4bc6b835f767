package mcpcmd

// secretVars names the environment variables that hold the HTTP server's
// own secrets, which the calls' processes must not see: the default token
// variable of the CLI named server and the one named by --token-env.
func secretVars(server string, f *streamFlags) []string {
	vars := []string{tokenEnv(server)}
	if f.tokenEnv != "" && f.tokenEnv != vars[0] {
		vars = append(vars, f.tokenEnv)
	}
	return vars
}
