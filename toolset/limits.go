package toolset

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/internal/fairshare"
	"github.com/cobramcp/cobramcp/internal/toolmeta"
)

// waitNoted is the shortest wait for a call slot that a call's result
// mentions (a line on its stderr); shorter waits, a burst's, would only
// clutter results. The audit log records every wait.
const waitNoted = time.Second

// Limits share a server's call slots (Config.MaxParallel) fairly between
// its callers. A caller is the identity of the request's token
// (auth.TokenInfo.UserID) when it has one, else its MCP session; a server
// on stdio has one caller, which may hold every slot.
//
// Servers made with equal Limits from views of one Toolset share their
// slots and queues; Call uses the zero Limits.
type Limits struct {
	// CallerShare is the most slots one caller holds at once, so that
	// another always finds a free one; zero: half of them (at least one).
	CallerShare int
	// MaxQueue caps the calls waiting for a slot, all callers together;
	// zero: 256; negative: no cap. A call over it is refused
	// at once, and nothing runs.
	MaxQueue int
	// MaxQueuePerCaller caps the calls of one caller waiting for a slot;
	// zero: 64; negative: no cap.
	MaxQueuePerCaller int
}

// schedulers holds a Toolset's fair schedulers, one per Limits.
type schedulers struct {
	slots int
	mu    sync.Mutex
	by    map[Limits]*fairshare.Scheduler
}

func newSchedulers(slots int) *schedulers {
	return &schedulers{slots: slots, by: map[Limits]*fairshare.Scheduler{}}
}

// get returns the scheduler of l, made on first use.
func (s *schedulers) get(l Limits) *fairshare.Scheduler {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.by[l]; f != nil {
		return f
	}
	o := fairshare.Options{Slots: s.slots, Share: l.CallerShare, MaxQueue: l.MaxQueue, MaxQueuePerKey: l.MaxQueuePerCaller}
	if o.MaxQueue == 0 {
		o.MaxQueue = toolmeta.DefaultMaxQueue
	}
	if o.MaxQueuePerKey == 0 {
		o.MaxQueuePerKey = toolmeta.DefaultMaxQueuePerCaller
	}
	f := fairshare.New(o)
	s.by[l] = f
	return f
}

// callerKey is who a server's call comes from, for the fair shares: the
// token's identity, else the session, else "" (stdio: one caller).
func callerKey(req *mcp.CallToolRequest) string {
	if req == nil {
		return ""
	}
	return caller.FromRequest(req).Key()
}

// runner returns the innermost RunFunc of a call: it waits for a slot of
// o's scheduler, as o's caller, then runs the process, and notes in
// o.trace what happened.
func (s *Served) runner(o callOptions) RunFunc {
	return func(ctx context.Context, c *Call) (*Result, error) {
		ts := s.ts
		ts.running.begin()
		defer ts.running.end()
		tr := o.trace
		if tr == nil {
			tr = &trace{}
		}
		tr.tool, tr.argv = c.Tool, s.redactWith(c.Argv, o.claimed)
		sched := o.sched
		if sched == nil {
			sched = ts.scheds.get(Limits{})
		}
		var waited time.Duration
		var err error
		if !sched.TryAcquire(o.key) {
			ts.cfg.Logger.Debug("waiting for a free call slot", "tool", c.Tool, "caller", o.key)
			qctx, queued := o.phase(ctx, PhaseQueue)
			waited, err = sched.Acquire(qctx, o.key)
			queued()
		}
		tr.waited = waited
		if err != nil {
			var full *fairshare.QueueFullError
			if errors.As(err, &full) {
				tr.refuse(OutcomeQueueFull)
				ts.cfg.Logger.Info("call refused: too many calls waiting", "tool", c.Tool, "caller", o.key, "perCaller", full.PerKey, "cap", full.Cap)
				return nil, fmt.Errorf("%w. Nothing was run; try again when calls have ended", err)
			}
			tr.refuse(OutcomeCanceled)
			n := sched.Options().Slots
			return nil, fmt.Errorf("canceled while waiting for a free slot (%d calls run at once): %w", n, err)
		}
		defer sched.Release(o.key)
		ts.cfg.Logger.Debug("running", "tool", c.Tool, "argv", tr.argv)
		opts := c.Options
		rctx, ran := o.phase(ctx, PhaseRun)
		if o.observer != nil {
			opts.Env = withTraceEnv(opts.Env, o.observer.Env(rctx))
		}
		res, err := runProcess(rctx, c, opts)
		ran()
		if err != nil {
			tr.refuse(OutcomeFailed)
			return nil, fmt.Errorf("could not start the command: %w", err)
		}
		tr.noteRun(res)
		if waited >= waitNoted {
			// The result says how long the call waited, as it says a
			// timeout: a line of the server's on stderr.
			if res.Stderr != "" && res.Stderr[len(res.Stderr)-1] != '\n' {
				res.Stderr += "\n"
			}
			res.Stderr += fmt.Sprintf("cobramcp: the call waited %s for a free call slot (%d calls run at once)\n", roundWait(waited), sched.Options().Slots)
		}
		return res, nil
	}
}

// roundWait rounds d for people: milliseconds below a second, tenths of
// seconds above.
func roundWait(d time.Duration) time.Duration {
	if d < time.Second {
		return max(d.Round(time.Millisecond), time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}
