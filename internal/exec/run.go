package exec

import (
	"context"

	"github.com/cobramcp/cobramcp/internal/exec/process"
)

// Run runs the program at path with the arguments argv (a [CommandLine]'s
// Argv) as one bounded process: see [process.Run], which it is.
func Run(ctx context.Context, path string, argv []string, opts Options) (*Result, error) {
	return process.Run(ctx, path, argv, opts)
}

// Options bound one [Run]: see [process.Options].
type Options = process.Options

// Result is what one [Run] produced: see [process.Result].
type Result = process.Result

// DefaultKillGrace and DefaultMaxOutput are [process.DefaultKillGrace] and
// [process.DefaultMaxOutput]: what [Options] means by a zero KillGrace and
// a zero MaxOutput.
const (
	DefaultKillGrace = process.DefaultKillGrace
	DefaultMaxOutput = process.DefaultMaxOutput
)
