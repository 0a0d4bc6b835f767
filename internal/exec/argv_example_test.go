package exec_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/spf13/pflag"
)

// Write the argv of a tool call: the arguments come as JSON, decoded with
// UseNumber; the flag set is the command's.
func ExampleCommandLine_Argv() {
	fs := pflag.NewFlagSet("greet", pflag.ContinueOnError)
	fs.Bool("color", true, "colored output")
	fs.Int64("count", 1, "how many times")
	fs.StringSlice("tag", nil, "tags")
	fs.StringToString("label", nil, "labels")
	fs.String("name", "world", "who to greet")
	fs.String("token", "", "never exposed to the model")
	line := exec.CommandLine{Name: "CLINAME greet", Path: []string{"greet"}, Flags: fs}

	input := `{"color": false, "count": 1000000, "tag": ["a,b", "c"], "label": {"k": "v"}, "name": null}`
	dec := json.NewDecoder(strings.NewReader(input))
	dec.UseNumber()
	var flags map[string]any
	if err := dec.Decode(&flags); err != nil {
		panic(err)
	}

	// null means not set: --name is left out, and so is --token, which was
	// not asked for; "--token=stolen" stays a positional argument.
	argv, err := line.Argv(flags, []string{"--token=stolen", "-n"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range argv {
		fmt.Println(a)
	}
	// Output:
	// greet
	// --color=false
	// --count=1000000
	// --label=k=v
	// --tag="a,b",c
	// --
	// --token=stolen
	// -n
}

// Argv refuses what no command line can express, naming the flag.
func ExampleCommandLine_Argv_error() {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Int8("level", 0, "")
	line := exec.CommandLine{Name: "CLINAME x", Path: []string{"x"}, Flags: fs}
	_, err := line.Argv(map[string]any{"level": json.Number("300")}, nil, nil)
	fmt.Println(err)
	// Output:
	// flag --level: 300 is out of range for int8 (-128 to 127): invalid value
}
