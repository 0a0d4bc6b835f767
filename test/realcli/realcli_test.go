package realcli

import (
	"testing"

	"github.com/cobramcp/cobramcp/toolset"
)

// BenchmarkToolsList reflects each tree in each listing and reports the
// bytes of tools/list, the bytes per tool and the ratio to the usage-line
// baseline as metrics; the time per op is the reflection's.
//
//	go test -run='^$' -bench=ToolsList .
func BenchmarkToolsList(b *testing.B) {
	for _, tr := range Trees {
		for _, l := range Listings {
			b.Run(tr.Name+"/"+l.Name, func(b *testing.B) {
				var f Figures
				for range b.N {
					var err error
					if f, err = Measure(tr.Name, tr.New(), l.Listing); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(f.Tools), "tools")
				b.ReportMetric(float64(f.List), "list-bytes")
				b.ReportMetric(float64(f.PerTool()), "bytes/tool")
				b.ReportMetric(float64(f.Baseline), "baseline-bytes")
				b.ReportMetric(f.OfBaseline(), "list/baseline")
				b.ReportMetric(float64(f.Instructions), "instructions-bytes")
			})
		}
	}
}

// TestTrees checks that every tree reflects into tools, so the figures
// measure something: kubectl serves its well-known commands.
func TestTrees(t *testing.T) {
	for _, tr := range Trees {
		f, err := Measure(tr.Name, tr.New(), toolset.Listing{})
		if err != nil {
			t.Fatal(err)
		}
		if f.Tools < 10 || f.List == 0 || f.Baseline == 0 {
			t.Errorf("%s: %+v: want at least 10 tools and non-zero sizes", tr.Name, f)
		}
	}
}
