package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type config struct {
	calls    int      // echo calls per round
	rounds   int      // rounds of each figure
	inflight int      // calls in flight for the throughput figure
	cold     int      // cold starts per round
	bigMiB   int      // MiB of output for the large-output figure
	bigRuns  int      // runs of the large-output figure
	kubectl  string   // a kubectl with the mcp group (test/realcli/kubectl), or ""
	only     string   // run only the figures whose key contains this
	tags     string   // build tags for kubelite
	against  string   // another checkout of cobramcp, whose kubelite the call figures alternate with
	env      []string // the environment of this checkout's servers in the call figures (-otel)
}

func run() error {
	var cfg config
	flag.IntVar(&cfg.calls, "calls", 300, "echo calls per round")
	flag.IntVar(&cfg.rounds, "rounds", 5, "rounds of each figure")
	flag.IntVar(&cfg.inflight, "inflight", 16, "calls in flight for the throughput figure")
	flag.IntVar(&cfg.cold, "cold", 10, "cold starts per round")
	flag.IntVar(&cfg.bigMiB, "big", 50, "MiB of output for the large-output figure")
	flag.IntVar(&cfg.bigRuns, "bigruns", 3, "runs of the large-output figure")
	flag.StringVar(&cfg.kubectl, "kubectl", "", "path of a kubectl with the mcp group (make kubectl), for cold start on its real tree")
	flag.StringVar(&cfg.tags, "tags", "", "build tags for kubelite (profile: with KUBELITE_CPUPROFILE=FILE in the environment, the server writes a CPU profile)")
	flag.StringVar(&cfg.against, "against", "", "another checkout of cobramcp (say, a git worktree at an older commit): the echo call figures are measured for its kubelite too, alternated with this one's in every round")
	flag.StringVar(&cfg.only, "only", "", "run only the figures whose key contains this (echo, cpu, inflight, sleep, cold, rss, size, big)")
	sdks := flag.String("sdk", "", "instead of the figures, the go-sdk floor built against each of these go-sdk versions (comma-separated, e.g. v1.2.0,v1.8.0), each fetched from the module proxy: binary size and server CPU per call")
	protocol := flag.String("protocol", "", "the protocol version the bench client asks for (e.g. 2025-06-18, what most clients speak today); empty: the go-sdk client's newest, 2026-07-28, which sends _meta with every call")
	otel := flag.Bool("otel", false, "this checkout's servers in the echo call figures export their traces and metrics over OTLP/HTTP to a sink of the bench's (build with -tags telemetry; -against with the same checkout measures the same build without)")
	flag.Parse()
	if *otel {
		endpoint, stop, err := otlpSink()
		if err != nil {
			return err
		}
		defer stop()
		cfg.env = []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint}
	}
	if *protocol != "" {
		sessionOptions = &mcp.ClientSessionOptions{ProtocolVersion: *protocol}
	}

	if *sdks != "" {
		printMachine()
		t := &table{}
		if err := sdkVersions(t, strings.Split(*sdks, ","), cfg); err != nil {
			return err
		}
		t.print(os.Stdout)
		return nil
	}

	want := func(key string) bool { return strings.Contains(key, cfg.only) }
	dir, err := os.MkdirTemp("", "cobramcp-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	with := filepath.Join(dir, "kubelite")
	without := filepath.Join(dir, "kubelite-nobridge")
	sdk := filepath.Join(dir, "kubelite-sdkfloor")
	if err := goBuild(with, "-tags", cfg.tags); err != nil {
		return err
	}
	if err := goBuild(without, "-tags", strings.Trim(cfg.tags+",nobridge", ",")); err != nil {
		return err
	}
	if err := goBuild(sdk, "-tags", strings.Trim(cfg.tags+",sdkfloor", ",")); err != nil {
		return err
	}

	printMachine()
	t := &table{}
	if want("echo") || want("cpu") {
		against := ""
		if cfg.against != "" {
			against = filepath.Join(dir, "kubelite-against")
			if err := goBuildIn(filepath.Join(cfg.against, "test", "bench"), against, "-tags", cfg.tags); err != nil {
				return err
			}
		}
		if err := echoCalls(t, with, sdk, against, cfg); err != nil {
			return err
		}
	}
	if want("inflight") {
		if err := inflight(t, with, cfg); err != nil {
			return err
		}
	}
	if want("sleep") {
		if err := parallelSleeps(t, with, cfg); err != nil {
			return err
		}
	}
	if want("cold") || want("rss") {
		if err := coldStart(t, "kubelite", with, []string{"version"}, cfg); err != nil {
			return err
		}
		if err := coldStart(t, "kubelite with only the go-sdk (one tool)", sdk, []string{"version"}, cfg); err != nil {
			return err
		}
		if cfg.kubectl != "" {
			if err := coldStart(t, "kubectl", cfg.kubectl, []string{"version", "--client"}, cfg); err != nil {
				return err
			}
		}
	}
	if want("size") {
		if err := adopterCost(t, with, without, sdk, cfg); err != nil {
			return err
		}
		if err := optInCost(t, dir, with, cfg); err != nil {
			return err
		}
	}
	if want("big") {
		if err := bigOutput(t, with, cfg); err != nil {
			return err
		}
	}
	t.print(os.Stdout)
	return nil
}

