// Package mycli is a small, offline, kubectl-like CLI: the demo of cobramcp and the fixture of
// its end-to-end tests.
//
//	func main() {
//		root := mycli.New()
//		root.AddCommand(bridge.Command(nil)) // the one-line adoption
//		os.Exit(mycli.ExitCode(root.Execute()))
//	}
//
// (That is example/main.go.) In tests, run a tree in-process:
//
//	root := mycli.New()
//	root.SetArgs([]string{"--state", path, "get", "pods", "-o", "json"})
//	root.SetOut(&stdout)
//	err := root.Execute()
//
// # What the package promises
//
//   - [New] returns a fresh tree on every call; there is no package-level mutable state, so
//     trees may be built and run concurrently.
//   - Every command writes to cmd.OutOrStdout and cmd.ErrOrStderr (except stray-print, whose
//     point is not to) and returns errors rather than exiting. A command that needs a specific
//     exit code returns an [*ExitError]; [ExitCode] maps any error to the code.
//   - The state is a JSON file: --state FILE, else $MYCLI_STATE, else
//     os.UserConfigDir()/mycli/state.json. A missing file means [SeedState]: pods, services and
//     deployments in the namespaces default and kube-system, and two nodes. Commands that write
//     (delete, apply, run, scale, label) save it atomically (temporary file, then rename).
//   - Output honours -o table|json|yaml|name where a command has structured output; json is
//     always valid JSON (lists are {"kind": ..., "items": [...]}). logs, exec, echo,
//     debug-dump and the fixtures print their own formats.
//   - Everything is deterministic: no clocks, no randomness (logs are generated from line
//     numbers, see [LogLine]; flood repeats [FloodLine]).
//
// # What each command exercises
//
// Every mapping cobramcp performs is exercised by a real command. Tests elsewhere rely on this
// table; TestMappings in this package checks that it stays true.
//
//	mapping                                   command             flag / detail
//	----------------------------------------  ------------------  ------------------------------------
//	string                                    get pods            -l/--selector, --field-selector
//	string with jsonschema enum (persistent)  (root)              -o/--output: table|json|yaml|name
//	string with jsonschema object             run                 --overrides (JSON text; parsed, checked)
//	string with NoOptDefVal                   delete pod, apply,  --dry-run (alone = "client";
//	                                          run                 none|client|server)
//	bool, default false                       get pods            -A/--all-namespaces
//	bool, default true                        get pods, logs      --headers, --prefix
//	count                                     (root)              -v/--verbose (persistent)
//	int                                       scale deployment    --replicas (required), --current-replicas
//	int64                                     logs                --bytes
//	uint                                      get pods            --limit
//	float64                                   top_nodes           --min-cpu-percent
//	duration                                  logs, delete pod    --since, --timeout
//	time (RFC 3339)                           logs                --since-time
//	stringSlice                               get pods            -L/--label-columns
//	stringArray                               run                 --env (repeatable; commas kept)
//	stringToString                            run, apply          --labels
//	ip                                        port-forward        --bind-address
//	shorthands                                get pods, logs,     -A, -l, -L; -f, -p; -c;
//	                                          echo, (root)        -n, -o, -v
//	required flag                             apply, scale dep.   -f/--filename, --replicas
//	mutually exclusive flags                  delete pod          --all vs --selector
//	                                          logs                --follow vs --previous,
//	                                                              --since vs --since-time
//	flags required together                   port-forward        --tls-cert with --tls-key
//	one of the flags required                 run                 --image or --overrides
//	deprecated flag                           get pods            --show-all
//	persistent flags                          (root)              -n, -o, --kubeconfig, --state, -v
//
//	command kind                              command
//	----------------------------------------  --------------------------------------------------
//	cobra.NoArgs                              version, get services, get deployments, top_nodes
//	cobra.ExactArgs(1)                        describe pod, logs, run, scale deployment, env-get
//	cobra.MaximumNArgs(1)                     get pods, delete pod
//	cobra.RangeArgs(1, 2)                     label
//	cobra.MinimumNArgs(1)                     port-forward
//	no validator (Args nil)                   echo
//	counts the args before "--" (kubectl)     create namespace (exactly one NAME before any "--")
//	"--" in the usage line: argsAfterDash     debug POD -- COMMAND (MinimumNArgs(2), POD before "--"),
//	                                          exec
//	DisableFlagParsing                        exec (prints its raw args as a JSON array)
//	non-runnable group (subcommands, no Run)  get, describe, delete, scale
//	hidden command                            debug-dump
//	deprecated command                        list (Deprecated: "use get")
//	name with "_"                             top_nodes
//	name containing "help"                    show-helpers (a real command, must be a tool)
//	aliases                                   get pods (pod, po), get services (svc), ...
//	command groups (AddGroup/GroupID)         basic, troubleshooting, testing; version and
//	                                          show-helpers have none
//	root Version                              mycli --version (1.4.2)
//
//	annotation                                commands
//	----------------------------------------  --------------------------------------------------
//	mcp.readOnlyHint: "true"                  get *, describe pod, list, logs, port-forward,
//	                                          top_nodes, show-helpers, version, env-get, echo
//	mcp.destructiveHint: "true"               delete pod
//	mcp.idempotentHint: "true"                scale deployment
//	mcp.title                                 get pods, get services, describe pod, delete pod,
//	                                          scale deployment, logs, top_nodes, version
//	mcp.tags: "k8s, read only"                get pods
//	(none)                                    apply, run, label, exec, the fixtures below
//
// # Test fixtures (group "testing")
//
// These are ordinary, visible commands, so that they become tools:
//
//   - sleep --for D [--spawn [--child-for D]] [--ignore-term]: sleeps, then prints "slept D".
//     --spawn first starts a grandchild `mycli sleep` (os.Executable) in the same process group
//     and prints its pid alone on the first stdout line; --ignore-term ignores SIGTERM (in the
//     grandchild too). For timeouts, cancellation and process-group kills.
//   - flood --bytes N [--stderr]: writes exactly N bytes ([FloodLine] repeated) fast.
//   - fail --code N [--message M] [--stdout S]: prints S to stdout and M to stderr, exits N.
//   - stray-print: writes a line straight to os.Stdout and os.Stderr, bypassing cobra's writers.
//   - env-get NAME: prints $NAME; exit code 2 when it is not set.
//   - echo [ARGS...]: prints an [EchoResult]: its args and every flag set, typed; it has a flag
//     of every pflag type (--str, --int, --int64, --uint, --float, --bool, --bool-true
//     (default true), -c/--count, --duration, --slice, --array, --map, --ip, --time, --opt
//     (NoOptDefVal "implied")).
//
// logs (--bytes N, up to hundreds of MB quickly; --follow streams until cancelled) is the
// fixture for large and streamed output.
package mycli
