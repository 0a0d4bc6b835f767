// Command kubeshape is a CLI of kubectl's shape that starts as fast as a
// small Cobra CLI: the command tree, flags and flag types of the spec that
// reflecting kubectl from outside found ($KUBESHAPE_SPEC, a file of
// cobramcp's reflection cache), with help printed in kubectl's style
// (`--name=DEFAULT:`, no types, only string defaults quoted, no flags on
// the root's page), so that reflecting it asks the flag parser as many
// questions as reflecting kubectl does. It does not link kubectl: each of
// its processes costs a few milliseconds of CPU where kubectl's cost about
// a hundred. `make external-timing` reflects both, to tell the cost of
// reflection from the cost of kubectl's start-up.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/external"
)

// helpTemplate is kubectl's layout: the description, examples, sub-commands,
// the command's own flags, the usage.
const helpTemplate = `{{with (or .Long .Short)}}{{.}}{{end}}
{{if .HasExample}}
Examples:
{{.Example}}
{{end}}{{if .HasAvailableSubCommands}}
Available Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}
{{end}}{{if and .HasParent .HasAvailableLocalFlags}}
Options:
{{kflags .LocalFlags}}{{end}}
Usage:
  {{if .Runnable}}{{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}
`

// kflags prints flags as kubectl's templates do.
func kflags(fs *pflag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		short := "    "
		if f.Shorthand != "" {
			short = "-" + f.Shorthand + ", "
		}
		def := f.DefValue
		if f.Value.Type() == "string" {
			def = "'" + def + "'"
		}
		fmt.Fprintf(&b, "    %s--%s=%s:\n\t%s\n\n", short, f.Name, def, f.Usage)
	})
	return b.String()
}

func main() {
	b, err := os.ReadFile(os.Getenv("KUBESHAPE_SPEC"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubeshape: KUBESHAPE_SPEC:", err)
		os.Exit(2)
	}
	var spec external.Spec
	if err := json.Unmarshal(b, &spec); err != nil || spec.Root == nil {
		fmt.Fprintln(os.Stderr, "kubeshape: KUBESHAPE_SPEC is not a reflection spec:", err)
		os.Exit(2)
	}
	spec.Root.Name = "kubeshape"
	root, _ := external.Build(&spec)
	root.Use = "kubeshape"
	cobra.AddTemplateFunc("kflags", kflags)
	root.SetHelpTemplate(helpTemplate)
	root.SilenceUsage = true
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
