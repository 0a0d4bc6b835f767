package bridge_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/dialect"
)

// The tests below build the real mycli (./example) and drive its
// `mcp tools --format`, `mcp tool` and `mcp call` commands as a user or an
// agent would, with the state file in a temporary directory.

// e2e is one built mycli and the environment it runs in.
type e2e struct {
	bin string
	env []string
}

// exitResult is the outcome of one run of a program.
type exitResult struct {
	stdout, stderr string
	code           int
}

// run runs prog (mycli when empty) with args and stdin.
func (e *e2e) run(t *testing.T, stdin, prog string, args ...string) exitResult {
	t.Helper()
	if prog == "" {
		prog = e.bin
	}
	c := exec.Command(prog, args...)
	c.Env = e.env
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	var ee *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %s %q: %v", prog, args, err)
	}
	return exitResult{out.String(), errb.String(), code}
}

// ok runs mycli and fails the test unless it exits 0.
func (e *e2e) ok(t *testing.T, stdin string, args ...string) exitResult {
	t.Helper()
	r := e.run(t, stdin, "", args...)
	if r.code != 0 {
		t.Fatalf("mycli %q: exit %d\nstderr: %s", args, r.code, r.stderr)
	}
	return r
}

func TestDialectE2E(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mycli")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/cobramcp/cobramcp/example").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	e := &e2e{bin: bin, env: append(os.Environ(), "MYCLI_STATE="+filepath.Join(dir, "state.json"))}

	// The tools as tools/list gives them: the reference for every format.
	var mcpTools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(e.ok(t, "", "mcp", "tools", "-o", "-").stdout), &mcpTools); err != nil {
		t.Fatal(err)
	}
	if len(mcpTools) < 10 {
		t.Fatalf("mycli has only %d tools", len(mcpTools))
	}

	var names []string
	for _, m := range mcpTools {
		names = append(names, m.Name)
	}
	t.Run("formats", func(t *testing.T) { testE2EFormats(t, e, names) })
	t.Run("strict", func(t *testing.T) { testE2EStrict(t, e) })
	t.Run("external", func(t *testing.T) { testE2EExternal(t, e, len(mcpTools)) })
	t.Run("tool bad input", func(t *testing.T) { testE2EToolBadInput(t, e) })
	t.Run("call forms", func(t *testing.T) { testE2ECallForms(t, e) })
	t.Run("call toolvault", func(t *testing.T) { testE2ECallToolVault(t, e) })
}

func testE2EFormats(t *testing.T, e *e2e, mcpNames []string) {
	n := len(mcpNames)
	for _, f := range dialect.Formats() {
		t.Run(string(f), func(t *testing.T) {
			r := e.ok(t, "", "mcp", "tools", "--format", string(f), "-o", "-")
			if !json.Valid([]byte(r.stdout)) {
				t.Fatalf("not valid JSON:\n%s", r.stdout)
			}
			es := entries(t, f, []byte(r.stdout))
			if len(es) != n {
				t.Errorf("%d entries, want one per tool (%d)", len(es), n)
			}
			seen := map[string]bool{}
			for _, e := range es {
				name := entryName(f, e)
				if name == "" || seen[name] {
					t.Errorf("entry name %q is empty or repeated", name)
				}
				seen[name] = true
			}
			warned := map[string]bool{}
			for _, l := range lines(r.stderr) {
				parts := strings.SplitN(l, ": ", 2)
				if len(parts) != 2 || !strings.Contains(l, ": "+string(f)+": ") {
					t.Errorf("stderr line %q is not a warning \"tool: /path: %s: message\"", l, f)
					continue
				}
				warned[parts[0]] = true
			}
			for tool := range warned {
				if !slices.Contains(mcpNames, tool) {
					t.Errorf("a warning names %q, which is not a tool's MCP name", tool)
				}
			}
			if f == dialect.OpenAI {
				checkOpenAIStrict(t, es, r.stderr)
			}
		})
	}
}

