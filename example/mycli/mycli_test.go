package mycli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// cliCase is one in-process run of mycli against a fresh state file.
type cliCase struct {
	name    string
	args    []string          // after "--state FILE"; "$DIR" becomes the case's temp dir
	files   map[string]string // written into $DIR first
	stdin   string
	wantErr string   // a substring of the error; "" means success
	out     []string // substrings stdout must contain
	notOut  []string // substrings stdout must not contain
	errOut  []string // substrings stderr must contain
	check   func(t *testing.T, r result, state string)
}

func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			state := filepath.Join(dir, "state.json")
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--state", state}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "$DIR", dir))
			}
			var stdin *strings.Reader
			if tc.stdin != "" {
				stdin = strings.NewReader(tc.stdin)
			}
			var r result
			if stdin != nil {
				r = execute(t.Context(), stdin, nil, args...)
			} else {
				r = execute(t.Context(), nil, nil, args...)
			}
			switch {
			case tc.wantErr == "" && r.err != nil:
				t.Fatalf("mycli %v: unexpected error %v\nstderr: %s", tc.args, r.err, r.stderr)
			case tc.wantErr != "" && r.err == nil:
				t.Fatalf("mycli %v: no error, want one containing %q\nstdout: %s", tc.args, tc.wantErr, r.stdout)
			case tc.wantErr != "" && !strings.Contains(r.err.Error(), tc.wantErr):
				t.Fatalf("mycli %v: error %q, want it to contain %q", tc.args, r.err, tc.wantErr)
			}
			for _, s := range tc.out {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("mycli %v: stdout lacks %q:\n%s", tc.args, s, r.stdout)
				}
			}
			for _, s := range tc.notOut {
				if strings.Contains(r.stdout, s) {
					t.Errorf("mycli %v: stdout has %q:\n%s", tc.args, s, r.stdout)
				}
			}
			for _, s := range tc.errOut {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("mycli %v: stderr lacks %q:\n%s", tc.args, s, r.stderr)
				}
			}
			if tc.check != nil {
				tc.check(t, r, state)
			}
		})
	}
}

// decode decodes stdout as JSON into v.
func decode(t *testing.T, stdout string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatalf("stdout is not valid JSON: %v\n%s", err, stdout)
	}
}

// stateUnchanged checks that the command saved nothing.
func stateUnchanged(t *testing.T, _ result, state string) {
	t.Helper()
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("state file written (stat: %v), want no write", err)
	}
}

