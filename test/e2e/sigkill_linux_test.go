package e2e

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// TestKillServerMidCall SIGKILLs a real `mycli mcp start` while a call runs
// (`sleep --spawn`): the server cannot end anything then, but the call's
// process must die with it (the parent-death signal) and so must its
// grandchild, which the parent-death signal does not reach (the guard ends
// the call's whole group, exec/guard_linux.go).
func TestKillServerMidCall(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{ownPipes: true})
	grandchild, pgid, done := spawnCall(t, s, context.Background(), "killed", false)
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	leader := pgid // the call's process leads the group
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
	s.closed = true
	_ = s.cs.Close()
	if err := <-done; err == nil {
		t.Errorf("the call returned no error from a killed server")
	}
	for _, pid := range []int{leader, grandchild} {
		deadline := time.Now().Add(groupEnd)
		for {
			p, ok := readProc(pid)
			if !ok || !p.alive() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("process %d of the call (group %d) outlived the SIGKILLed server by %s: %+v", pid, pgid, groupEnd, p)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestGuardEndsWithServer checks the server's guard (exec/guard_linux.go):
// one, started with the first call, and gone once the server has exited
// normally, having ended nothing.
func TestGuardEndsWithServer(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	guards := func() []int {
		var g []int
		for _, p := range processes(t) {
			if p.ppid == s.pid() && p.alive() && isGuard(p.pid) {
				g = append(g, p.pid)
			}
		}
		return g
	}
	if g := guards(); len(g) != 0 {
		t.Errorf("guards before the first call: %v, want none", g)
	}
	for range 3 {
		if out, _ := resultOutput(t, s.call(t, context.Background(), "mycli_sleep", `{"flags":{"for":"1ms"}}`)); out.ExitCode != 0 {
			t.Fatalf("sleep: %+v", out)
		}
	}
	g := guards()
	if len(g) != 1 {
		t.Fatalf("guards after three calls: %v, want one", g)
	}
	if code := s.close(); code != 0 {
		t.Errorf("server exit code %d", code)
	}
	deadline := time.Now().Add(groupEnd)
	for {
		p, ok := readProc(g[0])
		if !ok || !p.alive() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the guard %d outlived the server by %s: %+v", g[0], groupEnd, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