// checkOpenAIStrict checks the strict-mode rules on every function with
// "strict": true: every object has additionalProperties: false and
// requires exactly its properties. A function without strict mode must be
// reported on stderr.
func checkOpenAIStrict(t *testing.T, es []map[string]any, stderr string) {
	t.Helper()
	strict := 0
	for _, e := range es {
		if e["type"] != "function" {
			t.Errorf("entry type %v, want function", e["type"])
		}
		fn, _ := e["function"].(map[string]any)
		name, _ := fn["name"].(string)
		switch fn["strict"] {
		case true:
			strict++
			walkSchemas(fn["parameters"], "/parameters", func(path string, s map[string]any) {
				if !isObjectSchema(s) {
					return
				}
				if s["additionalProperties"] != false {
					t.Errorf("%s%s: additionalProperties is %v, want false", name, path, s["additionalProperties"])
				}
				props, _ := s["properties"].(map[string]any)
				var keys, req []string
				for k := range props {
					keys = append(keys, k)
				}
				list, _ := s["required"].([]any)
				for _, r := range list {
					req = append(req, fmt.Sprint(r))
				}
				sort.Strings(keys)
				sort.Strings(req)
				if !slices.Equal(keys, req) {
					t.Errorf("%s%s: required %v, want every property %v", name, path, req, keys)
				}
			})
		case false:
			if !strings.Contains(stderr, name+": ") || !strings.Contains(stderr, "strict mode off") {
				t.Errorf("%s is not strict and stderr does not say why", name)
			}
		default:
			t.Errorf("%s: strict is %v, want true or false", name, fn["strict"])
		}
	}
	if strict == 0 {
		t.Error("no function is in strict mode")
	}
}

// isObjectSchema reports whether s describes objects: type "object" or a
// type list holding it.
func isObjectSchema(s map[string]any) bool {
	switch ty := s["type"].(type) {
	case string:
		return ty == "object"
	case []any:
		return slices.Contains(ty, any("object"))
	}
	return false
}

// walkSchemas calls f on every subschema of v.
func walkSchemas(v any, path string, f func(path string, s map[string]any)) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	f(path, s)
	if props, ok := s["properties"].(map[string]any); ok {
		for k, p := range props {
			walkSchemas(p, path+"/properties/"+k, f)
		}
	}
	walkSchemas(s["items"], path+"/items", f)
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := s[kw].([]any); ok {
			for i, b := range list {
				walkSchemas(b, fmt.Sprintf("%s/%s/%d", path, kw, i), f)
			}
		}
	}
	for _, kw := range []string{"$defs", "definitions"} {
		if defs, ok := s[kw].(map[string]any); ok {
			for k, d := range defs {
				walkSchemas(d, path+"/"+kw+"/"+k, f)
			}
		}
	}
}

func testE2EStrict(t *testing.T, e *e2e) {
	lossy := map[dialect.Format]bool{}
	restated := map[dialect.Format]int{}
	for _, f := range dialect.Formats() {
		lax := e.ok(t, "", "mcp", "tools", "--format", string(f), "-o", "-")
		var losses []string
		for _, l := range lines(lax.stderr) {
			// A constraint restated in words is reported but is no loss.
			if strings.Contains(l, ": "+string(f)+": restated: ") {
				restated[f]++
			} else {
				losses = append(losses, l)
			}
		}
		lossy[f] = len(losses) > 0
		r := e.run(t, "", "", "mcp", "tools", "--format", string(f), "--strict", "-o", "-")
		if !lossy[f] {
			if r.code != 0 || r.stdout != lax.stdout || r.stderr != lax.stderr {
				t.Errorf("%s --strict without losses: exit %d, same output: %v, same warnings: %v\n%s", f, r.code, r.stdout == lax.stdout, r.stderr == lax.stderr, r.stderr)
			}
			continue
		}
		if r.code == 0 || r.stdout != "" {
			t.Errorf("%s --strict with losses: exit %d, stdout %d bytes; want a failure and nothing written", f, r.code, len(r.stdout))
		}
		if !strings.Contains(r.stderr, "in strict mode") {
			t.Errorf("%s --strict: stderr does not explain the failure:\n%s", f, r.stderr)
		}
		for _, l := range losses {
			if !strings.Contains(r.stderr, l) {
				t.Errorf("%s --strict does not list the loss %q", f, l)
			}
		}
	}
	// mycli's names have '-' (not canonical); OpenAI strict mode carries
	// every tool, map flags as {key, value} pairs and its four flag groups
	// restated in words; Anthropic takes its schemas as they are.
	if lossy[dialect.OpenAI] || !lossy[dialect.Canonical] || lossy[dialect.Anthropic] || lossy[dialect.MCP] {
		t.Errorf("losses per format %v: want canonical lossy, openai, anthropic and mcp not", lossy)
	}
	if restated[dialect.OpenAI] != 4 || restated[dialect.Gemini] != 4 {
		t.Errorf("restated flag groups per format %v: want mycli's 4 in openai and gemini", restated)
	}
}