// goBuild builds ./kubelite into out. The binary is built beside out and
// copied there: how the file's pages sit in the page cache changes the CPU
// of starting it (a binary as the linker wrote it started 0.3 to 0.6 ms
// slower than a copy of it on the 2-core machine), so every binary is
// written the same way.
func goBuild(out string, args ...string) error { return goBuildIn(".", out, args...) }

// goBuildIn is goBuild in the bench directory dir of another checkout.
func goBuildIn(dir, out string, args ...string) error {
	cmd := exec.Command("go", append(append([]string{"build", "-o", out + ".built"}, args...), "./kubelite")...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building kubelite %v: %w", args, err)
	}
	b, err := os.ReadFile(out + ".built")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, b, 0o755); err != nil {
		return err
	}
	return os.Remove(out + ".built")
}

// server is one `BIN mcp start` driven by a go-sdk client.
type server struct {
	cmd  *exec.Cmd
	cs   *mcp.ClientSession
	wait bool // close waits for cmd (CommandTransport's Close does it itself)
}

// sessionOptions are the bench client's, from -protocol: nil speaks the
// go-sdk client's newest protocol version.
var sessionOptions *mcp.ClientSessionOptions

func startServer(bin string, env ...string) (*server, error) {
	cmd := exec.Command(bin, "mcp", "start", "--mcp-log-level=error")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, sessionOptions)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s mcp start: %w", bin, err)
	}
	return &server{cmd: cmd, cs: cs}, nil
}

// startServerBig is startServer with no cap on the size of one message
// from the server, for the large-output figure: CommandTransport has no
// such setting, so the process is started here and spoken to over an
// IOTransport.
func startServerBig(bin string, env ...string) (*server, error) {
	cmd := exec.Command(bin, "mcp", "start", "--mcp-log-level=error")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: stdout, Writer: stdin, MaxLineLength: -1}, sessionOptions)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("connecting to %s mcp start: %w", bin, err)
	}
	return &server{cmd: cmd, cs: cs, wait: true}, nil
}

func (s *server) close() {
	_ = s.cs.Close()
	if s.wait {
		_ = s.cmd.Wait()
	}
}

func (s *server) call(name string, args map[string]any) (*mcp.CallToolResult, error) {
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", name, err)
	}
	if res.IsError {
		return nil, fmt.Errorf("calling %s: the result is an error: %+v", name, res.Content[0])
	}
	return res, nil
}

// direct runs bin with args, as the server's child would run, and returns
// its wall time.
func direct(bin string, args ...string) (time.Duration, error) {
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s %v: %w: %s", bin, args, err, out.Bytes())
	}
	return d, nil
}

