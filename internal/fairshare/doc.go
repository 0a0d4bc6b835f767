// Package fairshare schedules a fixed number of call slots between callers
// (keys) so that no caller can starve another.
//
//	s := fairshare.New(fairshare.Options{Slots: 8, MaxQueue: 256, MaxQueuePerKey: 64})
//	waited, err := s.Acquire(ctx, "alice")
//	if err != nil {
//		return err // a *fairshare.QueueFullError, or the context's error
//	}
//	defer s.Release("alice")
//	// ... run the call; waited says how long it queued ...
//
// The rules:
//
//   - No key holds more than its share of the slots (Options.Share, half of
//     them by default), and a key that holds a slot never takes the last
//     free one: that one is kept for a key that holds none. So, however
//     many keys are at work, a key that holds none finds a free slot unless
//     another such key took the last one first. The empty key is the
//     exception: it stands for the one caller of a server that has no
//     identities and no sessions (stdio), which no other caller can meet,
//     and may use every slot; MaxQueuePerKey does not apply to it either
//     (MaxQueue does). A share of every slot keeps none free.
//   - When a slot frees, the calls queued are served round-robin between
//     keys: each key's calls in the order they came, one key after the
//     other.
//   - A call that would make its key's queue longer than MaxQueuePerKey, or
//     the whole queue longer than MaxQueue, is refused at once with a
//     *QueueFullError; nothing waits.
//   - A call whose context ends while it waits leaves the queue and returns
//     the context's error.
//
// The fast path, a free slot and nobody waiting, takes one mutex and no
// clock reading.
package fairshare