var canonicalName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// checkCanonical checks the canonical tool schema's discovery rules.
func checkCanonical(t *testing.T, file string, b []byte) string {
	t.Helper()
	var s struct {
		Name        *string `json:"name"`
		Description *string `json:"description"`
		Parameters  *struct {
			Type       string                    `json:"type"`
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Errorf("%s --schema: not valid JSON: %v\n%s", file, err, b)
		return ""
	}
	if s.Name == nil || !canonicalName.MatchString(*s.Name) || s.Description == nil || *s.Description == "" || s.Parameters == nil {
		t.Errorf("%s --schema: want a name of [A-Za-z0-9_], a description and parameters:\n%s", file, b)
		return ""
	}
	p := s.Parameters
	if p.Type != "object" || p.Properties == nil {
		t.Errorf("%s --schema: parameters want type object and properties:\n%s", file, b)
	}
	types := []string{"string", "integer", "number", "boolean", "array", "object"}
	for k, prop := range p.Properties {
		if ty, _ := prop["type"].(string); !slices.Contains(types, ty) {
			t.Errorf("%s --schema: property %s has type %v", file, k, prop["type"])
		}
	}
	for _, r := range p.Required {
		if _, ok := p.Properties[r]; !ok {
			t.Errorf("%s --schema: required %q is not a property", file, r)
		}
	}
	return *s.Name
}

func testE2EExternal(t *testing.T, e *e2e, n int) {
	dir := filepath.Join(t.TempDir(), "tools")
	r := e.ok(t, "", "mcp", "tools", "--format", "external", "--dir", dir)
	if !strings.Contains(r.stderr, fmt.Sprintf("wrote %d tools", n)) {
		t.Errorf("stderr does not say %d tools were written:\n%s", n, r.stderr)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != n {
		t.Errorf("%d files, want one per tool (%d)", len(files), n)
	}
	canonical := entries(t, dialect.Canonical, []byte(e.ok(t, "", "mcp", "tools", "--format", "canonical", "-o", "-").stdout))
	byName := map[string]map[string]any{}
	for _, c := range canonical {
		byName[entryName(dialect.Canonical, c)] = c
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o111 != 0o111 || !fi.Mode().IsRegular() {
			t.Errorf("%s is not an executable file: %v", f.Name(), fi.Mode())
		}
		if !kebab.MatchString(f.Name()) {
			t.Errorf("%s is not in kebab-case", f.Name())
		}
		s := e.run(t, "", path, "--schema")
		if s.code != 0 {
			t.Errorf("%s --schema: exit %d: %s", f.Name(), s.code, s.stderr)
			continue
		}
		name := checkCanonical(t, f.Name(), []byte(s.stdout))
		if strings.ReplaceAll(f.Name(), "-", "_") != strings.ToLower(name) {
			t.Errorf("%s --schema names the tool %q", f.Name(), name)
		}
		var got map[string]any
		_ = json.Unmarshal([]byte(s.stdout), &got)
		if !reflect.DeepEqual(got, byName[name]) {
			t.Errorf("%s --schema differs from its entry in --format canonical", f.Name())
		}
	}

	// An agent runs a script with its arguments on stdin.
	pods := filepath.Join(dir, "mycli-get-pods")
	r = e.run(t, `{"flags":{"output":"json"}}`, pods)
	if r.code != 0 {
		t.Fatalf("mycli-get-pods: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var out struct {
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
		ExitCode *int   `json:"exitCode"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.ExitCode == nil || *out.ExitCode != 0 {
		t.Fatalf("mycli-get-pods printed %s (%v)", r.stdout, err)
	}
	direct := e.ok(t, "", "get", "pods", "-o", "json")
	if out.Stdout != direct.stdout || !json.Valid([]byte(out.Stdout)) {
		t.Errorf("mycli-get-pods stdout:\n%s\nwant what `mycli get pods -o json` prints:\n%s", out.Stdout, direct.stdout)
	}

	// A second export replaces the scripts; a foreign file stops it.
	e.ok(t, "", "mcp", "tools", "--format", "external", "--dir", dir)
	if err := os.WriteFile(pods, []byte("#!/bin/sh\necho mine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = e.run(t, "", "", "mcp", "tools", "--format", "external", "--dir", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "--force") {
		t.Errorf("a foreign file did not stop the export: exit %d\n%s", r.code, r.stderr)
	}
	e.ok(t, "", "mcp", "tools", "--format", "external", "--dir", dir, "--force")
	if b, _ := os.ReadFile(pods); bytes.Contains(b, []byte("echo mine")) {
		t.Error("--force did not replace the foreign file")
	}
}

func testE2EToolBadInput(t *testing.T, e *e2e) {
	tests := []struct {
		name, tool, stdin, want string
	}{
		{"unknown flag", "mycli_get_pods", `{"flags":{"no-such-flag":1}}`, `unknown flag "no-such-flag"`},
		{"not JSON", "mycli_get_pods", `{"flags":`, "arguments must be a JSON object"},
		{"wrong type", "mycli_get_pods", `{"flags":{"limit":"ten"}}`, "invalid arguments"},
		{"positional args to a command without", "mycli_version", `{"args":["x"]}`, "takes no positional args"},
		{"duplicate in the list form", "mycli_get_pods", `[{"name":"limit","value":1},{"name":"limit","value":2}]`, `"limit" appears twice`},
		{"unknown tool", "mycli_nope", `{}`, `unknown tool "mycli_nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, tc.stdin, "", "mcp", "tool", tc.tool)
			if r.code == 0 {
				t.Errorf("exit 0 for bad input")
			}
			var out struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || !strings.Contains(out.Error, tc.want) {
				t.Errorf("stdout %s: want {\"error\"} containing %q (%v)", r.stdout, tc.want, err)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.want)
			}
		})
	}
	// A command that runs and fails: its output, and a non-zero exit.
	r := e.run(t, `{}`, "", "mcp", "tool", "mycli_fail")
	var out struct {
		ExitCode int    `json:"exitCode"`
		Stderr   string `json:"stderr"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code == 0 || out.ExitCode == 0 {
		t.Errorf("mycli_fail: exit %d, printed %s (%v)", r.code, r.stdout, err)
	}
}

func testE2ECallForms(t *testing.T, e *e2e) {
	object := e.ok(t, "", "mcp", "call", "mycli_get_pods", `{"flags":{"output":"json","limit":1},"args":[]}`)
	list := e.ok(t, `[{"name":"output","value":"json"},{"name":"limit","value":1},{"name":"args","value":[]}]`, "mcp", "call", "mycli_get_pods")
	dash := e.ok(t, `[{"name":"output","value":"json"},{"name":"limit","value":1},{"name":"args","value":[]}]`, "mcp", "call", "mycli_get_pods", "-")
	if object.stdout != list.stdout || object.stdout != dash.stdout {
		t.Errorf("object form:\n%s\nlist form:\n%s\nlist form with -:\n%s", object.stdout, list.stdout, dash.stdout)
	}
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Stdout string `json:"stdout"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(object.stdout), &res); err != nil || res.IsError {
		t.Fatalf("result %s (%v)", object.stdout, err)
	}
	var pods struct {
		Items []any `json:"items"`
	}
	if err := json.Unmarshal([]byte(res.StructuredContent.Stdout), &pods); err != nil || len(pods.Items) != 1 {
		t.Errorf("--limit 1 -o json gave %q (%v)", res.StructuredContent.Stdout, err)
	}
	// A failed call exits non-zero and still prints its result.
	r := e.run(t, "", "", "mcp", "call", "mycli_fail", "{}")
	if r.code == 0 || !strings.Contains(r.stdout, `"isError": true`) {
		t.Errorf("mycli_fail: exit %d\n%s", r.code, r.stdout)
	}
}

func testE2ECallToolVault(t *testing.T, e *e2e) {
	type response struct {
		Result struct {
			Command string          `json:"command"`
			Payload json.RawMessage `json:"payload"`
		} `json:"result"`
		IsError *bool `json:"isError"`
	}
	decode := func(t *testing.T, s string) response {
		t.Helper()
		var r response
		if err := json.Unmarshal([]byte(s), &r); err != nil || r.IsError == nil {
			t.Fatalf("not a toolvault response: %v\n%s", err, s)
		}
		return r
	}

	version := decode(t, e.ok(t, "", "mcp", "call", "mycli_version", "{}", "--format", "toolvault").stdout)
	var text string
	if err := json.Unmarshal(version.Result.Payload, &text); err != nil {
		t.Fatal(err)
	}
	if version.Result.Command != "showText" || *version.IsError || text != e.ok(t, "", "version").stdout {
		t.Errorf("version: %+v, want showText of what `mycli version` prints", version)
	}

	pods := decode(t, e.ok(t, "", "mcp", "call", "mycli_get_pods", `[{"name":"output","value":"json"}]`, "--format", "toolvault").stdout)
	var got, want any
	if err := json.Unmarshal(pods.Result.Payload, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(e.ok(t, "", "get", "pods", "-o", "json").stdout), &want); err != nil {
		t.Fatal(err)
	}
	if pods.Result.Command != "showData" || !reflect.DeepEqual(got, want) {
		t.Errorf("get pods -o json: %s %s, want showData of the pods", pods.Result.Command, pods.Result.Payload)
	}

	r := e.run(t, "", "", "mcp", "call", "mycli_fail", "{}", "--format", "toolvault")
	failed := decode(t, r.stdout)
	if r.code == 0 || !*failed.IsError || failed.Result.Command != "showText" {
		t.Errorf("mycli_fail: exit %d, %+v", r.code, failed)
	}
}
