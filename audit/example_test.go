package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cobramcp/cobramcp/audit"
)

func Example() {
	dir, _ := os.MkdirTemp("", "audit")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "calls.audit")
	log, err := audit.Open(path, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	exit := 0
	log.Record(audit.Record{
		Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Subject: "alice", Client: "claude-code",
		Session: "S1", Tool: "CLINAME_get_pods", Argv: []string{"get", "pods", "--kubeconfig=***"},
		ExitCode: &exit, Duration: 12 * time.Millisecond, OutputBytes: 120,
	})
	log.Close()
	b, _ := os.ReadFile(path)
	fmt.Print(strings.TrimSpace(string(b)))
	// Output:
	// {"time":"2026-01-02T03:04:05Z","subject":"alice","client":"claude-code","session":"S1","tool":"CLINAME_get_pods","argv":["get","pods","--kubeconfig=***"],"exitCode":0,"outputBytes":120,"durationMs":12}
}
