// Command hang is a test fixture: a program that, asked anything, starts a
// child that sleeps and then hangs itself, writing the child's pid to
// $HANG_PIDFILE. Reflection must time out and leave nothing running.
package main

import (
	"os"
	"os/exec"
	"strconv"
	"time"
)

func main() {
	child := exec.Command("sleep", "3600")
	if err := child.Start(); err == nil {
		os.WriteFile(os.Getenv("HANG_PIDFILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o600)
	}
	for {
		time.Sleep(time.Hour)
	}
}
