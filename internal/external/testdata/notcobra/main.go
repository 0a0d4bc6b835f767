// Command notcobra is a test fixture: a CLI built on the standard flag
// package, which knows nothing of cobra's __complete.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	verbose := flag.Bool("v", false, "verbose")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "unknown command %q\n", flag.Arg(0))
		os.Exit(2)
	}
	fmt.Println("hello", *verbose)
}
