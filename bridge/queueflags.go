package bridge

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
)

// Names of the flags of the call slots' fair shares and queue caps.
const (
	flagMaxQueue          = "max-queue"
	flagMaxQueuePerCaller = "max-queue-per-caller"
	flagCallerShare       = "caller-share"
)

// queueFlags are the flags of the call slots' fair shares and queue caps,
// on start and stream.
type queueFlags struct {
	maxQueue, maxQueuePerCaller, callerShare int
}

// addQueueFlags defines the queue flags on c; those of the callers'
// shares only when the server may have more than one caller (not on
// stdio).
func addQueueFlags(c *cobra.Command, callers bool) *queueFlags {
	f := &queueFlags{maxQueuePerCaller: toolmeta.DefaultMaxQueuePerCaller}
	fl := c.Flags()
	fl.IntVar(&f.maxQueue, flagMaxQueue, toolmeta.DefaultMaxQueue, "most calls waiting for a free call slot, all callers together; a call over it is refused at once (env CLIENV_MCP_MAX_QUEUE)")
	if !callers {
		return f
	}
	fl.IntVar(&f.maxQueuePerCaller, flagMaxQueuePerCaller, toolmeta.DefaultMaxQueuePerCaller, "most calls of one caller (an identity, else a session) waiting for a free call slot; a call over it is refused at once (env CLIENV_MCP_MAX_QUEUE_PER_CALLER)")
	fl.IntVar(&f.callerShare, flagCallerShare, 0, "most call slots one caller (an identity, else a session) holds at once, so that another always finds a free one; 0: half of them (env CLIENV_MCP_CALLER_SHARE)")
	return f
}

// limits returns the limits the flags, or for those not given their
// variables (<ROOT>_MCP_MAX_QUEUE, ...), ask for.
func (f *queueFlags) limits(c *cobra.Command, root string) (toolset.Limits, error) {
	return readQueueLimits(c, root, f, os.LookupEnv)
}

func readQueueLimits(c *cobra.Command, root string, f *queueFlags, lookup func(string) (string, bool)) (toolset.Limits, error) {
	var l toolset.Limits
	for _, it := range []struct {
		flag string
		val  int
		dst  *int
		min  int
	}{
		{flagMaxQueue, f.maxQueue, &l.MaxQueue, 1},
		{flagMaxQueuePerCaller, f.maxQueuePerCaller, &l.MaxQueuePerCaller, 1},
		{flagCallerShare, f.callerShare, &l.CallerShare, 0},
	} {
		if c.Flags().Lookup(it.flag) == nil {
			*it.dst = it.val // not a flag of this command: the default
			continue
		}
		v := it.val
		s, from, fromEnv := flagEnv(c.Flags(), root, it.flag, lookup)
		if fromEnv {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return toolset.Limits{}, fmt.Errorf("%s=%q: want a whole number", from, s)
			}
			v = n
		}
		if v < it.min {
			return toolset.Limits{}, fmt.Errorf("%s %d: want a number of at least %d", from, v, it.min)
		}
		*it.dst = v
	}
	return l, nil
}
