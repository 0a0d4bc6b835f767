package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// sdkVersions: what the go-sdk itself costs, version by version. The
// go-sdk floor (kubelite/sdkfloor.go: the go-sdk and one trivial tool, no
// bridge) is built against each version in a module of its own, fetched
// from the module proxy; each gives its binary's size over kubelite
// without the go-sdk, and its server's CPU per call at the echo calls'
// pace (sdkCallCPU, each call after a direct run of the floor's own
// `echo`). Rounds alternate the versions, so that they meet the same load.
func sdkVersions(t *table, versions []string, cfg config) error {
	dir, err := os.MkdirTemp("", "cobramcp-sdkversions-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	plain, err := buildAgainstSDK(dir, "none", "nobridge")
	if err != nil {
		return err
	}
	base, err := fileMB(plain)
	if err != nil {
		return err
	}
	bins := map[string]string{}
	for _, v := range versions {
		if bins[v], err = buildAgainstSDK(dir, v, "sdkfloor"); err != nil {
			return err
		}
	}
	cpu := map[string][]float64{}
	for range cfg.rounds {
		for _, v := range versions {
			c, err := sdkCallCPU(bins[v], bins[v], cfg.calls)
			if err != nil {
				return fmt.Errorf("go-sdk %s: %w", v, err)
			}
			cpu[v] = append(cpu[v], c)
		}
	}
	for _, v := range versions {
		size, err := fileMB(bins[v])
		if err != nil {
			return err
		}
		t.add(row{"kubelite binary, go-sdk " + v + " floor (MB)", []float64{base}, []float64{size}, []float64{size - base}, "+MB over without the go-sdk", "—"})
		t.add(row{"server CPU per call, go-sdk " + v + " floor, echo pace (ms)", nil, cpu[v], nil, "", "—"})
	}
	return nil
}

// buildAgainstSDK builds kubelite with the build tag against go-sdk
// version v ("none": without it), in a module of its own under dir that
// requires cobra v1.9.1 and that version, and returns the binary (written
// as goBuild writes every binary of the bench).
func buildAgainstSDK(dir, v, tag string) (string, error) {
	mod := filepath.Join(dir, "mod-"+v)
	src := filepath.Join(mod, "kubelite")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	for _, f := range []string{"main.go", "sdkfloor.go"} {
		b, err := os.ReadFile(filepath.Join("kubelite", f))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(src, f), b, 0o644); err != nil {
			return "", err
		}
	}
	steps := [][]string{{"mod", "init", "kubelite"}, {"get", "github.com/spf13/cobra@v1.9.1"}}
	if v != "none" {
		steps = append(steps, []string{"get", "github.com/modelcontextprotocol/go-sdk/mcp@" + v})
	}
	for _, args := range steps {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s for go-sdk %s: %w\n%s", strings.Join(args, " "), v, err, b)
		}
	}
	out := filepath.Join(dir, "kubelite-"+v)
	return out, goBuildIn(mod, out, "-tags", tag)
}