func TestGet(t *testing.T) {
	runCases(t, []cliCase{
		{name: "pods table", args: []string{"get", "pods"},
			out: []string{"NAME", "STATUS", "web-7f9c4d-abc12", "db-0", "<none>"}, notOut: []string{"coredns", "NAMESPACE"}},
		{name: "pods alias po", args: []string{"get", "po"}, out: []string{"api-5d8b6c-xyz89"}},
		{name: "pods other namespace", args: []string{"get", "pods", "-n", "kube-system"},
			out: []string{"coredns-6d4b75-k8m2p", "kube-proxy-h2x9z"}, notOut: []string{"web-"}},
		{name: "pods all namespaces", args: []string{"get", "pods", "-A"},
			out: []string{"NAMESPACE", "kube-system", "coredns-6d4b75-k8m2p", "web-7f9c4d-abc12"}},
		{name: "pods label selector", args: []string{"get", "pods", "-l", "app=web"},
			out: []string{"web-7f9c4d-abc12", "web-7f9c4d-def34"}, notOut: []string{"api-", "db-0"}},
		{name: "pods negative selector", args: []string{"get", "pods", "--selector", "tier!=frontend"},
			out: []string{"api-5d8b6c-xyz89", "db-0"}, notOut: []string{"web-"}},
		{name: "pods field selector", args: []string{"get", "pods", "--field-selector", "status.phase=Pending"},
			out: []string{"db-0"}, notOut: []string{"web-", "api-"}},
		{name: "pods bad field selector", args: []string{"get", "pods", "--field-selector", "color=red"}, wantErr: "unknown field"},
		{name: "pods bad selector", args: []string{"get", "pods", "-l", "=x"}, wantErr: "empty key"},
		{name: "pods label columns", args: []string{"get", "pods", "-L", "tier,app", "-L", "missing"},
			out: []string{"TIER", "APP", "MISSING", "frontend"}},
		{name: "pods no headers", args: []string{"get", "pods", "--headers=false"}, notOut: []string{"NAME"},
			check: func(t *testing.T, r result, _ string) {
				if got := len(lines(r.stdout)); got != 4 {
					t.Errorf("%d lines, want 4 pods:\n%s", got, r.stdout)
				}
			}},
		{name: "pods limit", args: []string{"get", "pods", "--limit", "1", "-o", "name"},
			check: func(t *testing.T, r result, _ string) {
				if got := lines(r.stdout); !slices.Equal(got, []string{"pod/web-7f9c4d-abc12"}) {
					t.Errorf("got %q, want the first pod only", got)
				}
			}},
		{name: "pods negative limit", args: []string{"get", "pods", "--limit", "-1"}, wantErr: "invalid argument"},
		{name: "pods json", args: []string{"get", "pods", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var list struct {
					Kind  string      `json:"kind"`
					Items []mycli.Pod `json:"items"`
				}
				decode(t, r.stdout, &list)
				if list.Kind != "PodList" || len(list.Items) != 4 || list.Items[0].Labels["app"] != "web" {
					t.Errorf("got %+v, want the 4 pods of default", list)
				}
			}},
		{name: "pods json empty", args: []string{"get", "pods", "-l", "app=none", "-o", "json"},
			out: []string{`"items": []`}},
		{name: "pods empty table", args: []string{"get", "pods", "-n", "nowhere"},
			errOut: []string{"No resources found in nowhere namespace."}, notOut: []string{"NAME"}},
		{name: "pods yaml", args: []string{"get", "pods", "-o", "yaml", "-l", "app=db"},
			out: []string{"kind: PodList\n", "items:\n", "- image: \"postgres:16\"\n", "    app: db\n", "  name: db-0\n", "  node: \"\"\n"}},
		{name: "pods name", args: []string{"get", "pods", "-o", "name"},
			check: func(t *testing.T, r result, _ string) {
				want := []string{"pod/web-7f9c4d-abc12", "pod/web-7f9c4d-def34", "pod/api-5d8b6c-xyz89", "pod/db-0"}
				if got := lines(r.stdout); !slices.Equal(got, want) {
					t.Errorf("got %q, want %q", got, want)
				}
			}},
		{name: "one pod json", args: []string{"get", "pods", "db-0", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var p mycli.Pod
				decode(t, r.stdout, &p)
				if p.Name != "db-0" || p.Status != "Pending" {
					t.Errorf("got %+v, want db-0", p)
				}
			}},
		{name: "one pod missing", args: []string{"get", "pods", "nope"}, wantErr: `pod "nope" not found in namespace "default"`},
		{name: "pods too many args", args: []string{"get", "pods", "a", "b"}, wantErr: "accepts at most 1 arg(s), received 2"},
		{name: "pods deprecated flag", args: []string{"get", "pods", "--show-all"},
			out: []string{"Flag --show-all has been deprecated", "web-7f9c4d-abc12"}},
		{name: "services", args: []string{"get", "services"},
			out: []string{"CLUSTER-IP", "kubernetes", "10.96.12.7", "80/TCP,443/TCP"}, notOut: []string{"kube-dns"}},
		{name: "services all namespaces json", args: []string{"get", "svc", "-A", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var list struct{ Items []mycli.Service }
				decode(t, r.stdout, &list)
				if len(list.Items) != 4 {
					t.Errorf("%d services, want 4", len(list.Items))
				}
			}},
		{name: "services no args", args: []string{"get", "services", "web"}, wantErr: `unknown command "web"`},
		{name: "deployments", args: []string{"get", "deployments"}, out: []string{"web", "2/2", "api", "1/1"}, notOut: []string{"coredns"}},
		{name: "get is a group", args: []string{"get"}, out: []string{"Available Commands:", "pods", "services"}},
		// cobra shows a group's help, without error, for an unknown subcommand.
		{name: "get unknown resource", args: []string{"get", "nodes"}, out: []string{"Usage:\n  mycli get [command]"}},
		{name: "list is deprecated", args: []string{"list"}, out: []string{`Command "list" is deprecated, use get`, "db-0"}},
		{name: "describe pod", args: []string{"describe", "pod", "web-7f9c4d-abc12"},
			out: []string{"Name:", "web-7f9c4d-abc12", "Controlled By:", "Deployment/web", "Labels:", "app=web,tier=frontend"}},
		{name: "describe pod json", args: []string{"describe", "pod", "kube-proxy-h2x9z", "-n", "kube-system", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var p mycli.Pod
				decode(t, r.stdout, &p)
				if p.Restarts != 3 {
					t.Errorf("got %+v, want kube-proxy with 3 restarts", p)
				}
			}},
		{name: "describe pod no name", args: []string{"describe", "pod"}, wantErr: "accepts 1 arg(s), received 0"},
		{name: "describe pod two names", args: []string{"describe", "pod", "a", "b"}, wantErr: "accepts 1 arg(s), received 2"},
		{name: "describe pod missing", args: []string{"describe", "pod", "nope"}, wantErr: "not found"},
	})
}

