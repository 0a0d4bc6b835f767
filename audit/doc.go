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
//	exit := 0
//	log.Record(audit.Record{Time: time.Now(), Subject: "alice", Tool: "CLINAME_get_pods",
//		Argv: []string{"get", "pods", "--kubeconfig=***"}, ExitCode: &exit})
//
// Record never blocks the call that records: lines go through a bounded
// buffer to a goroutine that writes them. When the buffer is full, or a
// write fails (logged through the slog.Logger given), the records lost are
// counted, and the next line written is a mark that says how many
// ({"time":...,"dropped":N}): nothing is dropped without a mark.
//
// Open creates the file with mode 0600 and appends to it. It opens the path
// without following a symbolic link and without waiting for a reader, and
// refuses, naming the path, anything but a regular file of the server's
// user with one name (a link, a named pipe, a device, another user's file);
// an existing file of the server's user that others may read or write is
// tightened to 0600 (and said so in the log). "-" writes to standard
// error.
//
// Every line is one JSON value: a write cut short is taken back, or the
// next line starts on a new line, and a mark is a line of its own. Reopen
// opens the path again (a server calls it on SIGHUP, after logrotate moved
// the file); a file moved or deleted under the Log is noticed before the
// next line, and the new file starts with a line saying how many lines may
// be missing ({"time":...,"reopened":PATH,"mayBeMissing":N}).
package audit
