package fairshare

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Options size a Scheduler.
type Options struct {
	// Slots is how many calls hold a slot at once; at least 1.
	Slots int
	// Share is the most slots one key holds at once; when zero or
	// negative, half of Slots, rounded down, and at least 1. It is capped
	// at Slots.
	Share int
	// MaxQueue caps the calls waiting in all; zero or negative: no cap.
	MaxQueue int
	// MaxQueuePerKey caps the calls of one key waiting; zero or negative:
	// no cap. The empty key, the lone caller, is held to MaxQueue only.
	MaxQueuePerKey int
}

// A QueueFullError is the refusal of a call that would make a queue longer
// than its cap.
type QueueFullError struct {
	// PerKey is true when the key's own queue is full, false when the
	// whole queue is.
	PerKey bool
	// Cap is the cap reached: Options.MaxQueuePerKey or Options.MaxQueue.
	Cap int
	// Slots is Options.Slots, for the message.
	Slots int
}

func (e *QueueFullError) Error() string {
	if e.PerKey {
		return fmt.Sprintf("too many calls waiting: this caller already has %d calls queued for a free slot (the cap per caller; %d calls run at once)", e.Cap, e.Slots)
	}
	return fmt.Sprintf("too many calls waiting: %d calls are already queued for a free slot (the cap; %d calls run at once)", e.Cap, e.Slots)
}

// Scheduler hands out slots fairly between keys. It is safe for concurrent
// use.
type Scheduler struct {
	opts Options

	mu      sync.Mutex
	free    int
	waiting int             // calls queued in all
	keys    map[string]*key // the keys running or waiting
	ring    []*key          // the keys with calls queued, in round-robin order
	next    int             // where the next round-robin scan starts in ring
	spare   *key            // a key struct kept for reuse (the fast path allocates nothing)
}

type key struct {
	name    string
	running int
	queue   []*waiter
	inRing  bool
}

type waiter struct {
	granted chan struct{} // closed when the slot is handed over
	done    bool          // granted (under Scheduler.mu)
}

// New returns a Scheduler with opts resolved as Options documents.
func New(opts Options) *Scheduler {
	if opts.Slots < 1 {
		opts.Slots = 1
	}
	if opts.Share <= 0 {
		opts.Share = max(1, opts.Slots/2)
	}
	opts.Share = min(opts.Share, opts.Slots)
	return &Scheduler{opts: opts, free: opts.Slots, keys: map[string]*key{}}
}

// Options returns the options in effect, defaults resolved.
func (s *Scheduler) Options() Options { return s.opts }

// limit is the most slots k may hold.
func (s *Scheduler) limit(k *key) int {
	if k.name == "" {
		return s.opts.Slots
	}
	return s.opts.Share
}

// mayTake reports whether k may take one of the free slots now: it is
// below its share, and, unless it is the lone caller or its share is every
// slot, it holds none or the slot is not the last free one (kept for a
// key that holds none).
func (s *Scheduler) mayTake(k *key) bool {
	if s.free == 0 || k.running >= s.limit(k) {
		return false
	}
	return s.free > 1 || k.running == 0 || k.name == "" || s.opts.Share >= s.opts.Slots
}

func (s *Scheduler) keyOf(name string) *key {
	k := s.keys[name]
	if k == nil {
		if k = s.spare; k != nil {
			s.spare = nil
			k.name = name
		} else {
			k = &key{name: name}
		}
		s.keys[name] = k
	}
	return k
}

// forget drops k when it holds and awaits nothing.
func (s *Scheduler) forget(k *key) {
	if k.running == 0 && len(k.queue) == 0 && !k.inRing {
		delete(s.keys, k.name)
		if s.spare == nil {
			k.queue = k.queue[:0]
			s.spare = k
		}
	}
}

// TryAcquire takes a slot for key if one may be taken now, without
// waiting; it reports whether it did. On true the caller must call
// Release(key) once.
func (s *Scheduler) TryAcquire(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.keyOf(name)
	if len(k.queue) == 0 && s.mayTake(k) {
		s.free--
		k.running++
		return true
	}
	s.forget(k)
	return false
}

