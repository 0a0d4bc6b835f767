// Command listsize prints, for mycli and kubectl, the bytes of tools/list
// against the "every flag's usage line per command" baseline (issue 10),
// and the bytes of the server instructions.
//
//	cd test/realcli && go run ./listsize
package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/cobramcp/cobramcp/test/realcli"
)

func main() {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "tree\tlisting\ttools\ttools/list bytes\tbytes/tool\tbaseline bytes\tlist/baseline\tinstructions bytes\t")
	for _, tr := range realcli.Trees {
		for _, l := range realcli.Listings {
			f, err := realcli.Measure(tr.Name, tr.New(), l.Listing)
			if err != nil {
				fmt.Fprintln(os.Stderr, "listsize:", err)
				os.Exit(1)
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%d\t\n", f.Tree, l.Name, f.Tools, f.List, f.PerTool(), f.Baseline, f.OfBaseline(), f.Instructions)
		}
	}
	w.Flush()
}
