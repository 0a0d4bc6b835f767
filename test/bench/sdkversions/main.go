// Command sdkversions measures what the go-sdk itself costs, version by
// version: kubelite built with -tags sdkfloor (../kubelite: the go-sdk and
// one trivial tool, no bridge) against each go-sdk version given, its
// binary's size over kubelite without it, and its server's CPU per call
// when served at the pace of the bench's echo calls (each call after a
// direct run of `kubelite echo`, so that the server idles between calls
// as a client's does while its commands run). Rounds alternate the
// versions so that they meet the same load.
//
//	cd test/bench/sdkversions && go run . [-rounds 6] [-calls 300] [-protocol 2025-06-18] [v1.2.0 v1.4.1 ...]
//
// The go-sdk client of v1.8.0 asks for the 2026-07-28 protocol, which
// sends a _meta with every call; a server of an older go-sdk answers with
// the newest version it speaks, and its calls carry none. -protocol
// 2025-06-18 compares every version on the protocol most clients speak.
//
// Each version is built in a module of its own under a temporary
// directory, fetched from the module proxy.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "sdkversions:", err)
		os.Exit(1)
	}
}

func run() error {
	rounds := flag.Int("rounds", 6, "rounds; each measures every version once")
	calls := flag.Int("calls", 300, "calls per version and round")
	protocol := flag.String("protocol", "", "the protocol version the client asks for (e.g. 2025-06-18); empty: the go-sdk client's newest (a server that does not speak it answers with its own)")
	flag.Parse()
	versions := flag.Args()
	if len(versions) == 0 {
		versions = []string{"v1.2.0", "v1.4.1", "v1.7.0", "v1.8.0"}
	}
	src, err := filepath.Abs("../kubelite")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "cobramcp-sdkversions-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	plain, err := build(dir, src, "none", "nobridge")
	if err != nil {
		return err
	}
	base, err := size(plain)
	if err != nil {
		return err
	}
	bins := map[string]string{}
	for _, v := range versions {
		if bins[v], err = build(dir, src, v, "sdkfloor"); err != nil {
			return err
		}
	}
	cpu := map[string][]float64{}
	for range *rounds {
		for _, v := range versions {
			c, err := pacedCPU(bins[v], *calls, *protocol)
			if err != nil {
				return fmt.Errorf("%s: %w", v, err)
			}
			cpu[v] = append(cpu[v], c)
		}
	}

	fmt.Printf("machine: %d cores, %s/%s, %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Printf("command: go run . %s\n\n", strings.Join(os.Args[1:], " "))
	fmt.Println("| go-sdk | binary over kubelite without it (MB) | server CPU per call at the bench's pace (ms, min / median / max) |")
	fmt.Println("| --- | --- | --- |")
	for _, v := range versions {
		s, err := size(bins[v])
		if err != nil {
			return err
		}
		c := slices.Sorted(slices.Values(cpu[v]))
		fmt.Printf("| %s | +%.1f | %.2f / %.2f / %.2f |\n", v, float64(s-base)/1e6, c[0], c[len(c)/2], c[len(c)-1])
	}
	return nil
}

// build builds kubelite from src with the build tag against go-sdk
// version v (none: without it) in a module of its own, and returns the
// binary, copied once written (see ../main.go's goBuild).
func build(dir, src, v, tag string) (string, error) {
	mod := filepath.Join(dir, "mod-"+v)
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return "", err
	}
	for _, f := range []string{"main.go", "sdkfloor.go"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(mod, f), b, 0o644); err != nil {
			return "", err
		}
	}
	steps := [][]string{{"mod", "init", "kubelite"}, {"get", "github.com/spf13/cobra@v1.9.1"}}
	if v != "none" {
		steps = append(steps, []string{"get", "github.com/modelcontextprotocol/go-sdk@" + v})
	}
	out := filepath.Join(dir, "kubelite-"+v)
	steps = append(steps, []string{"build", "-tags", tag, "-o", out + ".built", "."})
	for _, args := range steps {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s for %s: %w\n%s", strings.Join(args, " "), v, err, b)
		}
	}
	b, err := os.ReadFile(out + ".built")
	if err != nil {
		return "", err
	}
	return out, os.WriteFile(out, b, 0o755)
}

func size(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// pacedCPU serves n calls of the floor's echo tool from bin's `mcp
// start`, each after a direct run of `bin echo`, and returns the server's
// CPU per call.
func pacedCPU(bin string, n int, protocol string) (float64, error) {
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "start")
	client := mcp.NewClient(&mcp.Implementation{Name: "sdkversions", Version: "v1.0.0"}, nil)
	var opts *mcp.ClientSessionOptions
	if protocol != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	}
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	args := map[string]any{"args": []string{"hello", "world"}}
	call := func() error {
		_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args})
		return err
	}
	for range 20 { // warm up
		if err := call(); err != nil {
			return 0, err
		}
	}
	c0, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	for range n {
		if b, err := exec.Command(bin, "echo", "hello", "world").CombinedOutput(); err != nil {
			return 0, fmt.Errorf("%s echo: %w: %s", bin, err, b)
		}
		if err := call(); err != nil {
			return 0, err
		}
	}
	c1, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	return float64(c1-c0) / float64(time.Millisecond) / float64(n), nil
}

// procCPU is the user+system CPU of process pid, from /proc/PID/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("reading %d's CPU: %v %v", pid, err1, err2)
	}
	const hz = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / hz, nil
}
