package fairshare

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// waitFor polls cond until it holds: the tests wait for states, never for
// durations.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func mustAcquire(t *testing.T, s *Scheduler, key string) {
	t.Helper()
	if _, err := s.Acquire(context.Background(), key); err != nil {
		t.Fatalf("Acquire(%q): %v", key, err)
	}
}

// queue starts a call of key that waits, and waits until it is queued; its
// name is sent on granted when it gets its slot.
func queue(t *testing.T, s *Scheduler, key, name string, granted chan<- string) {
	t.Helper()
	before := s.Stats().Waiting
	go func() {
		if _, err := s.Acquire(context.Background(), key); err != nil {
			granted <- "error: " + err.Error()
			return
		}
		granted <- name
	}()
	waitFor(t, name+" queued", func() bool { return s.Stats().Waiting == before+1 })
}

func TestDefaults(t *testing.T) {
	for _, c := range []struct {
		in        Options
		slots, sh int
	}{
		{Options{}, 1, 1},
		{Options{Slots: 1}, 1, 1},
		{Options{Slots: 2}, 2, 1},
		{Options{Slots: 32}, 32, 16},
		{Options{Slots: 5}, 5, 2},
		{Options{Slots: 4, Share: 9}, 4, 4},
		{Options{Slots: 4, Share: 3}, 4, 3},
	} {
		got := New(c.in).Options()
		if got.Slots != c.slots || got.Share != c.sh {
			t.Errorf("New(%+v): slots %d share %d, want %d %d", c.in, got.Slots, got.Share, c.slots, c.sh)
		}
	}
}

// A key at its share waits while another key finds a free slot at once:
// the "another identity always finds a free one".
func TestShareLeavesSlotsToOthers(t *testing.T) {
	s := New(Options{Slots: 4})
	mustAcquire(t, s, "a")
	mustAcquire(t, s, "a")
	granted := make(chan string, 40)
	for i := range 40 {
		queue(t, s, "a", fmt.Sprint("a", i), granted)
	}
	if st := s.Stats(); st.ByKey["a"] != 2 || st.Waiting != 40 {
		t.Fatalf("stats %+v, want a holding 2 and 40 waiting", st)
	}
	waited, err := s.Acquire(context.Background(), "b")
	if err != nil || waited != 0 {
		t.Fatalf("b: waited %v, err %v; want a free slot at once", waited, err)
	}
	select {
	case g := <-granted:
		t.Fatalf("%s got a slot beyond a's share", g)
	default:
	}
	// b's release leaves a at its share: still nothing for a.
	s.Release("b")
	if st := s.Stats(); st.ByKey["a"] != 2 || st.Waiting != 40 || st.Running != 2 {
		t.Fatalf("after b: %+v", st)
	}
	s.Release("a")
	if g := <-granted; g != "a0" {
		t.Fatalf("first granted %q, want a0", g)
	}
}

// TestLastSlotKept (issue 34.10): a key that holds a slot never takes the
// last free one, so that a third key finds one although two are at work:
// with a share of half, two keys could take every slot (a static token's
// holder with two sessions made another session's call wait 21 s). It goes
// to a key that holds none; a key holding some gets it once another frees.
func TestLastSlotKept(t *testing.T) {
	s := New(Options{Slots: 4}) // a share of 2
	mustAcquire(t, s, "s1")
	mustAcquire(t, s, "s1")
	mustAcquire(t, s, "s2")
	granted := make(chan string, 2)
	queue(t, s, "s2", "s2 second", granted)
	if st := s.Stats(); st.Running != 3 || st.Waiting != 1 {
		t.Fatalf("stats %+v: want s2's second call waiting while the last slot is free", st)
	}
	if !s.TryAcquire("s3") {
		t.Fatal("s3 found no free slot beside s1's and s2's")
	}
	if s.TryAcquire("s4") {
		t.Fatal("s4 took a slot beyond the slots")
	}
	s.Release("s3") // the last slot is free again, and kept
	select {
	case g := <-granted:
		t.Fatalf("%s took the last free slot", g)
	default:
	}
	s.Release("s1") // two free: s2 takes one, one stays free
	if g := <-granted; g != "s2 second" {
		t.Fatal(g)
	}
	if st := s.Stats(); st.Running != 3 || st.ByKey["s2"] != 2 {
		t.Fatalf("stats %+v", st)
	}
	// A share of every slot keeps none free: the operator asked for it.
	all := New(Options{Slots: 2, Share: 2})
	if !all.TryAcquire("a") || !all.TryAcquire("a") {
		t.Fatal("a share of every slot: a could not take both")
	}
}