func TestGlobalFlags(t *testing.T) {
	runCases(t, []cliCase{
		{name: "bad output", args: []string{"get", "pods", "-o", "wide"}, wantErr: `invalid --output "wide"`},
		{name: "bad output on version", args: []string{"version", "--output=xml"}, wantErr: "must be one of table, json, yaml, name"},
		{name: "verbose logs to stderr", args: []string{"get", "pods", "-v"}, errOut: []string{"state loaded", "pods=7"}},
		{name: "quiet by default", args: []string{"get", "pods"},
			check: func(t *testing.T, r result, _ string) {
				if r.stderr != "" {
					t.Errorf("stderr %q, want nothing", r.stderr)
				}
			}},
		{name: "kubeconfig accepted", args: []string{"--kubeconfig", "/nonexistent", "version"}, out: []string{"1.4.2"}},
		{name: "unknown flag", args: []string{"get", "pods", "--bogus"}, wantErr: "unknown flag: --bogus"},
		{name: "root help lists groups", args: []string{"--help"},
			out: []string{"Basic Commands:", "Troubleshooting Commands:", "Test Fixtures", "show-helpers", "top_nodes"}, notOut: []string{"debug-dump"}},
		{name: "version flag", args: []string{"--version"}, out: []string{"mycli version " + mycli.Version}},
		{name: "version", args: []string{"version"}, out: []string{"mycli version 1.4.2\n"}},
		{name: "version json", args: []string{"version", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var v map[string]string
				decode(t, r.stdout, &v)
				if v["version"] != mycli.Version {
					t.Errorf("got %v, want version %s", v, mycli.Version)
				}
			}},
		{name: "version yaml", args: []string{"version", "-o", "yaml"}, out: []string{"version: \"1.4.2\"\n"}},
		{name: "version no args", args: []string{"version", "now"}, wantErr: `unknown command "now"`},
	})
}

