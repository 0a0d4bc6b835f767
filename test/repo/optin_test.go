package repo_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTelemetryIsOptIn: no package an adopter links without asking for
// telemetry imports package telemetry or OpenTelemetry, even through
// another; the Prometheus client comes only with them. A CLI that does not
// give bridge.WithTelemetry links none of it.
func TestTelemetryIsOptIn(t *testing.T) {
	pkgs := []string{"./bridge", "./toolset", "./serve", "./access", "./audit"}
	out, err := exec.Command("go", append([]string{"list", "-C", root, "-deps", "-f", "{{.ImportPath}}"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list found %d dependencies of %v: %q", len(deps), pkgs, deps)
	}
	for _, d := range deps {
		if d == module+"/telemetry" || strings.HasPrefix(d, "go.opentelemetry.io/") || strings.HasPrefix(d, "github.com/prometheus/") {
			t.Errorf("%v depend on %s: telemetry is an opt-in (bridge.WithTelemetry)", pkgs, d)
		}
	}
}