func TestEmptyKeyUsesEverySlot(t *testing.T) {
	s := New(Options{Slots: 3, MaxQueuePerKey: 1, MaxQueue: 2})
	for range 3 {
		mustAcquire(t, s, "")
	}
	granted := make(chan string, 2)
	queue(t, s, "", "fourth", granted)
	queue(t, s, "", "fifth", granted) // beyond MaxQueuePerKey, within MaxQueue
	var qf *QueueFullError
	if _, err := s.Acquire(context.Background(), ""); !errors.As(err, &qf) || qf.PerKey {
		t.Fatalf("err %v, want the global cap", err)
	}
	s.Release("")
	if g := <-granted; g != "fourth" {
		t.Fatal(g)
	}
}

func TestRoundRobin(t *testing.T) {
	s := New(Options{Slots: 1})
	mustAcquire(t, s, "x")
	granted := make(chan string, 10)
	for _, c := range []struct{ key, name string }{
		{"a", "a1"}, {"a", "a2"}, {"a", "a3"}, {"b", "b1"}, {"b", "b2"}, {"c", "c1"},
	} {
		queue(t, s, c.key, c.name, granted)
	}
	var order []string
	holder := "x"
	for range 6 {
		s.Release(holder)
		g := <-granted
		order = append(order, g)
		holder = g[:1]
	}
	s.Release(holder)
	want := "[a1 b1 c1 a2 b2 a3]"
	if fmt.Sprint(order) != want {
		t.Fatalf("order %v, want %s", order, want)
	}
	if st := s.Stats(); st.Running != 0 || st.Waiting != 0 || len(s.keys) != 0 {
		t.Fatalf("left %+v, keys %v", st, s.keys)
	}
}

func TestQueueCaps(t *testing.T) {
	for _, c := range []struct {
		name   string
		opts   Options
		queued []string // keys queued successfully after the slot is held
		refuse string   // key refused then
		perKey bool
	}{
		{"per key", Options{Slots: 1, MaxQueuePerKey: 2}, []string{"a", "a", "b"}, "a", true},
		{"global", Options{Slots: 1, MaxQueue: 3}, []string{"a", "b", "c"}, "d", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(c.opts)
			mustAcquire(t, s, "x")
			granted := make(chan string, 10)
			for i, k := range c.queued {
				queue(t, s, k, fmt.Sprint(k, i), granted)
			}
			_, err := s.Acquire(context.Background(), c.refuse)
			var qf *QueueFullError
			if !errors.As(err, &qf) || qf.PerKey != c.perKey {
				t.Fatalf("err %v, want a QueueFullError with PerKey %v", err, c.perKey)
			}
			if st := s.Stats(); st.Waiting != len(c.queued) {
				t.Fatalf("the refusal changed the queue: %+v", st)
			}
			if c.perKey {
				// Another key still queues.
				queue(t, s, "z", "z", granted)
			}
			if err.Error() == "" {
				t.Fatal("empty message")
			}
		})
	}
}