func TestDelete(t *testing.T) {
	runCases(t, []cliCase{
		{name: "by name", args: []string{"delete", "pod", "db-0"}, out: []string{`pod "db-0" deleted`},
			check: func(t *testing.T, _ result, state string) {
				got := podNames(readState(t, state), "default")
				if slices.Contains(got, "db-0") || len(got) != 3 {
					t.Errorf("pods after delete: %q, want the 3 others", got)
				}
			}},
		{name: "by selector", args: []string{"delete", "pod", "-l", "app=web", "-o", "name"},
			out: []string{"pod/web-7f9c4d-abc12\npod/web-7f9c4d-def34\n"},
			check: func(t *testing.T, _ result, state string) {
				if got := podNames(readState(t, state), "default"); !slices.Equal(got, []string{"api-5d8b6c-xyz89", "db-0"}) {
					t.Errorf("pods after delete: %q", got)
				}
			}},
		{name: "all in namespace", args: []string{"delete", "pod", "--all", "-n", "kube-system"},
			check: func(t *testing.T, _ result, state string) {
				s := readState(t, state)
				if got := podNames(s, "kube-system"); len(got) != 0 {
					t.Errorf("kube-system pods left: %q", got)
				}
				if got := podNames(s, "default"); len(got) != 4 {
					t.Errorf("default pods: %q, want 4 untouched", got)
				}
			}},
		{name: "dry run alone means client", args: []string{"delete", "pod", "--dry-run", "db-0"},
			out: []string{`pod "db-0" deleted (dry run: client)`}, check: stateUnchanged},
		{name: "dry run server", args: []string{"delete", "pod", "db-0", "--dry-run=server"},
			out: []string{"(dry run: server)"}, check: stateUnchanged},
		{name: "dry run none", args: []string{"delete", "pod", "db-0", "--dry-run=none"}, notOut: []string{"dry run"},
			check: func(t *testing.T, _ result, state string) {
				if slices.Contains(podNames(readState(t, state), "default"), "db-0") {
					t.Error("db-0 not deleted")
				}
			}},
		{name: "dry run bad", args: []string{"delete", "pod", "db-0", "--dry-run=maybe"}, wantErr: `invalid --dry-run "maybe"`, check: stateUnchanged},
		{name: "all and selector exclusive", args: []string{"delete", "pod", "--all", "-l", "app=web"},
			wantErr: "[all selector] were all set", check: stateUnchanged},
		{name: "name and all", args: []string{"delete", "pod", "db-0", "--all"}, wantErr: "cannot be combined", check: stateUnchanged},
		{name: "nothing", args: []string{"delete", "pod"}, wantErr: "nothing to delete", check: stateUnchanged},
		{name: "missing", args: []string{"delete", "pod", "nope"}, wantErr: "not found", check: stateUnchanged},
		{name: "negative timeout", args: []string{"delete", "pod", "db-0", "--timeout", "-1s"}, wantErr: "invalid --timeout", check: stateUnchanged},
		{name: "bad timeout", args: []string{"delete", "pod", "db-0", "--timeout", "soon"}, wantErr: "invalid argument", check: stateUnchanged},
		{name: "no match", args: []string{"delete", "pod", "-l", "app=none"}, errOut: []string{"No resources found"}, check: stateUnchanged},
		{name: "delete is a group", args: []string{"delete"}, out: []string{"Available Commands:"}},
	})
}

const deploymentManifest = `{
  "kind": "List",
  "items": [
    {"kind": "Deployment", "metadata": {"name": "cache", "labels": {"app": "cache"}},
     "spec": {"replicas": 3, "image": "redis:7", "env": ["MODE=lru"]}},
    {"kind": "Service", "metadata": {"name": "cache"}, "spec": {"ports": [6379]}}
  ]
}`

