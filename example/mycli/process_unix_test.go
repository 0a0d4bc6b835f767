//go:build unix

package mycli_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// command returns the test binary set up to behave as the mycli program (see TestMain).
func command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	return cmd
}

func TestProcessExitCodes(t *testing.T) {
	t.Parallel()
	state := newState(t)
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"version"}, 0, "mycli version 1.4.2\n", ""},
		{[]string{"fail", "--code", "42", "--stdout", "out"}, 42, "out\n", "failing on purpose\nError: exit code 42\n"},
		{[]string{"env-get", "MYCLI_TEST_SURELY_NOT_SET_9f2c"}, 2, "", "is not set"},
		{[]string{"get", "pods", "--bogus"}, 1, "", "unknown flag: --bogus"},
		{[]string{"--state", state, "list"}, 0, "db-0\n", `Command "list" is deprecated, use get`},
		{[]string{"stray-print"}, 0, "stray line on stdout\n", "stray line on stderr\n"},
	}
	for _, tt := range tests {
		cmd := command(t, tt.args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("mycli %q: %v", tt.args, err)
		}
		if code != tt.code {
			t.Errorf("mycli %q: exit code %d, want %d (stderr %q)", tt.args, code, tt.code, stderr.String())
		}
		if !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("mycli %q: stdout %q, stderr %q; want them to contain %q and %q", tt.args, stdout.String(), stderr.String(), tt.stdout, tt.stderr)
		}
	}
}

// startSpawn starts `mycli sleep --spawn args...` in its own process group and returns it, a
// reader of the rest of its stdout, and the grandchild's pid from the first line.
func startSpawn(t *testing.T, args ...string) (*exec.Cmd, io.Reader, int) {
	t.Helper()
	cmd := command(t, append([]string{"sleep", "--spawn"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("read the grandchild pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("first line %q is not a pid: %v", line, err)
	}
	return cmd, r, pid
}

// gone reports whether pid no longer runs (it does not exist, or it is a zombie nobody reaped).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, _ := bytes.Cut(stat, []byte(") "))
	return len(after) > 0 && after[0] == 'Z'
}

func TestSleepSpawnSharesTheProcessGroup(t *testing.T) {
	t.Parallel()
	cmd, rest, pid := startSpawn(t, "--for", "1m", "--ignore-term")
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatalf("grandchild %d: %v", pid, err)
	}
	if pgid != cmd.Process.Pid {
		t.Errorf("grandchild process group %d, want the child's %d", pgid, cmd.Process.Pid)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, rest) // EOF once the grandchild, which shares stdout, is dead too
	_ = cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); !gone(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still runs after its process group was killed", pid)
		}
	}
}

func TestSleepIgnoreTerm(t *testing.T) {
	t.Parallel()
	cmd, rest, _ := startSpawn(t, "--for", "300ms", "--child-for", "1ms", "--ignore-term")
	// The pid line is printed after SIGTERM is ignored, so the child must survive this.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(rest)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sleep --ignore-term after SIGTERM: %v", err)
	}
	if !strings.Contains(string(out), "slept 300ms") {
		t.Errorf("stdout %q, want slept 300ms", out)
	}
}