// Acquire takes a slot for key, waiting for one when none may be taken now.
// It returns how long it waited (zero when it did not), a *QueueFullError
// when the queue is full, or the context's error when ctx ended first. On
// success the caller must call Release(key) once.
func (s *Scheduler) Acquire(ctx context.Context, name string) (time.Duration, error) {
	s.mu.Lock()
	k := s.keyOf(name)
	// A free slot is taken at once by a key that may take it with nothing
	// queued. (Calls queued while a slot is free are all of keys at their
	// share, or holding slots while one is free: dispatch hands a free
	// slot to any other.)
	if len(k.queue) == 0 && s.mayTake(k) {
		s.free--
		k.running++
		s.mu.Unlock()
		return 0, nil
	}
	if c := s.opts.MaxQueuePerKey; c > 0 && name != "" && len(k.queue) >= c {
		s.forget(k)
		s.mu.Unlock()
		return 0, &QueueFullError{PerKey: true, Cap: c, Slots: s.opts.Slots}
	}
	if c := s.opts.MaxQueue; c > 0 && s.waiting >= c {
		s.forget(k)
		s.mu.Unlock()
		return 0, &QueueFullError{Cap: c, Slots: s.opts.Slots}
	}
	if err := ctx.Err(); err != nil {
		s.forget(k)
		s.mu.Unlock()
		return 0, err
	}
	w := &waiter{granted: make(chan struct{})}
	k.queue = append(k.queue, w)
	s.waiting++
	if !k.inRing {
		k.inRing = true
		s.ring = append(s.ring, k)
	}
	s.mu.Unlock()

	start := time.Now()
	select {
	case <-w.granted:
		return time.Since(start), nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	if w.done { // granted meanwhile: give the slot back
		s.mu.Unlock()
		s.Release(name)
		return time.Since(start), ctx.Err()
	}
	for i, q := range k.queue {
		if q == w {
			k.queue = append(k.queue[:i], k.queue[i+1:]...)
			break
		}
	}
	s.waiting--
	if len(k.queue) == 0 {
		s.dropFromRing(k)
	}
	s.forget(k)
	s.mu.Unlock()
	return time.Since(start), ctx.Err()
}

// Release gives back a slot that Acquire(ctx, key) took.
func (s *Scheduler) Release(name string) {
	s.mu.Lock()
	k := s.keys[name]
	if k == nil || k.running == 0 {
		s.mu.Unlock()
		panic("fairshare: Release of a key that holds no slot: " + name)
	}
	k.running--
	s.free++
	if s.waiting > 0 {
		s.dispatch()
	}
	s.forget(k)
	s.mu.Unlock()
}

// dispatch hands free slots to queued calls, round-robin between the keys
// still below their share. Called with s.mu held.
func (s *Scheduler) dispatch() {
	for s.free > 0 && len(s.ring) > 0 {
		granted := false
		for n := 0; n < len(s.ring); n++ {
			i := (s.next + n) % len(s.ring)
			k := s.ring[i]
			if !s.mayTake(k) {
				continue
			}
			w := k.queue[0]
			k.queue[0] = nil
			k.queue = k.queue[1:]
			s.waiting--
			k.running++
			s.free--
			w.done = true
			close(w.granted)
			granted = true
			if len(k.queue) == 0 {
				s.removeRing(i)
				if len(s.ring) > 0 {
					s.next = i % len(s.ring)
				} else {
					s.next = 0
				}
			} else {
				s.next = (i + 1) % len(s.ring)
			}
			break
		}
		if !granted {
			return
		}
	}
}

func (s *Scheduler) dropFromRing(k *key) {
	for i, r := range s.ring {
		if r == k {
			s.removeRing(i)
			if s.next > i {
				s.next--
			}
			if len(s.ring) == 0 || s.next >= len(s.ring) {
				s.next = 0
			}
			return
		}
	}
}

func (s *Scheduler) removeRing(i int) {
	s.ring[i].inRing = false
	s.ring = append(s.ring[:i], s.ring[i+1:]...)
}

// Stats is a snapshot of a Scheduler.
type Stats struct {
	Running int            // slots held
	Waiting int            // calls queued
	ByKey   map[string]int // slots held by key
}

// Stats returns a snapshot, for tests and diagnostics.
func (s *Scheduler) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{Running: s.opts.Slots - s.free, Waiting: s.waiting, ByKey: map[string]int{}}
	for n, k := range s.keys {
		if k.running > 0 {
			st.ByKey[n] = k.running
		}
	}
	return st
}
