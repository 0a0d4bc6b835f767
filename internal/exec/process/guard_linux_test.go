package process

import (
	"bufio"
	"bytes"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// callServer is a helper server (mode "serve" or "serve-revive") running
// its call: the server, its stdin, the scanner of its stdout, and the pids
// of the call's process and of that process's child.
type callServer struct {
	cmd  *osexec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	call []int
}

// startCallServer starts the helper server of mode and waits for its
// call's two pids; the server is killed at the end of the test, and so is
// the call's group.
func startCallServer(t *testing.T, mode string) *callServer {
	t.Helper()
	s := &callServer{cmd: osexec.Command(self(t), mode)}
	s.cmd.Env = append(os.Environ(), helperEnv+"=1")
	s.cmd.Stderr = os.Stderr
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	})
	s.out = bufio.NewScanner(out)
	for len(s.call) < 2 && s.out.Scan() {
		if f := strings.Fields(s.out.Text()); len(f) == 2 && f[0] == "pid" {
			p, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			s.call = append(s.call, p)
		}
	}
	if len(s.call) < 2 {
		t.Fatalf("the call's pids did not come: %v", s.out.Err())
	}
	t.Cleanup(func() { syscall.Kill(-s.call[0], syscall.SIGKILL) })
	return s
}

// kill SIGKILLs the server and waits for it.
func (s *callServer) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
}

// TestKilledServerEndsTheCallsGroup SIGKILLs a process while one of its Runs
// runs a child that has a child of its own: both must die, the child by the
// parent-death signal and the grandchild, which that signal does not reach,
// by the guard.
func TestKilledServerEndsTheCallsGroup(t *testing.T) {
	t.Parallel()
	s := startCallServer(t, "serve")
	// The guard's file names the call's group before Run returned from the
	// start.
	s.kill(t)
	assertGone(t, s.call...)
}

// TestRevivedGuardKeepsTheRunningCalls kills a server's guard while a call
// runs, has the server start more calls until a guard is back (the start
// after the old one is reaped brings it), then SIGKILLs the server: the
// first call's grandchild, which only a guard ends, must die too, so the
// new guard read the old one's file.
func TestRevivedGuardKeepsTheRunningCalls(t *testing.T) {
	t.Parallel()
	s := startCallServer(t, "serve-revive")
	killed := killGuard(t, s.cmd.Process.Pid)
	revived := func() bool {
		if _, err := s.in.Write([]byte("go\n")); err != nil {
			t.Fatal(err)
		}
		for s.out.Scan() && s.out.Text() != "ran" {
		}
		again := guardsOf(t, s.cmd.Process.Pid)
		return len(again) == 1 && again[0] != killed
	}
	if !eventually(revived) {
		t.Fatal("no guard came back as the server started calls")
	}
	s.kill(t)
	assertGone(t, s.call...)
}

// eventually reports whether ok holds within 100 tries and 10 seconds.
func eventually(ok func() bool) bool {
	deadline := time.Now().Add(10 * time.Second)
	for range 100 {
		if ok() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestRunWithoutItsGuard kills this process's guard: later Runs still run,
// this process does not die of SIGPIPE, and a start after the old guard
// has been reaped brings a guard back (on the same file, so that calls
// already running stay guarded).
func TestRunWithoutItsGuard(t *testing.T) {
	// Not parallel: the guard is the process's.
	if _, err := Run(t.Context(), self(t), []string{"exit", "0"}, helperOpts()); err != nil {
		t.Fatal(err) // the guard starts with the first Run
	}
	killed := killGuard(t, os.Getpid())
	revived := func() bool {
		res, err := Run(t.Context(), self(t), []string{"exit", "3"}, helperOpts())
		if err != nil || res.ExitCode != 3 {
			t.Fatalf("Run without a guard: %v, %+v", err, res)
		}
		again := guardsOf(t, os.Getpid())
		return len(again) == 1 && again[0] != killed
	}
	if !eventually(revived) {
		t.Fatalf("no guard came back as Run started calls: %v", guardsOf(t, os.Getpid()))
	}
}

// killGuard SIGKILLs the one guard of process pid, waits until it is gone,
// and returns its pid.
func killGuard(t *testing.T, pid int) int {
	t.Helper()
	guards := guardsOf(t, pid)
	if len(guards) != 1 {
		t.Fatalf("the guards of process %d: %v, want one", pid, guards)
	}
	if err := syscall.Kill(guards[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	assertGone(t, guards[0])
	return guards[0]
}

// guardsOf lists the guards that are children of process pid.
func guardsOf(t *testing.T, pid int) []int {
	t.Helper()
	var guards []int
	names, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		cmdline, err := os.ReadFile(name)
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(name)))
		stat, serr := os.ReadFile(filepath.Join(filepath.Dir(name), "stat"))
		if err != nil || serr != nil || !bytes.HasPrefix(cmdline, []byte(guardName+"\x00")) {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 2 && f[1] == strconv.Itoa(pid) && f[0] != "Z" {
			guards = append(guards, p)
		}
	}
	return guards
}

// TestGuardEndsOnlyWatchedGroups plays this process's death to a guard of
// its own (closing the write end of its stdin) while one group is watched
// and another was forgotten: the guard must end the first and leave the
// second alone (its id may belong to another group by then: pids are
// reused). A third group, watched in the slot the second freed, shows that
// slots are reused.
func TestGuardEndsOnlyWatchedGroups(t *testing.T) {
	t.Parallel()
	g := startGuard()
	if g == nil {
		t.Fatal("no guard")
	}
	var groups []int
	for range 3 {
		cmd := startSelf("sleep")
		cmd.Env = append(os.Environ(), helperEnv+"=1")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go cmd.Wait()
		t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
		groups = append(groups, cmd.Process.Pid)
	}
	watched := g.watch(groups[0])
	forgotten := g.watch(groups[1])
	g.forget(forgotten)
	if again := g.watch(groups[2]); again != forgotten || again == watched {
		t.Errorf("slots %d, %d, then %d: want the freed slot reused", watched, forgotten, again)
	}
	g.w.Close()
	<-g.exited
	assertGone(t, groups[0], groups[2])
	if dead(groups[1]) {
		t.Errorf("the guard ended group %d, which it was told had ended", groups[1])
	}
}