// echoCalls: echo calls one at a time, each after a direct run of
// `kubelite echo` (whose time is the latency's floor), so that every server
// idles between calls as a client's server does while its commands run.
// The go-sdk floor is driven the same way in the same rounds; with
// -against, the other checkout's kubelite runs beside this one's and the
// two take turns call by call, so that they meet the same load (a round of
// one then a round of the other met different loads on a shared machine:
// per-round ratios from 0.96 to 1.46 at load 10, for the same two builds).
func echoCalls(t *table, bin, sdk, against string, cfg config) error {
	type figures struct{ lat, floor, over, cpu []float64 }
	var ours, theirs figures
	var sdkCPU []float64
	sides := []side{{bin, cfg.env}}
	if against != "" {
		sides = append(sides, side{against, nil})
	}
	for range cfg.rounds {
		c, err := sdkCallCPU(sdk, bin, cfg.calls)
		if err != nil {
			return err
		}
		sdkCPU = append(sdkCPU, c)
		got, err := pacedCalls(cfg.calls, sides...)
		if err != nil {
			return err
		}
		for i, f := range []*figures{&ours, &theirs}[:len(got)] {
			g := got[i]
			f.lat, f.floor, f.over = append(f.lat, g.lat), append(f.floor, g.floor), append(f.over, g.lat-g.floor)
			f.cpu = append(f.cpu, g.cpu)
		}
	}
	t.add(row{"echo call latency (ms)", ours.floor, ours.lat, ours.over, "+ms over direct", "≤ +1.0 (Ophis +1.18)"})
	t.add(row{"server CPU per call (ms)", nil, ours.cpu, nil, "", "≤ 0.7 (Ophis 0.81)"})
	if against != "" {
		t.add(row{"echo call latency, -against (ms)", theirs.floor, theirs.lat, theirs.over, "+ms over direct", "—"})
		ratio := make([]float64, len(ours.cpu))
		for i := range ratio {
			ratio[i] = ours.cpu[i] / theirs.cpu[i]
		}
		t.add(row{"server CPU per call, -against (ms)", nil, theirs.cpu, ratio, "this / -against, per round", "—"})
	}
	t.add(row{"server CPU per call, go-sdk only: a trivial tool, no process, same pace (ms)", nil, sdkCPU, nil, "", "—"})
	return nil
}

// side is a server of the echo call figures: its binary, and what its
// environment adds.
type side struct {
	bin string
	env []string
}

// paced is what pacedCalls measured of a side: the median latency of a
// call and of a direct run, and the server's CPU per call (ms).
type paced struct{ lat, floor, cpu float64 }

// pacedCalls serves n echo calls from each side's `mcp start`, the sides
// taking turns call by call, each call after a direct run of the side's
// `BIN echo`. Which side goes first changes every turn: the side that
// followed the other paid about 2 % less CPU a call (the same build against
// itself gave 1.01 to 1.03 when the order was fixed).
func pacedCalls(n int, sides ...side) ([]paced, error) {
	servers := make([]*server, len(sides))
	defer func() {
		for _, s := range servers {
			if s != nil {
				s.close()
			}
		}
	}()
	args := map[string]any{"args": []string{"hello", "world"}}
	for i, sd := range sides {
		s, err := startServer(sd.bin, sd.env...)
		if err != nil {
			return nil, err
		}
		servers[i] = s
		for range 20 { // warm up: page cache, the server's heap
			if _, err := s.call("kubelite_echo", args); err != nil {
				return nil, err
			}
		}
	}
	cpu0 := make([]time.Duration, len(sides))
	for i, s := range servers {
		c, err := serverCPU(s.cmd.Process.Pid)
		if err != nil {
			return nil, err
		}
		cpu0[i] = c
	}
	mcpD := make([][]float64, len(sides))
	dirD := make([][]float64, len(sides))
	order := make([]int, len(servers))
	for k := range n {
		for j := range order {
			order[j] = (j + k) % len(order)
		}
		for _, i := range order {
			s := servers[i]
			d, err := direct(sides[i].bin, "echo", "hello", "world")
			if err != nil {
				return nil, err
			}
			dirD[i] = append(dirD[i], ms(d))
			start := time.Now()
			if _, err := s.call("kubelite_echo", args); err != nil {
				return nil, err
			}
			mcpD[i] = append(mcpD[i], ms(time.Since(start)))
		}
	}
	out := make([]paced, len(sides))
	for i, s := range servers {
		cpu1, err := serverCPU(s.cmd.Process.Pid)
		if err != nil {
			return nil, err
		}
		out[i] = paced{median(mcpD[i]), median(dirD[i]), ms(cpu1-cpu0[i]) / float64(n)}
	}
	return out, nil
}