func TestApply(t *testing.T) {
	runCases(t, []cliCase{
		{name: "list", args: []string{"apply", "-f", "$DIR/m.json"}, files: map[string]string{"m.json": deploymentManifest},
			out: []string{"deployment/cache created\n", "service/cache created\n"},
			check: func(t *testing.T, _ result, state string) {
				s := readState(t, state)
				var cachePods []string
				for _, p := range s.Pods {
					if p.Owner == "cache" {
						cachePods = append(cachePods, p.Name)
					}
				}
				if !slices.Equal(cachePods, []string{"cache-1", "cache-2", "cache-3"}) {
					t.Errorf("cache pods %q, want 3", cachePods)
				}
				i := slices.IndexFunc(s.Services, func(v mycli.Service) bool { return v.Name == "cache" })
				if i < 0 || s.Services[i].Type != "ClusterIP" || s.Services[i].Namespace != "default" {
					t.Errorf("services %+v, want cache of type ClusterIP in default", s.Services)
				}
			}},
		{name: "array with labels and namespace", args: []string{"apply", "--filename", "$DIR/m.json", "--labels", "team=blue,env=prod", "-n", "dev", "-o", "name"},
			files: map[string]string{"m.json": `[{"kind":"Pod","metadata":{"name":"p1","labels":{"env":"dev"}},"spec":{"image":"busybox"}}]`},
			out:   []string{"pod/p1\n"},
			check: func(t *testing.T, _ result, state string) {
				s := readState(t, state)
				i := slices.IndexFunc(s.Pods, func(p mycli.Pod) bool { return p.Name == "p1" })
				if i < 0 {
					t.Fatal("p1 not created")
				}
				if p := s.Pods[i]; p.Namespace != "dev" || p.Labels["team"] != "blue" || p.Labels["env"] != "prod" {
					t.Errorf("p1 = %+v, want namespace dev with team=blue, env=prod", p)
				}
			}},
		{name: "existing pod configured", args: []string{"apply", "-f", "$DIR/m.json"},
			files: map[string]string{"m.json": `{"kind":"Pod","metadata":{"name":"db-0","labels":{"app":"db"}},"spec":{"image":"postgres:17"}}`},
			out:   []string{"pod/db-0 configured"},
			check: func(t *testing.T, _ result, state string) {
				s := readState(t, state)
				for _, p := range s.Pods {
					if p.Name == "db-0" && p.Image != "postgres:17" {
						t.Errorf("db-0 image %q, want postgres:17", p.Image)
					}
				}
			}},
		{name: "stdin", args: []string{"apply", "-f", "-"}, stdin: `{"kind":"Service","metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[1]}}`,
			out: []string{"service/s created"}},
		{name: "dry run", args: []string{"apply", "-f", "$DIR/m.json", "--dry-run"}, files: map[string]string{"m.json": deploymentManifest},
			out: []string{"deployment/cache created (dry run: client)"}, check: stateUnchanged},
		{name: "filename required", args: []string{"apply"}, wantErr: `required flag(s) "filename" not set`},
		{name: "missing file", args: []string{"apply", "-f", "$DIR/none.json"}, wantErr: "read manifest"},
		{name: "not json", args: []string{"apply", "-f", "$DIR/m.yaml"}, files: map[string]string{"m.yaml": "kind: Pod\n"},
			wantErr: "manifest must be JSON", check: stateUnchanged},
		{name: "unknown kind", args: []string{"apply", "-f", "$DIR/m.json"}, files: map[string]string{"m.json": `{"kind":"Secret","metadata":{"name":"x"}}`},
			wantErr: `unknown kind "Secret"`, check: stateUnchanged},
		{name: "unknown spec field", args: []string{"apply", "-f", "$DIR/m.json"}, files: map[string]string{"m.json": `{"kind":"Pod","metadata":{"name":"x"},"spec":{"imag":"y"}}`},
			wantErr: "unknown field", check: stateUnchanged},
		{name: "no name", args: []string{"apply", "-f", "$DIR/m.json"}, files: map[string]string{"m.json": `{"kind":"Pod","metadata":{}}`},
			wantErr: "without metadata.name", check: stateUnchanged},
		{name: "bad labels", args: []string{"apply", "-f", "$DIR/m.json", "--labels", "novalue"}, files: map[string]string{"m.json": deploymentManifest},
			wantErr: "invalid argument"},
	})
}

