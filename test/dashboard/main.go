// Command dashboard draws the picture of docs/observability.md from a real
// run: it serves mycli with `cobramcp stream --metrics-addr` under a load
// of go-sdk clients, scrapes /metrics into a Prometheus TSDB, evaluates
// every panel's PromQL of docs/grafana/cobramcp-dashboard.json with
// Prometheus's own query engine, and draws the results with gonum/plot in
// the dashboard's layout. It is a module of its own (Prometheus and gonum
// are no dependency of the library); `make dashboard-picture` runs it.
//
//	go run . -cobramcp ../../bin/cobramcp -mycli ../../bin/mycli -duration 4m
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/tsdb"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/cobramcp/cobramcp/test/proctest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "dashboard:", err)
		os.Exit(1)
	}
}

type config struct {
	cobramcp, mycli, dashboard, out string
	duration, scrape                time.Duration
}

func run() error {
	var cfg config
	flag.StringVar(&cfg.cobramcp, "cobramcp", "../../bin/cobramcp", "the cobramcp binary (make build)")
	flag.StringVar(&cfg.mycli, "mycli", "../../bin/mycli", "the example CLI (make build)")
	flag.StringVar(&cfg.dashboard, "dashboard", "../../docs/grafana/cobramcp-dashboard.json", "the dashboard whose panels are drawn")
	flag.StringVar(&cfg.out, "out", "../../docs/images/observability-dashboard.png", "the picture written")
	flag.DurationVar(&cfg.duration, "duration", 4*time.Minute, "how long the load runs")
	flag.DurationVar(&cfg.scrape, "scrape", 5*time.Second, "the scrape interval")
	flag.Parse()

	dir, err := os.MkdirTemp("", "cobramcp-dashboard-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	mcpURL, metricsURL, stop, err := serve(cfg, dir)
	if err != nil {
		return err
	}
	defer stop()
	db, err := tsdb.Open(filepath.Join(dir, "tsdb"), slog.New(slog.DiscardHandler), nil, tsdb.DefaultOptions(), nil)
	if err != nil {
		return err
	}
	defer db.Close()

	ctx, cancel := context.WithCancel(context.Background())
	start := time.Now()
	var scrapes sync.WaitGroup
	scrapes.Add(1)
	go func() {
		defer scrapes.Done()
		tick := time.NewTicker(cfg.scrape)
		defer tick.Stop()
		for {
			if err := scrape(ctx, db, metricsURL); err != nil && ctx.Err() == nil {
				fmt.Fprintln(os.Stderr, "scrape:", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	calls := load(ctx, mcpURL, cfg.duration)
	end := time.Now() // the picture ends with the load, before its sessions close
	time.Sleep(cfg.scrape + time.Second)
	cancel()
	scrapes.Wait()
	fmt.Fprintf(os.Stderr, "%d calls in %s\n", calls, end.Sub(start).Round(time.Second))
	return drawDashboard(cfg, db, start, end)
}

// serve starts `cobramcp stream` on loopback with /metrics, 4 call slots
// and a queue of at most 6, and returns its two URLs.
func serve(cfg config, dir string) (mcpURL, metricsURL string, stop func(), err error) {
	cmd := exec.Command(cfg.cobramcp, "stream", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0",
		"--max-parallel", "4", "--max-queue", "6", "--", cfg.mycli)
	cmd.Env = append(os.Environ(), "MYCLI_STATE="+filepath.Join(dir, "state.json"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", "", nil, err
	}
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	urls, err := proctest.ServedURLs(stderr, 2, 2*time.Minute)
	if err != nil {
		stop()
		return "", "", nil, fmt.Errorf("cobramcp stream did not serve: %w", err)
	}
	for _, u := range urls {
		if strings.HasSuffix(u, "/metrics") {
			metricsURL = u
		} else {
			mcpURL = u
		}
	}
	return mcpURL, metricsURL, stop, nil
}

// scrape reads /metrics once and appends its samples to db, with the job
// and instance labels a Prometheus would add.
func scrape(ctx context.Context, db *tsdb.DB, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return err
	}
	ts := time.Now().UnixMilli()
	app := db.Appender(ctx)
	add := func(name string, m *dto.Metric, v float64, extra ...string) error {
		b := labels.NewScratchBuilder(8)
		b.Add("__name__", name)
		b.Add("job", "cobramcp")
		b.Add("instance", "mcp-host:9464")
		for _, l := range m.GetLabel() {
			b.Add(l.GetName(), l.GetValue())
		}
		for i := 0; i+1 < len(extra); i += 2 {
			b.Add(extra[i], extra[i+1])
		}
		b.Sort()
		_, err := app.Append(0, b.Labels(), ts, v)
		return err
	}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			var errs []error
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				errs = append(errs, add(name, m, m.GetCounter().GetValue()))
			case dto.MetricType_GAUGE:
				errs = append(errs, add(name, m, m.GetGauge().GetValue()))
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				for _, b := range h.GetBucket() {
					errs = append(errs, add(name+"_bucket", m, float64(b.GetCumulativeCount()), "le", le(b.GetUpperBound())))
				}
				errs = append(errs, add(name+"_sum", m, h.GetSampleSum()), add(name+"_count", m, float64(h.GetSampleCount())))
			}
			if err := errors.Join(errs...); err != nil {
				_ = app.Rollback()
				return err
			}
		}
	}
	return app.Commit()
}

func le(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// load runs the clients until d has passed and returns the calls made:
// three steady sessions of mixed calls, sessions that come and go, and
// every 40 s a burst that fills the 4 slots and the queue.
func load(ctx context.Context, url string, d time.Duration) int {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	n := 0
	count := func() { mu.Lock(); n++; mu.Unlock() }
	var wg sync.WaitGroup
	connect := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "dashboard-load", Version: "0"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		if err != nil {
			fmt.Fprintln(os.Stderr, "connect:", err)
			return nil
		}
		return cs
	}
	type call struct {
		weight int
		name   string
		args   map[string]any
	}
	mix := []call{
		{30, "mycli_get_pods", map[string]any{}},
		{15, "mycli_get_services", map[string]any{"flags": map[string]any{"output": "json"}}},
		{10, "mycli_describe_pod", map[string]any{"args": []string{"web-7f9c4d-abc12"}}},
		{8, "mycli_logs", map[string]any{"args": []string{"web-7f9c4d-abc12"}}},
		{10, "mycli_sleep", map[string]any{"flags": map[string]any{"for": "300ms"}}},
		{4, "mycli_sleep", map[string]any{"flags": map[string]any{"for": "1500ms"}}},
		{5, "mycli_fail", map[string]any{"flags": map[string]any{"code": 2}}},
		{3, "mycli_describe_pod", map[string]any{"args": []string{"web-1"}}},                                                // no such pod: exit 1
		{3, "mycli_scale_deployment", map[string]any{"args": []string{"web"}, "flags": map[string]any{"replicas": "many"}}}, // refused
		{1, "mycli_restart", map[string]any{}},                                                                              // no such tool
	}
	total := 0
	for _, c := range mix {
		total += c.weight
	}
	pick := func(r *rand.Rand) call {
		w := r.IntN(total)
		for _, c := range mix {
			if w < c.weight {
				return c
			}
			w -= c.weight
		}
		return mix[0]
	}
	worker := func(seed uint64, life time.Duration) {
		defer wg.Done()
		r := rand.New(rand.NewPCG(seed, 7))
		cs := connect()
		if cs == nil {
			return
		}
		defer cs.Close()
		until := time.Now().Add(life)
		for ctx.Err() == nil && time.Now().Before(until) {
			c := pick(r)
			_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
			count()
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(100+r.IntN(400)) * time.Millisecond):
			}
		}
	}
	for i := range 3 {
		wg.Add(1)
		go worker(uint64(i), d)
	}
	// Sessions that come and go, and the bursts.
	wg.Add(1)
	go func() {
		defer wg.Done()
		sessions := time.NewTicker(15 * time.Second)
		bursts := time.NewTicker(40 * time.Second)
		defer sessions.Stop()
		defer bursts.Stop()
		seed := uint64(100)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sessions.C:
				seed++
				wg.Add(1)
				go worker(seed, time.Duration(20+seed%40)*time.Second)
			case <-bursts.C:
				cs := connect()
				if cs == nil {
					continue
				}
				var burst sync.WaitGroup
				for range 12 {
					burst.Add(1)
					go func() {
						defer burst.Done()
						_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_sleep", Arguments: map[string]any{"flags": map[string]any{"for": "2s"}}})
						count()
					}()
				}
				burst.Wait()
				cs.Close()
			}
		}
	}()
	wg.Wait()
	return n
}

