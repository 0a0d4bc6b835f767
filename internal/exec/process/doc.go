// Package process runs a program as one bounded process: no shell, stdin
// from the null device, a process group of its own that is ended whole on
// timeout or cancellation, and output capped per stream.
//
//	res, err := process.Run(ctx, "/usr/local/bin/mycli", []string{"greet", "--name=ada"}, process.Options{
//		Timeout:   time.Minute,
//		MaxOutput: 256 << 10,
//	})
//	if err != nil {
//		return err // could not start
//	}
//	fmt.Println(res.ExitCode, res.Stdout, res.Stderr)
//
// Package exec writes the argv ([github.com/cobramcp/cobramcp/exec.CommandLine])
// and names Run, Options and Result for its callers.
//
// [Run] starts one child process, without a shell, with stdin from the
// null device, in a process group of its own. A timeout
// ([Options].Timeout) or a canceled context ends the whole group (SIGTERM,
// then SIGKILL after a grace), so no descendant outlives the call. On
// Linux the group also ends when this process dies, even by SIGKILL: every
// child is started from one thread that lives as long as the process, with
// the parent-death signal, and a small guard process (started with the first
// Run, named cobramcp-guard) ends the rest of each running call's group when
// this process is gone. Output is read as it arrives, can be reported line by line ([Options].OnLine),
// and is capped per stream ([Options].MaxOutput), keeping its start and
// its end, so memory stays bounded whatever the command prints. A non-zero
// exit is a [Result], not an error: the error only says that the process
// could not be started.
//
// On Linux the runner reads the output of every running call with epoll and
// raw system calls from the call's own goroutine; elsewhere it uses
// os/exec and a goroutine per stream.
package process
