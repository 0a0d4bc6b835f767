package httpe2e

import (
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

// children returns the live children of pid.
func children(pid int) []procStat {
	var out []procStat
	for _, p := range processes() {
		if p.ppid == pid {
			out = append(out, p)
		}
	}
	return out
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
