package exec_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/exec"
)

// FuzzArgvRoundTrip sends random strings and numbers through Argv and back
// through the real cobra command, checking the values, the args and
// cobra's ArgsLenAtDash (where "--" stood) of every round trip. Argv must either give an argv that
// parses to exactly the asked values, or refuse with an error whose kind
// (ErrUnrepresentable or ErrInvalidValue) matches an independent account
// of why the input cannot be expressed.
func FuzzArgvRoundTrip(f *testing.F) {
	seeds := []struct {
		s, e1, e2, k, v, arg string
		n                    int64
		u                    uint64
		x                    float64
	}{
		{"plain", "a", "b", "key", "value", "file.txt", 1, 1, 1.5},
		{"child", "-", "", "k", "v", "child", 2, 2, 2},
		{"ls", "-l", "-", "k", "v", "-1", 3, 3, -3},
		{"", "", "", "", "", "", 0, 0, 0},
		{"--x=y", "-n", "--secret=leak", "-b", "--", "--token=x", -1, math.MaxUint64, -0.5},
		{`"quoted"`, `a"b`, `"`, `"k`, `v"`, `"`, math.MaxInt64, 1 << 63, 1e300},
		{"a,b", ",", ",,", "a,b", "x,y", ",", math.MinInt64, 65536, 1e-320},
		{"=", "a=b", "==", "k=", "=v", "=", 127, 255, 3.4028235e38},
		{"\n", "\r", "\r\n", "\n", "\r\n", "\r\n", 128, 256, 3.5e38},
		{"ünïcødé ✓", "日本語", "\xff", "ключ", "\u2028", "é", -128, 65535, math.Inf(1)},
		{"  lead", "trail  ", " ", "\t", " x ", " ", -129, 4294967296, math.NaN()},
		{"a\x00b", "\x00", "x", "\x00", "y", "\x00", 1 << 40, 0, 9007199254740993},
		{`\"`, `""`, `"a,b"`, `"k=v"`, `"`, "[]", 1e18, 1e19, 1e21},
	}
	for _, s := range seeds {
		f.Add(s.s, s.e1, s.e2, s.k, s.v, s.arg, s.n, s.u, s.x)
	}
	f.Fuzz(func(t *testing.T, s, e1, e2, k, v, arg string, n int64, u uint64, x float64) {
		nul := func(ss ...string) bool {
			for _, s := range ss {
				if strings.Contains(s, "\x00") {
					return true
				}
			}
			return false
		}
		crlf := func(ss ...string) bool {
			for _, s := range ss {
				if strings.Contains(s, "\r\n") {
					return true
				}
			}
			return false
		}
		num := func(i int64) json.Number { return json.Number(strconv.FormatInt(i, 10)) }
		xText := strconv.FormatFloat(x, 'g', -1, 64)
		finite := !math.IsNaN(x) && !math.IsInf(x, 0)
		// [-2^63, 2^63) in float64, exactly.
		fitsInt64 := x >= -9223372036854775808.0 && x < 9223372036854775808.0

		type fuzzCase struct {
			flags     map[string]any
			args      []string
			afterDash []string
			stop      bool // the flags stop at the first arg
			sub       bool // the command has the sub-command childName
			// unrep, invalid and dash say whether Argv may refuse the case
			// with ErrUnrepresentable, ErrInvalidValue or ErrDashConflict.
			unrep, invalid, dash bool
		}
		// needsDash: an independent account of when args cannot stand
		// before "--".
		needsDash := func(args ...string) bool {
			return wantArgsLenAtDash(positional{Args: args}) == 0
		}
		needsDashSub := func(args ...string) bool {
			return wantArgsLenAtDash(positional{Args: args, SubCommand: isChild}) == 0
		}
		cases := []fuzzCase{
			{flags: map[string]any{"string": s}, unrep: nul(s)},
			{flags: map[string]any{"custom": s}, unrep: nul(s)},
			{flags: map[string]any{"json": s}, unrep: nul(s)},
			{flags: map[string]any{"stringSlice": []any{e1, e2}}, unrep: nul(e1, e2) || crlf(e1, e2)},
			{flags: map[string]any{"stringSlice": []any{s}}, unrep: nul(s) || crlf(s) || s == ""},
			{flags: map[string]any{"stringArray": []any{e1, e2}}, unrep: nul(e1, e2) || crlf(e1, e2)},
			{flags: map[string]any{"stringToString": map[string]any{k: v}},
				unrep: nul(k, v) || crlf(k, v) || strings.Contains(k, "=") || stringMapGetterLoses(map[string]string{k: v})},
			{flags: map[string]any{"stringToString": map[string]any{k: v, e1: e2}},
				unrep: nul(k, v, e1, e2) || crlf(k, v, e1, e2) || strings.Contains(k+e1, "=") || stringMapGetterLoses(map[string]string{k: v, e1: e2})},
			{flags: map[string]any{"stringToInt": map[string]any{k: num(n)}},
				unrep: nul(k) || strings.ContainsAny(k, ",=") || intMapGetterLoses(k), invalid: n != int64(int(n))},
			{flags: map[string]any{"stringToInt64": map[string]any{k: n, e1: u}},
				unrep: nul(k, e1) || strings.ContainsAny(k+e1, ",=") || intMapGetterLoses(k, e1), invalid: u > math.MaxInt64},
			{flags: map[string]any{"int64": num(n), "uint64": json.Number(strconv.FormatUint(u, 10))}},
			{flags: map[string]any{"int8": n}, invalid: n < math.MinInt8 || n > math.MaxInt8},
			{flags: map[string]any{"int16": num(n)}, invalid: n < math.MinInt16 || n > math.MaxInt16},
			{flags: map[string]any{"uint16": json.Number(strconv.FormatUint(u, 10))}, invalid: u > math.MaxUint16},
			{flags: map[string]any{"uint32": n}, invalid: n < 0 || n > math.MaxUint32},
			{flags: map[string]any{"intSlice": []any{num(n), n}, "uintSlice": []any{u}}},
			{flags: map[string]any{"float64": x}},
			{flags: map[string]any{"float32": x}, invalid: finite && math.IsInf(float64(float32(x)), 0)},
			{flags: map[string]any{"float64Slice": []any{x, x}, "float32Slice": []any{float32(x)}},
				unrep: floatGetterLoses(x, 64) || floatGetterLoses(float64(float32(x)), 32)},
			{flags: map[string]any{"int64": x}, invalid: !finite || x != math.Trunc(x) || !fitsInt64},
			{args: []string{arg, s, "--" + e1, "-" + e2}, unrep: nul(arg, s, e1, e2)},
			{args: []string{arg, s}, unrep: nul(arg, s)},
			{args: []string{"", arg}, unrep: nul(arg)},
			{args: []string{arg}, afterDash: []string{s, e1}, unrep: nul(arg, s, e1), dash: needsDash(arg)},
			{afterDash: []string{e1, "--", e2}, unrep: nul(e1, e2)},
			{flags: map[string]any{"string": arg}, args: []string{e2, arg}, afterDash: []string{arg}, unrep: nul(arg, e2), dash: needsDash(e2, arg)},
			{flags: map[string]any{"string": s}, args: []string{arg, s, "--" + e1, "-" + e2}, stop: true, unrep: nul(arg, s, e1, e2)},
			{args: []string{e2, arg}, afterDash: []string{s, "--", e1}, stop: true, unrep: nul(arg, s, e1, e2)},
			{args: []string{arg, s}, sub: true, unrep: nul(arg, s)},
			{args: []string{e1, arg}, afterDash: []string{s}, sub: true, unrep: nul(arg, s, e1), dash: needsDashSub(e1, arg)},
			{args: []string{arg, e2}, afterDash: []string{s}, stop: true, sub: true, unrep: nul(arg, s, e2)},
		}
		if finite {
			// The JSON forms of x.
			cases = append(cases,
				fuzzCase{flags: map[string]any{"float64": json.Number(xText)}},
				fuzzCase{flags: map[string]any{"int": json.Number(xText)}, invalid: x != math.Trunc(x) || !fitsInt64},
				fuzzCase{flags: map[string]any{"jsoncustom": []any{json.Number(xText), s}}, unrep: nul(s)},
			)
		}
		allOK := map[string]any{}
		var allArgs positional
		for i, c := range cases {
			p := positional{Args: c.args, AfterDash: c.afterDash, StopsAtFirstArg: c.stop}
			if c.sub {
				p.SubCommand = isChild
			}
			_, err := roundTripP(t, c.flags, p)
			switch {
			case err == nil:
				for name, val := range c.flags {
					allOK[name] = val
				}
				if (c.args != nil || c.afterDash != nil) && !c.stop && !c.sub {
					allArgs = positional{Args: c.args, AfterDash: c.afterDash}
				}
			case errors.Is(err, exec.ErrUnrepresentable) && c.unrep:
			case errors.Is(err, exec.ErrInvalidValue) && c.invalid:
			case errors.Is(err, exec.ErrDashConflict) && c.dash:
			default:
				t.Fatalf("case %d %#v args %q afterDash %q: unexpected error: %v", i, c.flags, c.args, c.afterDash, err)
			}
		}
		// Everything that went through alone goes through together.
		if _, err := roundTripP(t, allOK, allArgs); err != nil {
			t.Fatalf("all together %#v args %+v: %v", allOK, allArgs, err)
		}
	})
}
