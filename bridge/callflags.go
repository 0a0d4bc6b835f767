package bridge

import (
	"log/slog"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
)

// callFlags are the flags of the call path that start and stream share:
// the fair shares and queue caps of the call slots, and the audit log.
type callFlags struct {
	queue *queueFlags
	audit *string
}

// addCallFlags defines the call path's flags on c; callers says whether
// its server may have more than one caller (stream, not start).
func addCallFlags(c *cobra.Command, callers bool) *callFlags {
	return &callFlags{queue: addQueueFlags(c, callers), audit: addAuditFlag(c)}
}

// apply sets the Limits and Audit of opts from the flags (or their
// variables, of the CLI named root). The function returned closes the
// audit log, once the calls have ended.
func (f *callFlags) apply(c *cobra.Command, root string, log *slog.Logger, opts *toolset.ServerOptions) (func(), error) {
	l, err := f.queue.limits(c, root)
	if err != nil {
		return nil, err
	}
	a, err := openAudit(c, root, *f.audit, log)
	if err != nil {
		return nil, err
	}
	opts.Limits, opts.Audit = l, a
	stopHangup := func() {}
	if a != nil {
		stopHangup = reopenOnHangup(a, log)
	}
	return func() {
		stopHangup()
		if err := a.Close(); err != nil {
			log.Error("closing the audit log", "err", err)
		}
	}, nil
}