func TestApplyIsIdempotent(t *testing.T) {
	t.Parallel()
	state := newState(t)
	file := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(file, []byte(deploymentManifest), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := run(t, state, "apply", "-f", file); r.err != nil {
		t.Fatal(r.err)
	}
	r := run(t, state, "apply", "-f", file)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if want := "deployment/cache unchanged\nservice/cache unchanged\n"; r.stdout != want {
		t.Errorf("second apply printed %q, want %q", r.stdout, want)
	}
}

func TestRun(t *testing.T) {
	runCases(t, []cliCase{
		{name: "image", args: []string{"run", "cache", "--image", "redis:7", "--replicas", "2", "--env", "A=1", "--env", "B=x,y", "--labels", "team=blue"},
			out: []string{"deployment/cache created\n"},
			check: func(t *testing.T, _ result, state string) {
				s := readState(t, state)
				i := slices.IndexFunc(s.Deployments, func(d mycli.Deployment) bool { return d.Name == "cache" })
				if i < 0 {
					t.Fatal("deployment cache not created")
				}
				d := s.Deployments[i]
				if d.Image != "redis:7" || d.Replicas != 2 || !slices.Equal(d.Env, []string{"A=1", "B=x,y"}) ||
					d.Labels["run"] != "cache" || d.Labels["team"] != "blue" {
					t.Errorf("deployment %+v", d)
				}
				if got := podNames(s, "default"); !slices.Contains(got, "cache-1") || !slices.Contains(got, "cache-2") {
					t.Errorf("pods %q, want cache-1 and cache-2", got)
				}
			}},
		{name: "overrides", args: []string{"run", "cache", "--overrides", `{"image":"redis:7","replicas":3}`, "--replicas", "1"},
			check: func(t *testing.T, _ result, state string) {
				s := readState(t, state)
				if got := podNames(s, "default"); !slices.Contains(got, "cache-3") {
					t.Errorf("pods %q, want 3 cache pods (overrides win over --replicas)", got)
				}
			}},
		{name: "image or overrides required", args: []string{"run", "cache"},
			wantErr: "at least one of the flags in the group [image overrides] is required", check: stateUnchanged},
		{name: "overrides without image", args: []string{"run", "cache", "--overrides", `{"replicas":3}`}, wantErr: "image is required", check: stateUnchanged},
		{name: "overrides unknown field", args: []string{"run", "cache", "--overrides", `{"image":"x","cpu":1}`}, wantErr: `unknown field "cpu"`, check: stateUnchanged},
		{name: "overrides not an object", args: []string{"run", "cache", "--overrides", `"redis"`}, wantErr: "invalid --overrides", check: stateUnchanged},
		{name: "overrides not json", args: []string{"run", "cache", "--overrides", `{image: redis}`}, wantErr: "invalid --overrides", check: stateUnchanged},
		{name: "negative replicas", args: []string{"run", "cache", "--image", "x", "--replicas", "-1"}, wantErr: "negative", check: stateUnchanged},
		{name: "bad env", args: []string{"run", "cache", "--image", "x", "--env", "NOVALUE"}, wantErr: "--env", check: stateUnchanged},
		{name: "exists", args: []string{"run", "web", "--image", "x"}, wantErr: "already exists", check: stateUnchanged},
		{name: "dry run", args: []string{"run", "cache", "--image", "x", "--dry-run=server"}, out: []string{"(dry run: server)"}, check: stateUnchanged},
		{name: "name required", args: []string{"run", "--image", "x"}, wantErr: "accepts 1 arg(s), received 0"},
	})
}

func TestScale(t *testing.T) {
	webPods := func(want int) func(*testing.T, result, string) {
		return func(t *testing.T, _ result, state string) {
			s := readState(t, state)
			n := 0
			for _, p := range s.Pods {
				if p.Owner == "web" {
					n++
				}
			}
			for _, d := range s.Deployments {
				if d.Name == "web" && d.Replicas != want {
					t.Errorf("web replicas %d, want %d", d.Replicas, want)
				}
			}
			if n != want {
				t.Errorf("%d web pods, want %d", n, want)
			}
		}
	}
	runCases(t, []cliCase{
		{name: "up", args: []string{"scale", "deployment", "web", "--replicas", "5"}, out: []string{"deployment/web scaled to 5"}, check: webPods(5)},
		{name: "down to zero", args: []string{"scale", "deploy", "web", "--replicas=0"}, check: webPods(0)},
		{name: "precondition met", args: []string{"scale", "deployment", "web", "--replicas", "1", "--current-replicas", "2"}, check: webPods(1)},
		{name: "precondition failed", args: []string{"scale", "deployment", "web", "--replicas", "1", "--current-replicas", "3"},
			wantErr: "expected 3 current replicas", check: stateUnchanged},
		{name: "replicas required", args: []string{"scale", "deployment", "web"}, wantErr: `required flag(s) "replicas" not set`},
		{name: "replicas not int", args: []string{"scale", "deployment", "web", "--replicas", "two"}, wantErr: "invalid argument"},
		{name: "negative", args: []string{"scale", "deployment", "web", "--replicas", "-2"}, wantErr: "must not be negative"},
		{name: "missing", args: []string{"scale", "deployment", "nope", "--replicas", "1"}, wantErr: `deployment "nope" not found`},
		{name: "other namespace", args: []string{"scale", "deployment", "coredns", "-n", "kube-system", "--replicas", "3"},
			check: func(t *testing.T, _ result, state string) {
				if got := podNames(readState(t, state), "kube-system"); !slices.Contains(got, "coredns-1") || len(got) != 4 {
					t.Errorf("kube-system pods %q, want 3 coredns and kube-proxy", got)
				}
			}},
	})
}

func TestLabel(t *testing.T) {
	dbLabels := func(want map[string]string) func(*testing.T, result, string) {
		return func(t *testing.T, _ result, state string) {
			for _, p := range readState(t, state).Pods {
				if p.Name == "db-0" && !mapsEqual(p.Labels, want) {
					t.Errorf("db-0 labels %v, want %v", p.Labels, want)
				}
			}
		}
	}
	runCases(t, []cliCase{
		{name: "show", args: []string{"label", "db-0"}, out: []string{"app=db,tier=backend\n"}, check: stateUnchanged},
		{name: "show json", args: []string{"label", "db-0", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var m map[string]string
				decode(t, r.stdout, &m)
				if m["tier"] != "backend" {
					t.Errorf("labels %v", m)
				}
			}},
		{name: "add", args: []string{"label", "db-0", "env=prod"}, out: []string{"pod/db-0 labeled"},
			check: dbLabels(map[string]string{"app": "db", "tier": "backend", "env": "prod"})},
		{name: "change needs overwrite", args: []string{"label", "db-0", "app=x"}, wantErr: "--overwrite", check: stateUnchanged},
		{name: "overwrite", args: []string{"label", "db-0", "app=x", "--overwrite"}, check: dbLabels(map[string]string{"app": "x", "tier": "backend"})},
		{name: "remove", args: []string{"label", "db-0", "tier-"}, out: []string{"unlabeled"}, check: dbLabels(map[string]string{"app": "db"})},
		{name: "remove missing", args: []string{"label", "db-0", "nope-"}, wantErr: "has no label", check: stateUnchanged},
		{name: "bad pair", args: []string{"label", "db-0", "=x"}, wantErr: "want KEY=VALUE", check: stateUnchanged},
		{name: "no args", args: []string{"label"}, wantErr: "accepts between 1 and 2 arg(s), received 0"},
		{name: "three args", args: []string{"label", "db-0", "a=b", "c=d"}, wantErr: "accepts between 1 and 2 arg(s), received 3"},
		{name: "missing pod", args: []string{"label", "nope", "a=b"}, wantErr: "not found"},
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestTroubleshooting(t *testing.T) {
	runCases(t, []cliCase{
		{name: "port-forward default", args: []string{"port-forward", "web-7f9c4d-abc12"}, out: []string{"Forwarding from 127.0.0.1:8080 -> 80\n"}},
		{name: "port-forward ports", args: []string{"port-forward", "web-7f9c4d-abc12", "9090:80", "8443", "--bind-address", "::1"},
			out: []string{"Forwarding from [::1]:9090 -> 80\n", "Forwarding from [::1]:8443 -> 8443\n"}},
		{name: "port-forward tls", args: []string{"port-forward", "db-0", "--bind-address=0.0.0.0", "--tls-cert", "c.pem", "--tls-key", "k.pem"},
			out: []string{"Serving TLS with certificate c.pem and key k.pem", "Forwarding from https://0.0.0.0:8080 -> 80"}},
		{name: "port-forward tls needs key", args: []string{"port-forward", "db-0", "--tls-cert", "c.pem"},
			wantErr: "if any flags in the group [tls-cert tls-key] are set they must all be set; missing [tls-key]"},
		{name: "port-forward bad ip", args: []string{"port-forward", "db-0", "--bind-address", "localhost"}, wantErr: "invalid argument"},
		{name: "port-forward bad port", args: []string{"port-forward", "db-0", "80:99999"}, wantErr: `invalid port "99999"`},
		{name: "port-forward no pod", args: []string{"port-forward"}, wantErr: "requires at least 1 arg(s), only received 0"},
		{name: "port-forward missing pod", args: []string{"port-forward", "nope"}, wantErr: "not found"},
		{name: "top_nodes", args: []string{"top_nodes"}, out: []string{"CPU(cores)", "node-1", "850m", "42%", "3012Mi", "node-2"}},
		{name: "top_nodes sort and filter", args: []string{"top_nodes", "--sort-by", "memory", "--min-cpu-percent", "12.5", "-o", "name"},
			check: func(t *testing.T, r result, _ string) {
				if got := lines(r.stdout); !slices.Equal(got, []string{"node/node-1", "node/node-2"}) {
					t.Errorf("got %q", got)
				}
			}},
		{name: "top_nodes filter", args: []string{"top_nodes", "--min-cpu-percent=20", "-o", "json"},
			check: func(t *testing.T, r result, _ string) {
				var list struct{ Items []mycli.Node }
				decode(t, r.stdout, &list)
				if len(list.Items) != 1 || list.Items[0].Name != "node-1" {
					t.Errorf("got %+v, want node-1 only", list.Items)
				}
			}},
		{name: "top_nodes bad float", args: []string{"top_nodes", "--min-cpu-percent", "lots"}, wantErr: "invalid argument"},
		{name: "top_nodes bad sort", args: []string{"top_nodes", "--sort-by", "age"}, wantErr: `invalid --sort-by "age"`},
		{name: "show-helpers", args: []string{"show-helpers"}, out: []string{"NAME", "oidc", "mycli-credential-exec"}},
		{name: "show-helpers name", args: []string{"show-helpers", "-o", "name"}, out: []string{"helper/exec\nhelper/oidc\nhelper/static\n"}},
		{name: "debug-dump", args: []string{"debug-dump"},
			check: func(t *testing.T, r result, _ string) {
				var s mycli.State
				decode(t, r.stdout, &s)
				if len(s.Pods) != len(mycli.SeedState().Pods) {
					t.Errorf("dumped %d pods, want the seed's %d", len(s.Pods), len(mycli.SeedState().Pods))
				}
			}},
	})
}

func TestExecGetsRawArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"exec", "web", "--", "ls", "-l"}, []string{"web", "--", "ls", "-l"}},
		{[]string{"exec", "-n", "kube-system", "pod", "--help"}, []string{"-n", "kube-system", "pod", "--help"}},
		{[]string{"exec", "--state=x", "p", "--", "sh", "-c", "echo 'a b'"}, []string{"--state=x", "p", "--", "sh", "-c", "echo 'a b'"}},
	}
	for _, tt := range tests {
		r := execute(t.Context(), nil, nil, tt.args...)
		if r.err != nil {
			t.Fatalf("mycli %q: %v", tt.args, r.err)
		}
		var got []string
		decode(t, r.stdout, &got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("mycli %q printed %q, want %q", tt.args, got, tt.want)
		}
	}
	if r := execute(t.Context(), nil, nil, "exec"); r.err == nil {
		t.Error("exec without args: no error")
	}
}
