package teame2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var mycliBin string

func TestMain(m *testing.M) { os.Exit(runMain(m)) }

func runMain(m *testing.M) int {
	mycliBin = os.Getenv("MYCLI_BIN")
	if mycliBin == "" {
		dir, err := os.MkdirTemp("", "cobramcp-team-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		mycliBin = filepath.Join(dir, "mycli")
		cmd := exec.Command("go", "build", "-o", mycliBin, "github.com/cobramcp/cobramcp/example")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "go build:", err)
			return 1
		}
	} else if abs, err := filepath.Abs(mycliBin); err == nil {
		mycliBin = abs
	}
	return m.Run()
}
