package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// batcher is the span processor of a server's tracer provider: it sends
// ended spans to the exporter in batches, as the SDK's batch span processor
// does and configured by the same variables, but without waking a
// goroutine for every span. The SDK's processor hands each span over a
// channel to its goroutine, which a server that idles between calls must
// wake from sleep, on a thread of its own, for every span: measured in
// test/bench, that was a third of what tracing added to a call's server
// CPU. Here a span is appended to the queue under a lock, and the
// goroutine wakes when a batch is full, when the schedule delay has
// passed since the last export, and for ForceFlush and Shutdown.
type batcher struct {
	exp sdktrace.SpanExporter
	cfg batchConfig
	log *slog.Logger

	mu      sync.Mutex
	queue   []sdktrace.ReadOnlySpan
	dropped int // spans not queued since the last export: the queue was full
	stopped bool

	full     chan struct{}   // a batch is full; capacity 1
	flush    chan flushOrder // ForceFlush
	stop     chan struct{}   // closed by Shutdown
	done     chan struct{}   // closed when the goroutine has sent the last spans
	stopOnce sync.Once
}

// batchConfig is how a batcher batches: the OTEL_BSP_* variables.
type batchConfig struct {
	delay    time.Duration // OTEL_BSP_SCHEDULE_DELAY
	timeout  time.Duration // OTEL_BSP_EXPORT_TIMEOUT; 0: none
	maxQueue int           // OTEL_BSP_MAX_QUEUE_SIZE
	maxBatch int           // OTEL_BSP_MAX_EXPORT_BATCH_SIZE
}

// flushOrder asks the batcher's goroutine to send every span queued.
type flushOrder struct {
	ctx  context.Context
	sent chan error
}

var _ sdktrace.SpanProcessor = (*batcher)(nil)

// The defaults of the batch span processor, by the OpenTelemetry
// specification (the SDK's own).
const (
	defaultScheduleDelay = 5000 * time.Millisecond
	defaultExportTimeout = 30000 * time.Millisecond
	defaultMaxQueueSize  = 2048
	defaultMaxBatchSize  = 512
)

// batchConfigFromEnv reads the OTEL_BSP_* variables as the SDK's batch
// span processor does, except that a value that is not a whole number is
// an error naming it rather than a default taken in silence.
func batchConfigFromEnv() (batchConfig, error) {
	var c batchConfig
	var errs [4]error
	c.delay, errs[0] = envMillis("OTEL_BSP_SCHEDULE_DELAY", defaultScheduleDelay)
	c.timeout, errs[1] = envMillis("OTEL_BSP_EXPORT_TIMEOUT", defaultExportTimeout)
	c.maxQueue, errs[2] = envInt("OTEL_BSP_MAX_QUEUE_SIZE", defaultMaxQueueSize)
	c.maxBatch, errs[3] = envInt("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", defaultMaxBatchSize)
	return c, errors.Join(errs[:]...)
}

// newBatcher starts the batcher of exp configured by c, whose drops and
// failed exports log notes.
func newBatcher(exp sdktrace.SpanExporter, c batchConfig, log *slog.Logger) *batcher {
	if c.delay <= 0 {
		c.delay = defaultScheduleDelay
	}
	if c.maxQueue <= 0 {
		c.maxQueue = defaultMaxQueueSize
	}
	if c.maxBatch <= 0 {
		c.maxBatch = defaultMaxBatchSize
	}
	c.maxBatch = min(c.maxBatch, c.maxQueue)
	c.timeout = max(c.timeout, 0)
	b := &batcher{
		exp: exp, cfg: c, log: log,
		full:  make(chan struct{}, 1),
		flush: make(chan flushOrder),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go b.loop()
	return b
}

// envInt is the integer value of the variable name, or def when it is
// not set.
func envInt(name string, def int) (int, error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("telemetry: %s=%s: not a whole number", name, v)
	}
	return n, nil
}

// envMillis is the value of the variable name, in milliseconds, or def
// when it is not set.
func envMillis(name string, def time.Duration) (time.Duration, error) {
	n, err := envInt(name, int(def/time.Millisecond))
	return time.Duration(n) * time.Millisecond, err
}

// OnStart does nothing: spans are queued when they end.
func (*batcher) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd queues a sampled span, or counts it dropped when the queue is
// full.
func (b *batcher) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	b.mu.Lock()
	switch {
	case b.stopped:
	case len(b.queue) >= b.cfg.maxQueue:
		b.dropped++
	default:
		b.queue = append(b.queue, s)
		if len(b.queue) == b.cfg.maxBatch {
			select {
			case b.full <- struct{}{}:
			default:
			}
		}
	}
	b.mu.Unlock()
}

// loop sends the queue's spans: a batch when one is full, all of them when
// the schedule delay has passed since the last export, on ForceFlush, and
// on Shutdown.
func (b *batcher) loop() {
	defer close(b.done)
	timer := time.NewTimer(b.cfg.delay)
	defer timer.Stop()
	for {
		select {
		case <-b.stop:
			b.send(context.Background(), false)
			return
		case f := <-b.flush:
			f.sent <- b.send(f.ctx, false)
			continue
		case <-b.full:
			b.send(context.Background(), true)
		case <-timer.C:
			b.send(context.Background(), false)
		}
		timer.Reset(b.cfg.delay)
	}
}

// send exports the queue in batches, only full ones when fullOnly, each
// within the export timeout; it reports the errors.
func (b *batcher) send(ctx context.Context, fullOnly bool) error {
	var errs []error
	for {
		b.mu.Lock()
		n := min(len(b.queue), b.cfg.maxBatch)
		if n == 0 || fullOnly && n < b.cfg.maxBatch {
			b.mu.Unlock()
			return errors.Join(errs...)
		}
		batch := append([]sdktrace.ReadOnlySpan(nil), b.queue[:n]...)
		rest := copy(b.queue, b.queue[n:])
		clear(b.queue[rest:])
		b.queue = b.queue[:rest]
		dropped := b.dropped
		b.dropped = 0
		b.mu.Unlock()
		if dropped > 0 {
			b.log.Warn("telemetry: spans dropped: the queue of spans to send was full", "dropped", dropped, "OTEL_BSP_MAX_QUEUE_SIZE", b.cfg.maxQueue)
		}
		if err := b.export(ctx, batch); err != nil {
			b.log.Warn("telemetry: spans not sent", "spans", len(batch), "err", err)
			errs = append(errs, err)
		}
	}
}

// export sends one batch within the export timeout.
func (b *batcher) export(ctx context.Context, batch []sdktrace.ReadOnlySpan) error {
	if b.cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, b.cfg.timeout, errors.New("telemetry: exporting spans took longer than OTEL_BSP_EXPORT_TIMEOUT"))
		defer cancel()
	}
	return b.exp.ExportSpans(ctx, batch)
}

// ForceFlush sends every span queued, within ctx.
func (b *batcher) ForceFlush(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f := flushOrder{ctx: ctx, sent: make(chan error, 1)}
	select {
	case b.flush <- f:
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-f.sent:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown sends every span queued and ends the exporter, within ctx; it
// queues no span after.
func (b *batcher) Shutdown(ctx context.Context) error {
	var err error
	b.stopOnce.Do(func() {
		b.mu.Lock()
		b.stopped = true
		b.mu.Unlock()
		close(b.stop)
		select {
		case <-b.done:
		case <-ctx.Done():
			err = ctx.Err()
		}
		err = errors.Join(err, b.exp.Shutdown(ctx))
	})
	return err
}
