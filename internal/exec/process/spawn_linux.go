package process

import (
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"
)

// spec is one start, prepared by Run before it hands the start to the
// starter: the program's resolved path, its whole argv (the program name
// first), its environment, final, and its directory.
type spec struct {
	path string
	argv []string
	env  []string
	dir  string
}

// prepare resolves path as os/exec's Command does (a name without a
// separator is looked up in PATH; the child's argv[0] stays path as given)
// and computes the environment as os/exec's Start does (see environ).
func prepare(path string, argv []string, opts *Options) (*spec, error) {
	s := &spec{path: path, dir: opts.Dir}
	if filepath.Base(path) == path {
		lp, err := osexec.LookPath(path)
		if err != nil {
			return nil, err
		}
		s.path = lp
	}
	s.argv = make([]string, 1+len(argv))
	s.argv[0] = path
	copy(s.argv[1:], argv)
	env, err := environ(opts.Env, opts.Dir)
	if err != nil {
		return nil, err
	}
	s.env = env
	return s, nil
}

// environ is the child's environment, by os/exec's rules: env, or when it
// is nil this process's environment with PWD set to dir when dir is given;
// of entries with the same key the last wins; an empty entry is dropped,
// and an entry holding a NUL byte is an error.
func environ(env []string, dir string) ([]string, error) {
	if env == nil {
		env = syscall.Environ()
		if dir != "" {
			pwd, err := filepath.Abs(dir)
			if err != nil {
				return nil, err
			}
			env = append(env, "PWD="+pwd)
		}
	}
	return lastOfEachKey(env)
}

// lastOfEachKey returns env with only the last entry of each key, in the
// order of those entries, without empty entries; an entry without '=' is
// kept as it is. env itself comes back when it has nothing to drop.
func lastOfEachKey(env []string) ([]string, error) {
	if len(env) <= 64 && noKeyTwice(env) {
		return env, nil
	}
	seen := make(map[string]struct{}, len(env))
	drop := 0
	for i := len(env) - 1; i >= 0; i-- {
		kv := env[i]
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, errors.New("exec: environment variable contains NUL")
		}
		k, ok := envKey(kv)
		switch {
		case kv == "":
			drop++
		case !ok:
		case hasKey(seen, k):
			drop++
		default:
			seen[k] = struct{}{}
		}
	}
	if drop == 0 {
		return env, nil
	}
	clear(seen)
	out := make([]string, len(env)-drop)
	j := len(out)
	for i := len(env) - 1; i >= 0; i-- {
		kv := env[i]
		k, ok := envKey(kv)
		switch {
		case kv == "":
			continue
		case ok && hasKey(seen, k):
			continue
		case ok:
			seen[k] = struct{}{}
		}
		j--
		out[j] = kv
	}
	return out, nil
}

// noKeyTwice reports whether env, of at most 64 entries, has no key twice,
// no empty entry and no NUL byte, without a map: the usual environment,
// which then goes to the child as it is.
func noKeyTwice(env []string) bool {
	var hashes [64]uint64 // of the keys; 0: no key
	for i, kv := range env {
		if kv == "" || strings.IndexByte(kv, 0) >= 0 {
			return false
		}
		k, ok := envKey(kv)
		if !ok {
			continue
		}
		h := uint64(14695981039346656037) // FNV-1a
		for j := 0; j < len(k); j++ {
			h = (h ^ uint64(k[j])) * 1099511628211
		}
		h |= 1
		for j, o := range hashes[:i] {
			if o == h {
				if ko, _ := envKey(env[j]); ko == k {
					return false
				}
			}
		}
		hashes[i] = h
	}
	return true
}

func hasKey(m map[string]struct{}, k string) bool { _, ok := m[k]; return ok }

// envKey is the key of the entry kv: what precedes its first '=' (a
// leading '=' belongs to the key); ok is false when kv has no '='.
func envKey(kv string) (key string, ok bool) {
	i := strings.IndexByte(kv, '=')
	if i == 0 {
		i = strings.IndexByte(kv[1:], '=') + 1
	}
	if i < 0 {
		return "", false
	}
	return kv[:i], true
}