// sdkCallCPU is the server CPU per call of the go-sdk floor's trivial tool
// over n calls, after a warm-up, each call after a direct run of `bin
// echo` as in echoCalls: a Go server that idles between calls pays for
// waking up each time (served back to back, as this bench did until
// 2026-11-25, the floor measured 0.20 to 0.27 ms a call; at this pace 0.40
// to 0.47).
func sdkCallCPU(sdk, bin string, n int) (float64, error) {
	s, err := startServer(sdk)
	if err != nil {
		return 0, err
	}
	defer s.close()
	args := map[string]any{"args": []string{"hello", "world"}}
	for range 20 {
		if _, err := s.call("echo", args); err != nil {
			return 0, err
		}
	}
	cpu0, err := procCPU(s.cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	for range n {
		if _, err := direct(bin, "echo", "hello", "world"); err != nil {
			return 0, err
		}
		if _, err := s.call("echo", args); err != nil {
			return 0, err
		}
	}
	cpu1, err := procCPU(s.cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	return ms(cpu1-cpu0) / float64(n), nil
}

// inflight: calls/s with cfg.inflight calls in flight, over one session and
// directly.
func inflight(t *table, bin string, cfg config) error {
	var mcpR, dirR, ratio, cpu []float64
	n := cfg.inflight * 20
	for range cfg.rounds {
		s, err := startServer(bin)
		if err != nil {
			return err
		}
		args := map[string]any{"args": []string{"hello"}}
		if _, err := s.call("kubelite_echo", args); err != nil { // the guard starts with the first call
			s.close()
			return err
		}
		cpu0, err := serverCPU(s.cmd.Process.Pid)
		if err != nil {
			s.close()
			return err
		}
		d, err := parallel(cfg.inflight, n, func() error { _, err := s.call("kubelite_echo", args); return err })
		cpu1, cerr := serverCPU(s.cmd.Process.Pid)
		s.close()
		if err = errors.Join(err, cerr); err != nil {
			return err
		}
		cpu = append(cpu, ms(cpu1-cpu0)/float64(n))
		dd, err := parallel(cfg.inflight, n, func() error { _, err := direct(bin, "echo", "hello"); return err })
		if err != nil {
			return err
		}
		m, f := float64(n)/d.Seconds(), float64(n)/dd.Seconds()
		mcpR, dirR, ratio = append(mcpR, m), append(dirR, f), append(ratio, m/f)
	}
	t.add(row{fmt.Sprintf("%d calls in flight (calls/s)", cfg.inflight), dirR, mcpR, ratio, "× direct", "≥ 0.92× (Ophis 0.87–0.92×)"})
	t.add(row{fmt.Sprintf("server CPU per call, %d in flight (ms)", cfg.inflight), nil, cpu, nil, "", "—"})
	return nil
}

// parallel runs f n times, workers at a time, and returns the wall time.
func parallel(workers, n int, f func() error) (time.Duration, error) {
	jobs := make(chan struct{}, n)
	for range n {
		jobs <- struct{}{}
	}
	close(jobs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for range jobs {
				if err := f(); err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start), first
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// parallelSleeps: a batch of 16 calls of `sleep --for 1s` at once.
func parallelSleeps(t *table, bin string, cfg config) error {
	var mcpD, dirD []float64
	for range cfg.rounds {
		s, err := startServer(bin)
		if err != nil {
			return err
		}
		args := map[string]any{"flags": map[string]any{"for": "1s"}}
		d, err := parallel(16, 16, func() error { _, err := s.call("kubelite_sleep", args); return err })
		s.close()
		if err != nil {
			return err
		}
		dd, err := parallel(16, 16, func() error { _, err := direct(bin, "sleep", "--for", "1s"); return err })
		if err != nil {
			return err
		}
		mcpD, dirD = append(mcpD, d.Seconds()), append(dirD, dd.Seconds())
	}
	t.add(row{"16 parallel 1 s calls (s)", dirD, mcpD, diff(mcpD, dirD), "+s over direct", "≤ 1.042 (Ophis)"})
	return nil
}

// coldStart: from starting `BIN mcp start` to the tools/list answer, and the
// server's RSS then, against the CLI's own start (BIN floorArgs).
func coldStart(t *table, name, bin string, floorArgs []string, cfg config) error {
	var mcpD, dirD, rss, anon []float64
	tools := 0
	for range cfg.rounds {
		for range cfg.cold {
			d, err := direct(bin, floorArgs...)
			if err != nil {
				return err
			}
			dirD = append(dirD, ms(d))
			start := time.Now()
			s, err := startServer(bin)
			if err != nil {
				return err
			}
			res, err := s.cs.ListTools(context.Background(), nil)
			if err != nil {
				s.close()
				return err
			}
			mcpD = append(mcpD, ms(time.Since(start)))
			tools = len(res.Tools)
			time.Sleep(100 * time.Millisecond) // idle
			kib, err := procStatusKiB(s.cmd.Process.Pid, "VmRSS")
			var akib float64
			if err == nil {
				akib, err = procStatusKiB(s.cmd.Process.Pid, "RssAnon")
			}
			s.close()
			if err != nil {
				return err
			}
			rss, anon = append(rss, kib/1024), append(anon, akib/1024)
		}
	}
	t.add(row{fmt.Sprintf("cold start to tools/list, %s, %d tools (ms)", name, tools), dirD, mcpD, []float64{median(mcpD) - median(dirD)}, "+ms over its own start", "≤ +8 over own start (Ophis +8, 11.5 ms total on its CLI)"})
	t.add(row{fmt.Sprintf("server RSS idle after tools/list, %s (MiB)", name), nil, rss, nil, "", "≤ 11.3 (Ophis)"})
	// The rest is the binary's pages (RssFile), which grows with its size
	// and with how its file sits in the page cache.
	t.add(row{fmt.Sprintf("of which anonymous (heap, stacks), %s (MiB)", name), nil, anon, nil, "", "—"})
	return nil
}

// adopterCost: the adopting CLI's size and the CPU of running one of its
// own commands, with and without cobramcp linked, and with only the go-sdk
// linked (sdk: kubelite/sdkfloor.go), the floor of any bridge built on it.
func adopterCost(t *table, with, without, sdk string, cfg config) error {
	so, err := fileMB(without)
	if err != nil {
		return err
	}
	for _, b := range []struct{ name, bin, target string }{
		{"go-sdk only", sdk, "—"},
		{"cobramcp", with, "≤ +9.9 (Ophis +8.9, + 1)"},
	} {
		sw, err := fileMB(b.bin)
		if err != nil {
			return err
		}
		t.add(row{"adopting CLI binary, " + b.name + " (MB)", []float64{so}, []float64{sw}, []float64{sw - so}, "+MB", b.target})
	}
	// Interleaved runs, so that the three see the same machine.
	var cw, cs, co []float64
	for range cfg.rounds {
		var rw, rs, ro []float64
		for range 60 {
			for _, r := range []struct {
				bin string
				to  *[]float64
			}{{without, &ro}, {sdk, &rs}, {with, &rw}} {
				d, err := childCPU(r.bin, "version")
				if err != nil {
					return err
				}
				*r.to = append(*r.to, ms(d))
			}
		}
		co, cs, cw = append(co, median(ro)), append(cs, median(rs)), append(cw, median(rw))
	}
	t.add(row{"CPU of `kubelite version`, go-sdk only (ms)", co, cs, ratioPct(cs, co), "% over without", "—"})
	t.add(row{"CPU of `kubelite version`, cobramcp (ms)", co, cw, ratioPct(cw, co), "% over without", "≤ +10 % (Ophis +49 %)"})
	return nil
}

// optInCost: what each opt-in adds to kubelite's binary (built with the
// tags oauth and telemetry, bridge.WithOAuth and bridge.WithTelemetry), and
// what is left of it in a kubelite that does not opt in: the text of
// bridge's code for the part (its flags, its refusal), from the binary's
// symbol table.
func optInCost(t *table, dir, with string, cfg config) error {
	base, err := fileMB(with)
	if err != nil {
		return err
	}
	for _, p := range []struct{ tag, name, symbols string }{
		{"oauth", "OAuth (bridge.WithOAuth(oauth.New))", "oauth"},
		{"telemetry", "telemetry (bridge.WithTelemetry(telemetry.New))", "telemetry|metrics"},
	} {
		bin := filepath.Join(dir, "kubelite-"+p.tag)
		if err := goBuild(bin, "-tags", strings.Trim(cfg.tags+","+p.tag, ",")); err != nil {
			return err
		}
		mb, err := fileMB(bin)
		if err != nil {
			return err
		}
		t.add(row{"opting into " + p.name + " (MB)", []float64{base}, []float64{mb}, []float64{mb - base}, "+MB", "—"})
		kb, err := symbolsKB(with, "github.com/cobramcp/cobramcp/bridge", p.symbols)
		if err != nil {
			return err
		}
		t.add(row{"code of " + p.tag + " left without the opt-in (KB of text)", nil, []float64{kb}, nil, "", "≤ 100"})
	}
	return nil
}

// symbolsKB sums the sizes of bin's symbols of package pkg whose names
// match re (case-insensitive), in KB.
func symbolsKB(bin, pkg, re string) (float64, error) {
	out, err := exec.Command("go", "tool", "nm", "-size", bin).Output()
	if err != nil {
		return 0, fmt.Errorf("go tool nm %s: %w", bin, err)
	}
	match := regexp.MustCompile("(?i)" + re)
	var n int
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || !strings.HasPrefix(f[3], pkg+".") || !match.MatchString(f[3]) {
			continue
		}
		size, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		n += size
	}
	return float64(n) / 1000, nil
}

// bigOutput: one call printing cfg.bigMiB MiB, served uncapped.
func bigOutput(t *table, bin string, cfg config) error {
	bytes := strconv.Itoa(cfg.bigMiB << 20)
	var mcpD, dirD, peak []float64
	for range cfg.bigRuns {
		d, err := direct(bin, "dump", "--bytes", bytes)
		if err != nil {
			return err
		}
		dirD = append(dirD, d.Seconds())
		s, err := startServerBig(bin, "KUBELITE_UNCAPPED=1")
		if err != nil {
			return err
		}
		start := time.Now()
		res, err := s.call("kubelite_dump", map[string]any{"flags": map[string]any{"bytes": cfg.bigMiB << 20}})
		el := time.Since(start)
		if err == nil && len(res.Content) == 0 {
			err = errors.New("dump: no content")
		}
		var kib float64
		if err == nil {
			kib, err = procStatusKiB(s.cmd.Process.Pid, "VmHWM")
		}
		s.close()
		if err != nil {
			return err
		}
		mcpD, peak = append(mcpD, el.Seconds()), append(peak, kib/1024)
	}
	t.add(row{fmt.Sprintf("%d MiB of output, uncapped (s)", cfg.bigMiB), dirD, mcpD, nil, "", "≤ 7.9 (Ophis)"})
	t.add(row{fmt.Sprintf("%d MiB of output, server peak RSS (MiB)", cfg.bigMiB), nil, peak, nil, "", "≤ 894 (Ophis)"})
	return nil
}

// childCPU runs bin args and returns its user+system CPU.
func childCPU(bin string, args ...string) (time.Duration, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s %v: %w", bin, args, err)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// serverCPU is the user+system CPU of the server pid and of its guard (a
// child it keeps to end its calls' groups should it be killed; see
// exec/guard_linux.go), not of the commands it ran.
func serverCPU(pid int) (time.Duration, error) {
	cpu, err := procCPU(pid)
	if err != nil {
		return 0, err
	}
	names, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		return 0, err
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil || !bytes.HasPrefix(b, []byte("cobramcp-guard\x00")) {
			continue
		}
		p, err := strconv.Atoi(filepath.Base(filepath.Dir(name)))
		if err != nil || ppid(p) != pid {
			continue
		}
		if g, err := procCPU(p); err == nil {
			cpu += g
		}
	}
	return cpu, nil
}

// ppid is the parent of process pid, or -1.
func ppid(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	p, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return p
}

// procCPU is the user+system CPU of process pid alone (not its children):
// its CPU-time clock, to the nanosecond, else /proc/PID/stat's, in clock
// ticks.
func procCPU(pid int) (time.Duration, error) {
	if d, ok := processCPUClock(pid); ok {
		return d, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	// After ")": state(0) ... utime is field 14 of the line, index 11 here.
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const hz = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / hz, nil
}

// procStatusKiB reads a "KEY: N kB" line of /proc/PID/status.
func procStatusKiB(pid int, key string) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			f := strings.Fields(v)
			return strconv.ParseFloat(f[0], 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", key, pid)
}

func fileMB(path string) (float64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return float64(fi.Size()) / 1e6, nil
}

// printMachine prints the machine and the command, above every table.
func printMachine() {
	fmt.Printf("machine: %s, %d cores, %s/%s, %s\n", cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Printf("command: go run . %s\n\n", strings.Join(os.Args[1:], " "))
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "unknown CPU"
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func diff(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

func ratioPct(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = 100 * (a[i]/b[i] - 1)
	}
	return out
}
