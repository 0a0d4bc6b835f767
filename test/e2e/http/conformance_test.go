package httpe2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// baselines are the conformance suite's expected failures of each mode,
// in its own YAML format, relative to this package.
var baselines = map[string]string{
	"stateful":  "../../../testdata/conformance/expected-failures.yml",
	"stateless": "../../../testdata/conformance/expected-failures-stateless.yml",
}

// anyServer are the scenarios that apply to any MCP server: they must run
// and pass (server-sse-multiple-streams only where there are sessions).
var anyServer = []string{
	"server-initialize", "ping", "logging-set-level", "tools-list",
	"dns-rebinding-protection", "server-sse-multiple-streams",
}

func TestConformance(t *testing.T) {
	dir := nodeModules(t)
	suite := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			baseline := baselines[m.name]
			expected := readBaseline(t, baseline)
			s := startServer(t, nil, m.args...)
			out := t.TempDir()
			base, _ := filepath.Abs(baseline)
			cmd := exec.Command(node22(t), suite, "server", "--url", s.url, "-o", out, "--expected-failures", base)
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "NO_COLOR=1"}
			output, runErr := cmd.CombinedOutput()

			results := readResults(t, out)
			var unexpectedFail, unexpectedPass []string
			for name, r := range results {
				switch {
				case r.failed && !expected[name]:
					unexpectedFail = append(unexpectedFail, name+": "+r.message)
				case !r.failed && expected[name]:
					unexpectedPass = append(unexpectedPass, name)
				}
				for _, w := range r.warnings {
					t.Logf("%s: warning: %s", name, w)
				}
			}
			sort.Strings(unexpectedFail)
			sort.Strings(unexpectedPass)
			for _, f := range unexpectedFail {
				t.Errorf("unexpected failure (fix it, or list it in %s with the reason): %s", baseline, f)
			}
			for _, p := range unexpectedPass {
				t.Errorf("%s passes now: remove it from %s", p, baseline)
			}
			for name := range expected {
				if _, ran := results[name]; !ran {
					t.Errorf("%s is in the baseline but did not run", name)
				}
			}
			for _, name := range anyServer {
				if m.name == "stateless" && name == "server-sse-multiple-streams" {
					continue
				}
				if r, ran := results[name]; !ran || r.failed {
					t.Errorf("%s: ran %v, failed %v; it applies to any server and must pass", name, ran, ran && r.failed)
				}
			}
			if runErr != nil && len(unexpectedFail)+len(unexpectedPass) == 0 {
				t.Errorf("the suite exited with %v though the results match the baseline:\n%s", runErr, output)
			}
			if t.Failed() {
				t.Logf("suite output:\n%s\nserver stderr:\n%s", output, s.stderr)
			} else {
				t.Logf("%d scenarios: %d expected failures, the rest pass", len(results), len(expected))
			}
		})
	}
}

// readBaseline reads the scenario names listed under "server:".
func readBaseline(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[string]bool{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			in = strings.TrimSpace(line) == "server:"
			continue
		}
		if in {
			name, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
			if !ok {
				t.Fatalf("%s: not a list item: %q", path, line)
			}
			names[strings.TrimSpace(name)] = true
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s lists no server scenario", path)
	}
	return names
}

// result is one scenario's outcome.
type result struct {
	failed   bool
	message  string
	warnings []string
}

var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T`)

// readResults reads the checks.json of each scenario the suite saved in dir.
func readResults(t *testing.T, dir string) map[string]result {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]result{}
	for _, e := range ents {
		m := resultDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID           string `json:"id"`
			Status       string `json:"status"`
			ErrorMessage string `json:"errorMessage"`
		}
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		var r result
		passed := 0
		for _, c := range checks {
			switch c.Status {
			case "SUCCESS":
				passed++
			case "FAILURE":
				r.failed = true
				if r.message == "" {
					r.message = c.ID + ": " + c.ErrorMessage
				}
			case "WARNING":
				r.warnings = append(r.warnings, c.ID)
			}
		}
		if passed == 0 && !r.failed {
			// As the suite counts: no check passed, so the scenario did not.
			r.failed, r.message = true, "no check passed"
		}
		results[m[1]] = r
	}
	if len(results) == 0 {
		t.Fatalf("the suite saved no results in %s", dir)
	}
	return results
}