// dashboard is the part of a Grafana dashboard's JSON that is drawn.
type dashboard struct {
	Title  string `json:"title"`
	Panels []struct {
		Type    string                   `json:"type"`
		Title   string                   `json:"title"`
		GridPos struct{ H, W, X, Y int } `json:"gridPos"`
		Targets []struct {
			Expr         string `json:"expr"`
			LegendFormat string `json:"legendFormat"`
		} `json:"targets"`
		FieldConfig struct {
			Defaults struct {
				Unit string `json:"unit"`
			} `json:"defaults"`
		} `json:"fieldConfig"`
	} `json:"panels"`
}

// The picture's scale: pixels per grid column and per grid row.
const (
	colPx = 75
	rowPx = 34
)

// drawDashboard evaluates each panel's queries over [start, end] and draws them
// where the dashboard puts them.
func drawDashboard(cfg config, db *tsdb.DB, start, end time.Time) error {
	b, err := os.ReadFile(cfg.dashboard)
	if err != nil {
		return err
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Errorf("%s: %w", cfg.dashboard, err)
	}
	rows := 0
	for _, p := range d.Panels {
		rows = max(rows, p.GridPos.Y+p.GridPos.H)
	}
	const header = 40
	canvas := image.NewRGBA(image.Rect(0, 0, 24*colPx, header+rows*rowPx))
	draw.Draw(canvas, canvas.Bounds(), &image.Uniform{color.RGBA{0xf4, 0xf5, 0xf5, 0xff}}, image.Point{}, draw.Src)
	titlePlot := plot.New()
	titlePlot.HideAxes()
	titlePlot.Title.Text = fmt.Sprintf("%s: mycli served by cobramcp stream, %s of load (4 call slots), scraped every %s", d.Title, end.Sub(start).Round(time.Second), cfg.scrape)
	titlePlot.Title.TextStyle.Font.Size = vg.Points(13)
	titlePlot.BackgroundColor = color.Transparent
	paste(canvas, titlePlot, image.Rect(0, 0, 24*colPx, header))

	engine := promql.NewEngine(promql.EngineOpts{MaxSamples: 50_000_000, Timeout: time.Minute, LookbackDelta: 5 * time.Minute})
	replacer := strings.NewReplacer("$__rate_interval", "30s", `"$job"`, `".*"`, `"$tool"`, `".*"`)
	from := start.Add(30 * time.Second)
	for _, p := range d.Panels {
		pl := plot.New()
		pl.Title.Text = p.Title
		pl.Title.TextStyle.Font.Size = vg.Points(11)
		pl.X.Tick.Marker = plot.TimeTicks{Format: "15:04"}
		pl.Y.Min = 0
		pl.Legend.Top = true
		pl.Legend.TextStyle.Font.Size = vg.Points(7)
		unit := p.FieldConfig.Defaults.Unit
		pl.Y.Label.Text = unitLabel(unit)
		var last []string
		i := 0
		for _, t := range p.Targets {
			q, err := engine.NewRangeQuery(context.Background(), db, nil, replacer.Replace(t.Expr), from, end, 5*time.Second)
			if err != nil {
				return fmt.Errorf("panel %q: %w", p.Title, err)
			}
			res := q.Exec(context.Background())
			if res.Err != nil {
				return fmt.Errorf("panel %q: %w", p.Title, res.Err)
			}
			m, err := res.Matrix()
			if err != nil {
				return fmt.Errorf("panel %q: %w", p.Title, err)
			}
			sort.Slice(m, func(a, b int) bool { return m[a].Metric.String() < m[b].Metric.String() })
			for _, s := range m {
				pts := make(plotter.XYs, 0, len(s.Floats))
				for _, f := range s.Floats {
					if !math.IsNaN(f.F) && !math.IsInf(f.F, 0) {
						pts = append(pts, plotter.XY{X: float64(f.T) / 1000, Y: f.F})
					}
				}
				if len(pts) == 0 {
					continue
				}
				line, err := plotter.NewLine(pts)
				if err != nil {
					return err
				}
				line.Color = plotutil.Color(i)
				line.Width = vg.Points(1.2)
				i++
				pl.Add(line)
				name := legend(t.LegendFormat, s.Metric)
				pl.Legend.Add(name, line)
				last = append(last, strings.TrimSpace(name+" "+format(pts[len(pts)-1].Y, unit)))
			}
		}
		if p.Type == "stat" {
			pl.Title.Text = p.Title + ": " + strings.Join(last, ", ")
			pl.Legend = plot.NewLegend()
			pl.Legend.TextStyle.Font.Size = 0
		}
		r := image.Rect(p.GridPos.X*colPx, header+p.GridPos.Y*rowPx, (p.GridPos.X+p.GridPos.W)*colPx, header+(p.GridPos.Y+p.GridPos.H)*rowPx).Inset(4)
		paste(canvas, pl, r)
	}
	f, err := os.Create(cfg.out)
	if err != nil {
		return err
	}
	if err := png.Encode(f, canvas); err != nil {
		f.Close()
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", cfg.out)
	return f.Close()
}

// paste draws p into r of canvas.
func paste(canvas *image.RGBA, p *plot.Plot, r image.Rectangle) {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(r.Dx())*vg.Inch/96, vg.Length(r.Dy())*vg.Inch/96), vgimg.UseDPI(96))
	p.Draw(vgdraw.New(c))
	draw.Draw(canvas, r, c.Image(), c.Image().Bounds().Min, draw.Over)
}

// legend fills a Grafana legend format ({{label}}) from a series' labels.
func legend(format string, l labels.Labels) string {
	if format == "" {
		if l.Len() == 0 {
			return ""
		}
		return l.String()
	}
	return regexp.MustCompile(`\{\{\s*(\w+)\s*\}\}`).ReplaceAllStringFunc(format, func(m string) string {
		name := strings.Trim(m, "{} ")
		return l.Get(name)
	})
}

func unitLabel(unit string) string {
	switch unit {
	case "s":
		return "seconds"
	case "reqps":
		return "calls/s"
	case "percentunit":
		return "share"
	}
	return ""
}

func format(v float64, unit string) string {
	switch unit {
	case "percentunit":
		return fmt.Sprintf("%.1f%%", 100*v)
	case "reqps":
		return fmt.Sprintf("%.2f/s", v)
	case "s":
		return fmt.Sprintf("%.3gs", v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
