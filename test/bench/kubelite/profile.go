//go:build profile

package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
)

// Built with -tags profile, kubelite writes a CPU profile of its whole run
// to $KUBELITE_CPUPROFILE (and the allocations to $KUBELITE_CPUPROFILE.allocs) when it runs as the server (mcp start), for
// looking into the server's cost per call. A "%p" in the path is the
// server's process id (so that -against's server writes a profile of its
// own); KUBELITE_CPUPROFILE_HZ sets the sampling rate (the runtime's
// default is 100 a second, few for a server that idles between calls).
func init() {
	path := os.Getenv("KUBELITE_CPUPROFILE")
	if path == "" || len(os.Args) < 3 || os.Args[1] != "mcp" || os.Args[2] != "start" {
		return
	}
	path = strings.ReplaceAll(path, "%p", strconv.Itoa(os.Getpid()))
	if hz, err := strconv.Atoi(os.Getenv("KUBELITE_CPUPROFILE_HZ")); err == nil && hz > 0 {
		runtime.SetCPUProfileRate(hz)
	}
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	stopProfile = func() {
		pprof.StopCPUProfile()
		f.Close()
		if m, err := os.Create(path + ".allocs"); err == nil {
			_ = pprof.Lookup("allocs").WriteTo(m, 0)
			m.Close()
		}
	}
}
