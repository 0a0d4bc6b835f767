package toolset

import (
	"context"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An Observer watches a server's MCP requests and the tool calls they run,
// for traces and metrics (package telemetry implements it with
// OpenTelemetry); set it in ServerOptions.Observer. Its methods are called
// concurrently, on every request and call, so they must be cheap. What it
// is told are names, counts and durations: never a flag's value, an
// argument or a pinned value.
type Observer interface {
	// Middleware observes every request the server receives. NewServer adds
	// it around its own middleware, so that it sees the server's answers to
	// unknown tools and refused calls; the context it passes on is the one
	// every phase of a call begins in.
	Middleware(next mcp.MethodHandler) mcp.MethodHandler
	// Phase begins the phase p of a tool call in ctx and returns the
	// context the phase runs in and the function that ends it.
	Phase(ctx context.Context, p Phase) (context.Context, func())
	// Env returns the variables that carry ctx (the run phase's) into the
	// call's process, as NAME=value: TRACEPARENT and TRACESTATE. The
	// process sees no other variable of those names; an empty value leaves
	// the name unset.
	Env(ctx context.Context) []string
	// Called reports how a tool call ended, in the context of its request,
	// before its result is sent.
	Called(ctx context.Context, r CallReport)
}

// ObserverConfig is what a server's Observer is made from, by a program that
// makes one when its server starts (bridge.WithTelemetry, package
// telemetry's New): what the server serves, and what the person running it
// asked for.
type ObserverConfig struct {
	// Service and Version name the served CLI: the telemetry's default
	// service.name and service.version.
	Service, Version string
	// Metrics asks for a Prometheus /metrics handler.
	Metrics bool
	// BySubject counts calls by the caller's OAuth subject as well: one
	// series per person, which the person running the server asks for.
	BySubject bool
	// ReflectionStart and Reflection are when the reading of the served
	// command tree began and how long it took; Outside says the tree was
	// read from an installed binary rather than the program's own.
	ReflectionStart time.Time
	Reflection      time.Duration
	Outside         bool
	// Logger receives the telemetry's own logs; nil means discard.
	Logger *slog.Logger
}

// Phase is a part of a tool call that an Observer times.
type Phase int

// The phases of a tool call, in the order they happen. A phase that a call
// does not go through (no confirmation asked, a free slot at once) is not
// begun.
const (
	// PhaseValidate checks the arguments and writes the argv.
	PhaseValidate Phase = iota
	// PhaseConfirm asks a person to confirm the call (ServerOptions.Confirm).
	PhaseConfirm
	// PhaseQueue waits for a free call slot (Limits).
	PhaseQueue
	// PhaseRun runs the process.
	PhaseRun
)

// String names the phase as traces show it.
func (p Phase) String() string {
	switch p {
	case PhaseValidate:
		return "validate"
	case PhaseConfirm:
		return "confirm"
	case PhaseQueue:
		return "queue"
	case PhaseRun:
		return "run"
	}
	return "phase"
}

// Outcome is how a tool call ended, one word for each kind of ending.
type Outcome string

// The outcomes of a tool call.
const (
	// OutcomeOK: the process ran and exited 0.
	OutcomeOK Outcome = "ok"
	// OutcomeExit: the process ran and exited with another code.
	OutcomeExit Outcome = "exit_nonzero"
	// OutcomeTimeout: the call's timeout ended the process.
	OutcomeTimeout Outcome = "timeout"
	// OutcomeCanceled: the call was canceled (its client went away, the
	// server shut down) while it ran or waited for a slot.
	OutcomeCanceled Outcome = "canceled"
	// OutcomeSignal: a signal from elsewhere ended the process.
	OutcomeSignal Outcome = "signal"
	// OutcomeInvalid: the arguments were refused; nothing ran.
	OutcomeInvalid Outcome = "invalid_arguments"
	// OutcomeConfirmAsked: the call asks a person first (its result is
	// the request for confirmation); nothing ran yet.
	OutcomeConfirmAsked Outcome = "confirmation_asked"
	// OutcomeNotConfirmed: the person declined, or no one could be asked;
	// nothing ran.
	OutcomeNotConfirmed Outcome = "not_confirmed"
	// OutcomeQueueFull: too many calls were waiting for a slot; nothing ran.
	OutcomeQueueFull Outcome = "queue_full"
	// OutcomeRefused: a Middleware refused the call, or its caller lacks a
	// claim that a pin takes its value from (Pin.Claim); nothing ran.
	OutcomeRefused Outcome = "refused"
	// OutcomeFailed: the command could not be started, or the call
	// panicked.
	OutcomeFailed Outcome = "failed"
)

// CallReport is how one tool call ended (Observer.Called): names, counts
// and durations, never a value.
type CallReport struct {
	// Tool is the tool whose command the call ran or was refused for: the
	// tool named, or in search mode the command's own tool that the run
	// tool named; "" when the call named no served command.
	Tool    string
	Outcome Outcome
	// Ran says the process ran: ExitCode and OutputCut are its.
	Ran      bool
	ExitCode int
	// OutputCut says output was left out: past Config.MaxOutput, or
	// unread once the command's process group had ended.
	OutputCut bool
	// Waited is how long the call waited for a call slot.
	Waited time.Duration
}

// phase begins p with o's observer, if any.
func (o *callOptions) phase(ctx context.Context, p Phase) (context.Context, func()) {
	if o.observer == nil {
		return ctx, noEnd
	}
	return o.observer.Phase(ctx, p)
}

func noEnd() {}

// withTraceEnv returns env (nil: the current environment) with the
// variables of vars (Observer.Env) in place of any of the same names.
func withTraceEnv(env, vars []string) []string {
	if len(vars) == 0 {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+len(vars))
	for _, kv := range env {
		if !slices.ContainsFunc(vars, func(v string) bool { return sameName(kv, v) }) {
			out = append(out, kv)
		}
	}
	for _, kv := range vars {
		if _, v, _ := strings.Cut(kv, "="); v != "" {
			out = append(out, kv)
		}
	}
	return out
}

// sameName reports whether the NAME=value entries a and b name the same
// variable.
func sameName(a, b string) bool {
	i := strings.IndexByte(b, '=')
	return i >= 0 && len(a) > i && a[i] == '=' && a[:i] == b[:i]
}

// noteRun notes in tr how the process of a call ended.
func (tr *trace) noteRun(r *Result) {
	tr.ran, tr.exit, tr.output = true, r.ExitCode, len(r.Stdout)+len(r.Stderr)
	tr.cut = r.StdoutOmitted > 0 || r.StderrOmitted > 0 || r.StdoutUnread || r.StderrUnread
	tr.outcome = outcomeOf(r)
}

// outcomeOf is how a run ended, by its result: the process's, or one a
// Middleware answered with itself.
func outcomeOf(r *Result) Outcome {
	switch {
	case r.TimedOut:
		return OutcomeTimeout
	case r.Canceled:
		return OutcomeCanceled
	case r.Signal != "":
		return OutcomeSignal
	case r.ExitCode != 0:
		return OutcomeExit
	}
	return OutcomeOK
}

// refuse notes why a call ran nothing, unless a reason is noted already
// (the innermost one, which knows best); tr may be nil.
func (tr *trace) refuse(o Outcome) {
	if tr != nil && tr.outcome == "" {
		tr.outcome = o
	}
}

// report is the CallReport of a call that tr noted and res answered.
func (tr *trace) report(res *mcp.CallToolResult) CallReport {
	r := CallReport{Tool: tr.served, Outcome: tr.outcome, Ran: tr.ran, ExitCode: tr.exit, OutputCut: tr.cut, Waited: tr.waited}
	if r.Outcome == "" {
		r.Outcome = OutcomeRefused
		if res != nil && len(res.InputRequests) > 0 {
			r.Outcome = OutcomeConfirmAsked
		}
	}
	return r
}
