package exec

import (
	"bufio"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestKilledServerEndsTheCallsGroup SIGKILLs a process while one of its Runs
// runs a child that has a child of its own: both must die, the child by the
// parent-death signal and the grandchild, which that signal does not reach,
// by the guard.
func TestKilledServerEndsTheCallsGroup(t *testing.T) {
	t.Parallel()
	server := osexec.Command(self(t), "serve")
	server.Env = append(os.Environ(), helperEnv+"=1")
	server.Stderr = os.Stderr
	out, err := server.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	var call []int // the call's process, then its child
	sc := bufio.NewScanner(out)
	for len(call) < 2 && sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "pid" {
			p, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			call = append(call, p)
		}
	}
	if len(call) < 2 {
		server.Process.Kill()
		server.Wait()
		t.Fatalf("the call's pids did not come: %v", sc.Err())
	}
	t.Cleanup(func() { syscall.Kill(-call[0], syscall.SIGKILL) })
	// The guard heard of the call's group before Run returned from the
	// start: what it has not read yet waits in its pipe.
	if err := server.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	server.Wait()
	assertGone(t, call...)
}
