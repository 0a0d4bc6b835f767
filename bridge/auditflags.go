package bridge

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/cobramcp/cobramcp/audit"

	"github.com/spf13/cobra"
)

const flagAuditLog = "audit-log"

// addAuditFlag defines --audit-log on c.
func addAuditFlag(c *cobra.Command) *string {
	p := new(string)
	c.Flags().StringVar(p, flagAuditLog, "", "append one JSON line per tool call, served or refused, to this file (created with mode 0600; reopened on SIGHUP; - for stderr; env CLIENV_MCP_AUDIT_LOG)")
	return p
}

// openAudit opens the audit log that --audit-log, or <ROOT>_MCP_AUDIT_LOG,
// names; nil when neither does.
func openAudit(c *cobra.Command, root string, path string, log *slog.Logger) (*audit.Log, error) {
	v, from, fromEnv := flagEnv(c.Flags(), root, flagAuditLog, os.LookupEnv)
	if fromEnv {
		path = strings.TrimSpace(v)
	}
	if path == "" {
		return nil, nil
	}
	l, err := audit.Open(path, log)
	if err != nil {
		return nil, wrapFrom(from, err)
	}
	return l, nil
}

// reopenOnHangup reopens l on each SIGHUP (logrotate's postrotate
// convention: the file was moved away, the server opens its path again)
// until stop is called; the server goes on serving whatever the outcome.
func reopenOnHangup(l *audit.Log, log *slog.Logger) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				if err := l.Reopen(); err != nil {
					log.Error("SIGHUP: cannot open the audit log again; writing on to the file it had", "err", err)
				} else {
					log.Info("SIGHUP: the audit log is opened again")
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// wrapFrom says where a bad setting came from: a flag or a variable.
func wrapFrom(from string, err error) error { return fmt.Errorf("%s: %w", from, err) }