func TestQueueFullMessages(t *testing.T) {
	for _, c := range []struct {
		err  *QueueFullError
		want string
	}{
		{&QueueFullError{PerKey: true, Cap: 8, Slots: 4}, "too many calls waiting: this caller already has 8 calls queued for a free slot (the cap per caller; 4 calls run at once)"},
		{&QueueFullError{Cap: 256, Slots: 32}, "too many calls waiting: 256 calls are already queued for a free slot (the cap; 32 calls run at once)"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q\nwant %q", got, c.want)
		}
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	s := New(Options{Slots: 1})
	mustAcquire(t, s, "x")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.Acquire(ctx, "a")
		errc <- err
	}()
	waitFor(t, "a queued", func() bool { return s.Stats().Waiting == 1 })
	granted := make(chan string, 1)
	queue(t, s, "b", "b", granted)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if st := s.Stats(); st.Waiting != 1 {
		t.Fatalf("stats %+v, want only b waiting", st)
	}
	s.Release("x")
	if g := <-granted; g != "b" {
		t.Fatal(g)
	}
	s.Release("b")
	if st := s.Stats(); st.Running != 0 || len(s.keys) != 0 || len(s.ring) != 0 {
		t.Fatalf("left %+v", st)
	}
}

func TestCanceledBeforeQueueing(t *testing.T) {
	s := New(Options{Slots: 1})
	mustAcquire(t, s, "x")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Acquire(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Waiting != 0 {
		t.Fatal(st)
	}
}

func TestWaitedIsReported(t *testing.T) {
	s := New(Options{Slots: 1})
	mustAcquire(t, s, "x")
	res := make(chan time.Duration, 1)
	go func() {
		w, _ := s.Acquire(context.Background(), "a")
		res <- w
	}()
	waitFor(t, "a queued", func() bool { return s.Stats().Waiting == 1 })
	s.Release("x")
	if w := <-res; w <= 0 {
		t.Fatalf("waited %v, want > 0", w)
	}
}

func TestReleaseUnheldPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	New(Options{Slots: 1}).Release("a")
}

// Many keys at once: no key ever holds more than its share, no more than
// Slots run, every call ends with its slot.
func TestConcurrentInvariants(t *testing.T) {
	s := New(Options{Slots: 4, MaxQueuePerKey: 1000})
	var mu sync.Mutex
	held := map[string]int{}
	total := 0
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := fmt.Sprint("k", g%5)
			if g%7 == 0 {
				key = ""
			}
			for range 200 {
				if _, err := s.Acquire(context.Background(), key); err != nil {
					select {
					case errs <- err:
					default:
					}
					return
				}
				mu.Lock()
				held[key]++
				total++
				if (key != "" && held[key] > 2) || total > 4 {
					select {
					case errs <- fmt.Errorf("key %q holds %d, total %d", key, held[key], total):
					default:
					}
				}
				mu.Unlock()
				mu.Lock()
				held[key]--
				total--
				mu.Unlock()
				s.Release(key)
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if st := s.Stats(); st.Running != 0 || st.Waiting != 0 || len(s.keys) != 0 {
		t.Fatalf("left %+v", st)
	}
}

// The fast path: a free slot, one key.
func BenchmarkAcquireRelease(b *testing.B) {
	for _, key := range []string{"", "alice"} {
		b.Run(fmt.Sprintf("key=%q", key), func(b *testing.B) {
			s := New(Options{Slots: 32})
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Acquire(ctx, key); err != nil {
					b.Fatal(err)
				}
				s.Release(key)
			}
		})
	}
	b.Run("parallel", func(b *testing.B) {
		s := New(Options{Slots: 32, Share: 32})
		ctx := context.Background()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := s.Acquire(ctx, ""); err != nil {
					b.Error(err)
					return
				}
				s.Release("")
			}
		})
	})
}

// The channel the toolset used before, for comparison.
func BenchmarkChannelSlots(b *testing.B) {
	slots := make(chan struct{}, 32)
	b.ReportAllocs()
	for b.Loop() {
		slots <- struct{}{}
		<-slots
	}
}

func TestTryAcquire(t *testing.T) {
	s := New(Options{Slots: 2})
	if !s.TryAcquire("a") {
		t.Fatal("a free slot was not taken")
	}
	if s.TryAcquire("a") {
		t.Fatal("a took more than its share")
	}
	if !s.TryAcquire("b") {
		t.Fatal("b found no slot")
	}
	if s.TryAcquire("c") {
		t.Fatal("c took a slot beyond the slots")
	}
	s.Release("a")
	s.Release("b")
	if st := s.Stats(); st.Running != 0 || len(s.keys) != 0 {
		t.Fatalf("left %+v", st)
	}
}
