package httpe2e

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// procStat is what /proc/PID/stat says of one process.
type procStat struct {
	pid, ppid, pgid int
	state           byte
}

// processes lists the live processes (zombies excluded).
func processes() []procStat {
	ents, _ := os.ReadDir("/proc")
	var out []procStat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may contain spaces.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		if f[0] == "Z" {
			continue
		}
		out = append(out, procStat{pid: pid, ppid: ppid, pgid: pgid, state: f[0][0]})
	}
	return out
}

// children returns the live children of pid, leaving out the server's
// guard (exec/guard_linux.go: a shell whose argv[0] is "cobramcp-guard",
// started with the first call in a group of its own, which ends the calls'
// groups if the server is killed): it lives as long as the server.
func children(pid int) []procStat {
	var out []procStat
	for _, p := range processes() {
		if p.ppid == pid && !isGuard(p.pid) {
			out = append(out, p)
		}
	}
	return out
}

// isGuard reports whether the process pid is a server's guard.
func isGuard(pid int) bool {
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	return err == nil && string(argv0) == "cobramcp-guard"
}

// inGroups returns the live processes whose process group is one of pgids.
func inGroups(pgids map[int]bool) []procStat {
	var out []procStat
	for _, p := range processes() {
		if pgids[p.pgid] {
			out = append(out, p)
		}
	}
	return out
}
