package telemetry

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// batchRecorder is a span exporter that keeps the size of every batch it
// is given; while gate is open (not nil and not closed), an export says
// so on entered and waits for it.
type batchRecorder struct {
	mu       sync.Mutex
	batches  []int
	names    []string
	shutdown bool
	gate     chan struct{}
	entered  chan struct{}
	exported chan struct{} // one value per export
}

func newBatchRecorder() *batchRecorder {
	return &batchRecorder{entered: make(chan struct{}, 100), exported: make(chan struct{}, 100)}
}

func (r *batchRecorder) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if r.gate != nil {
		r.entered <- struct{}{}
		select {
		case <-r.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	r.mu.Lock()
	r.batches = append(r.batches, len(spans))
	for _, s := range spans {
		r.names = append(r.names, s.Name())
	}
	r.mu.Unlock()
	r.exported <- struct{}{}
	return nil
}

func (r *batchRecorder) Shutdown(context.Context) error {
	r.mu.Lock()
	r.shutdown = true
	r.mu.Unlock()
	return nil
}

func (r *batchRecorder) state() ([]int, []string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.batches...), append([]string(nil), r.names...), r.shutdown
}

// waitExport waits for the recorder's next export.
func (r *batchRecorder) waitExport(t *testing.T) {
	t.Helper()
	select {
	case <-r.exported:
	case <-time.After(10 * time.Second):
		t.Fatal("no export in 10s")
	}
}

// endSpans ends n spans named name of tp.
func endSpans(tp *sdktrace.TracerProvider, name string, n int) {
	tr := tp.Tracer("test")
	for range n {
		_, s := tr.Start(context.Background(), name)
		s.End()
	}
}

// TestBatcher: a full batch is sent at once, a partial one on ForceFlush
// (the schedule delay is an hour here), unsampled spans are not queued,
// a full queue drops spans and says how many, Shutdown sends what is left
// and ends the exporter, and nothing is queued after it.
func TestBatcher(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	rec := newBatchRecorder()
	b := newBatcher(rec, batchConfig{delay: time.Hour, maxQueue: 6, maxBatch: 4}, log)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b))
	ctx := context.Background()

	endSpans(tp, "a", 4)
	rec.waitExport(t)
	if batches, _, _ := rec.state(); len(batches) != 1 || batches[0] != 4 {
		t.Fatalf("batches %v, want one of 4 as soon as it was full", batches)
	}

	unsampled := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b), sdktrace.WithSampler(sdktrace.NeverSample()))
	endSpans(unsampled, "unsampled", 3)
	endSpans(tp, "b", 3)
	if err := b.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	rec.waitExport(t)
	batches, names, _ := rec.state()
	if len(batches) != 2 || batches[1] != 3 {
		t.Fatalf("batches %v, want a second of 3 on ForceFlush", batches)
	}
	for _, n := range names {
		if n == "unsampled" {
			t.Fatalf("an unsampled span was sent: %v", names)
		}
	}

	// The exporter hangs: the first full batch leaves the queue and
	// waits at the exporter; then the queue fills and drops the rest.
	rec.gate = make(chan struct{})
	endSpans(tp, "c", 4) // a full batch, taken from the queue
	select {
	case <-rec.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the full batch was not exported in 10s")
	}
	endSpans(tp, "c", 10) // 6 queued, 4 dropped
	close(rec.gate)
	rec.waitExport(t)
	if err := b.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	batches, names, shut := rec.state()
	sent := 0
	for _, n := range batches {
		sent += n
	}
	if !shut {
		t.Error("Shutdown did not end the exporter")
	}
	if want := 4 + 3 + 4 + 6; sent != want {
		t.Errorf("%d spans sent in batches %v, want %d", sent, batches, want)
	}
	if !strings.Contains(logged.String(), "spans dropped") || !strings.Contains(logged.String(), "dropped=4") {
		t.Errorf("the log %q does not say that 4 spans were dropped", logged.String())
	}

	endSpans(tp, "after", 2)
	if _, after, _ := rec.state(); len(after) != len(names) {
		t.Errorf("spans were sent after Shutdown: %v", after[len(names):])
	}
	if err := b.ForceFlush(ctx); err != nil {
		t.Errorf("ForceFlush after Shutdown: %v", err)
	}
}

// TestBatcherSchedule: spans short of a batch are sent when the schedule
// delay has passed.
func TestBatcherSchedule(t *testing.T) {
	rec := newBatchRecorder()
	b := newBatcher(rec, batchConfig{delay: 20 * time.Millisecond, maxQueue: 100, maxBatch: 50}, slog.New(slog.DiscardHandler))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b))
	defer tp.Shutdown(context.Background())
	endSpans(tp, "a", 3)
	rec.waitExport(t)
	if batches, _, _ := rec.state(); len(batches) != 1 || batches[0] != 3 {
		t.Fatalf("batches %v, want one of 3 after the delay", batches)
	}
}

// TestBatchConfigFromEnv: the OTEL_BSP_* variables, their defaults, and a
// value that is no whole number refused by name.
func TestBatchConfigFromEnv(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want batchConfig
		err  string
	}{
		{want: batchConfig{delay: 5 * time.Second, timeout: 30 * time.Second, maxQueue: 2048, maxBatch: 512}},
		{
			env:  map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "200", "OTEL_BSP_EXPORT_TIMEOUT": "1000", "OTEL_BSP_MAX_QUEUE_SIZE": "64", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": " 16 "},
			want: batchConfig{delay: 200 * time.Millisecond, timeout: time.Second, maxQueue: 64, maxBatch: 16},
		},
		{env: map[string]string{"OTEL_BSP_MAX_QUEUE_SIZE": "lots"}, err: "OTEL_BSP_MAX_QUEUE_SIZE=lots: not a whole number"},
		{env: map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "5s"}, err: "OTEL_BSP_SCHEDULE_DELAY=5s"},
	} {
		t.Run("", func(t *testing.T) {
			clearOTel(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			got, err := batchConfigFromEnv()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("%+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestBatcherLimits: a batch larger than the queue is the queue's size,
// and nothing set is the specification's defaults.
func TestBatcherLimits(t *testing.T) {
	b := newBatcher(newBatchRecorder(), batchConfig{maxQueue: 8, maxBatch: 100, timeout: -1}, slog.New(slog.DiscardHandler))
	defer b.Shutdown(context.Background())
	if b.cfg.maxBatch != 8 || b.cfg.delay != defaultScheduleDelay || b.cfg.timeout != 0 {
		t.Errorf("%+v, want a batch of 8, the default delay, no timeout", b.cfg)
	}
}
