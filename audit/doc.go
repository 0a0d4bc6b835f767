// Package audit writes one JSON line per tool call, served or refused: who
// called, from which client and session, which tool with which argv (pinned
// values already replaced by "***"), how it ended, how long it took and how
// much it printed.
//
//	log, err := audit.Open("/var/log/CLINAME-mcp.audit", slog.Default())
//	if err != nil {
//		return err
//	}
//	defer log.Close()
//	log.Record(audit.Record{Time: time.Now(), Subject: "alice", Tool: "CLINAME_get_pods",
//		Argv: []string{"get", "pods", "--kubeconfig=***"}, ExitCode: audit.Exit(0)})
//
// Record never blocks the call that records: lines go through a bounded
// buffer to a goroutine that writes them. When the buffer is full, or a
// write fails (logged through the slog.Logger given), the records lost are
// counted, and the next line written is a mark that says how many
// ({"time":...,"dropped":N}): nothing is dropped without a mark.
//
// Open creates the file with mode 0600 and appends to it; an existing file
// readable or writable by others is tightened to 0600 (and said so in the
// log). "-" writes to standard error.
package audit
