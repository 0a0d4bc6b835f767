package toolmeta

import "time"

// What a zero field of toolset.Config or toolset.Limits means, and the
// thresholds of the auto listing: package toolset applies them, and the mcp
// commands (package bridge) state them in their flags' help.
const (
	// DefaultCommandName is the name of the mcp command group.
	DefaultCommandName = "mcp"
	// DefaultTimeout bounds each call.
	DefaultTimeout = 2 * time.Minute
	// DefaultMaxParallel was chosen from BenchmarkParallelCalls
	// (test/e2e): commands that wait (on a network, as kubectl's do) need
	// slots, not cores; see docs/design.md.
	DefaultMaxParallel = 32
	// DefaultMaxQueue: hundreds of calls may wait, not thousands, so that
	// a new call does not wait behind a flood.
	DefaultMaxQueue = 256
	// DefaultMaxQueuePerCaller leaves room for an agent's burst of calls,
	// and for others.
	DefaultMaxQueuePerCaller = 64
)

// The thresholds above which the auto listing chooses search mode: VS
// Code takes at most 128 tools and Windsurf 100; 200 KB of definitions is
// about 50,000 tokens of a model's context.
const (
	AutoSearchTools = 100
	AutoSearchBytes = 200_000
)
