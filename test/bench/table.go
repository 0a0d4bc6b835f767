package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// row is one figure: its direct-exec floor, cobramcp's samples, the
// figure's comparison to the floor, and the target it is checked against.
type row struct {
	name   string
	floor  []float64 // nil: no floor
	value  []float64
	vs     []float64 // the comparison per sample (or one figure); nil: none
	vsUnit string
	target string
}

type table struct{ rows []row }

func (t *table) add(r row) { t.rows = append(t.rows, r) }

// stats formats min/median/max, or the single value.
func stats(v []float64) string {
	switch len(v) {
	case 0:
		return "—"
	case 1:
		return num(v[0])
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return fmt.Sprintf("%s / %s / %s", num(s[0]), num(median(s)), num(s[len(s)-1]))
}

func num(f float64) string {
	switch a := max(f, -f); {
	case a >= 100:
		return fmt.Sprintf("%.0f", f)
	case a >= 10:
		return fmt.Sprintf("%.1f", f)
	default:
		return fmt.Sprintf("%.2f", f)
	}
}

func (t *table) print(w io.Writer) {
	fmt.Fprintln(w, "| figure | direct floor (min / median / max) | cobramcp (min / median / max) | vs floor | target |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range t.rows {
		vs := "—"
		if r.vs != nil {
			vs = stats(r.vs) + " " + r.vsUnit
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.name, stats(r.floor), stats(r.value), strings.TrimSpace(vs), r.target)
	}
}
