//go:build unix

package process_test

import (
	"context"
	"fmt"
	"time"

	"github.com/cobramcp/cobramcp/internal/exec/process"
)

// Run a program with a time limit and a cap on its output. A non-zero exit
// is a Result, not an error.
func ExampleRun() {
	res, err := process.Run(context.Background(), "sh", []string{"-c", "echo hello; echo oops >&2; exit 3"},
		process.Options{Timeout: 10 * time.Second, MaxOutput: 64 << 10})
	if err != nil {
		fmt.Println("could not start:", err)
		return
	}
	fmt.Printf("exit %d\nstdout %q\nstderr %q\n", res.ExitCode, res.Stdout, res.Stderr)
	// Output:
	// exit 3
	// stdout "hello\n"
	// stderr "oops\n"
}

// A timeout ends the whole process group: first SIGTERM, then SIGKILL after
// the grace.
func ExampleRun_timeout() {
	res, err := process.Run(context.Background(), "sleep", []string{"60"},
		process.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		fmt.Println("could not start:", err)
		return
	}
	fmt.Println(res.TimedOut, res.ExitCode, res.Signal)
	// Output:
	// true -1 terminated
}

// OnLine sees each line as it arrives, for progress reports; '\r' ends a
// line too, so a redrawn progress bar is seen as it moves.
func ExampleOptions_onLine() {
	_, err := process.Run(context.Background(), "printf", []string{`10%%\r50%%\r100%%\ndone\n`},
		process.Options{OnLine: func(stream, line string) { fmt.Println(stream, line) }})
	if err != nil {
		fmt.Println("could not start:", err)
	}
	// Output:
	// stdout 10%
	// stdout 50%
	// stdout 100%
	// stdout done
}