// spawner starts children from the starter's thread; it keeps the null
// device open for every child's stdin.
type spawner struct {
	null int // -1: could not be opened; each start then fails
	err  error
}

func newSpawner() *spawner {
	fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &spawner{null: -1, err: &os.PathError{Op: "open", Path: os.DevNull, Err: err}}
	}
	return &spawner{null: fd}
}

// proc is a started child: its pid (the id of its process group too), a
// pidfd (-1: none, an old kernel) and the read ends of its output pipes
// (non-blocking).
type proc struct {
	pid, pidfd int
	outR, errR int
	slot       int // in the guard (see guard.watch)
}

// files returns the read ends of the child's output pipes as files, in the
// poller.
func (p *proc) files() (outR, errR *os.File) {
	return os.NewFile(uintptr(p.outR), "|0"), os.NewFile(uintptr(p.errR), "|0")
}

// spawn starts s with stdin from the null device and stdout and stderr on
// pipes of their own, in a process group of its own, with the parent-death
// signal. This process keeps only the read ends. Only the starter calls
// it.
func (sp *spawner) spawn(s *spec) (*proc, error) {
	if sp.null < 0 {
		return nil, sp.err
	}
	outR, outW, err := outputPipe()
	if err != nil {
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := outputPipe()
	if err != nil {
		syscall.Close(outR)
		syscall.Close(outW)
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	p := &proc{pidfd: -1, slot: -1}
	attr := &syscall.ProcAttr{
		Dir:   s.dir,
		Env:   s.env,
		Files: []uintptr{uintptr(sp.null), uintptr(outW), uintptr(errW)},
		Sys: &syscall.SysProcAttr{
			Setpgid:   true,
			Pdeathsig: syscall.SIGKILL, // see lockThreadForever
			PidFD:     &p.pidfd,
		},
	}
	p.pid, _, err = syscall.StartProcess(s.path, s.argv, attr)
	// The child holds its own copies of the write ends; ours must go, or
	// the reads would never reach the end.
	rawClose(outW)
	rawClose(errW)
	if err != nil {
		rawClose(outR)
		rawClose(errR)
		return nil, &os.PathError{Op: "fork/exec", Path: s.path, Err: err}
	}
	p.outR, p.errR = outR, errR
	return p, nil
}

// wait waits for the child to exit and reaps it: in the poller on the
// pidfd, so no thread waits per call, then wait4 at once (see reap).
func (p *proc) wait() (code int, signal string, err error) {
	if p.pidfd >= 0 {
		awaitExit(p.pidfd)
		p.pidfd = -1
	}
	return p.reap(false)
}

// reap waits for the child with wait4, and closes its pidfd if still open;
// exited says that the child is known to have exited (wait4 then returns at
// once). It returns the exit code (-1 when a signal ended the child) and
// the signal's name.
func (p *proc) reap(exited bool) (code int, signal string, err error) {
	if p.pidfd >= 0 {
		rawClose(p.pidfd)
		p.pidfd = -1
	}
	var ws syscall.WaitStatus
	for {
		if exited {
			if e := rawWait4(p.pid, &ws); e != 0 {
				err = e
			}
		} else {
			_, err = syscall.Wait4(p.pid, &ws, 0, nil)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return -1, "", os.NewSyscallError("wait4", err)
	}
	if ws.Signaled() {
		signal = ws.Signal().String()
	}
	return ws.ExitStatus(), signal, nil
}

// outputPipe makes a pipe for one output stream of a child: the read end
// is non-blocking (Run reads it in the poller); the write end, which only
// the child uses, stays blocking. Both ends are close-on-exec.
func outputPipe() (r, w int, err error) {
	var p [2]int32
	if _, _, e := syscall.RawSyscall(syscall.SYS_PIPE2, uintptr(unsafe.Pointer(&p)), syscall.O_CLOEXEC, 0); e != 0 {
		return -1, -1, os.NewSyscallError("pipe2", e)
	}
	r, w = int(p[0]), int(p[1])
	if e := rawSetNonblock(r); e != 0 {
		rawClose(r)
		rawClose(w)
		return -1, -1, os.NewSyscallError("fcntl", e)
	}
	return r, w, nil
}
