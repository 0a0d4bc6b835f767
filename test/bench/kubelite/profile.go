//go:build profile

package main

import (
	"os"
	"runtime/pprof"
)

// Built with -tags profile, kubelite writes a CPU profile of its whole run
// to $KUBELITE_CPUPROFILE (and the allocations to $KUBELITE_CPUPROFILE.allocs) when it runs as the server (mcp start), for
// looking into the server's cost per call.
func init() {
	path := os.Getenv("KUBELITE_CPUPROFILE")
	if path == "" || len(os.Args) < 3 || os.Args[1] != "mcp" || os.Args[2] != "start" {
		return
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
