package mycli_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// Run a fresh tree in-process against a state file that does not exist yet, so the seed is
// used.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "mycli-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	state := filepath.Join(dir, "state.json")

	root := mycli.New()
	root.SetOut(os.Stdout)
	root.SetArgs([]string{"--state", state, "get", "pods", "-l", "app=web", "-o", "name"})
	if err := root.Execute(); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// pod/web-7f9c4d-abc12
	// pod/web-7f9c4d-def34
}

// Commands that need a specific exit code return an *ExitError; ExitCode maps any error.
func ExampleExitCode() {
	root := mycli.New()
	root.SetOut(os.Stdout)
	root.SetErr(os.Stdout)
	root.SetArgs([]string{"fail", "--code", "3", "--message", "disk full"})
	err := root.Execute()
	fmt.Println("exit code:", mycli.ExitCode(err))
	fmt.Println("exit code of another error:", mycli.ExitCode(errors.New("boom")))
	// Output:
	// disk full
	// Error: exit code 3
	// exit code: 3
	// exit code of another error: 1
}

// LogLine describes every line `mycli logs` prints, so a test can check any part of a large log.
func ExampleLogLine() {
	fmt.Print(string(mycli.LogLine(nil, "db-0", 42)))
	// Output:
	// [db-0] line 0000000042 level=info msg="served request" path=/healthz status=200
}
