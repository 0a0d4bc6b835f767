package flagschema

import (
	"encoding/base64"
	"encoding/hex"
	"net"
	"regexp"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// The patterns are checked against the parsers pflag uses, on inputs that
// neither side wrote to pass: each pattern must accept exactly what the
// parser accepts (or, where noted, at least that).

func TestDurationPatternMatchesParseDuration(t *testing.T) {
	re := regexp.MustCompile(durationPattern)
	inputs := []string{
		"0", "+0", "-0", "00", "0s", "1s", "1", "s", "", "-", "+",
		"1.5h", "1.h", ".5m", ".m", ".", "1..5s", "1h30m", "1h 30m", "1H",
		"300ms", "2us", "2µs", "2μs", "3ns", "-1.5h", "+2m", "1m1m1m",
		"1d", "1w", "1e3s", "0x10s", "1s-", "--1s", "1.5.5s", "1s2", "ms",
		"2h45m30.5s", "1_000s", " 1s", "1s ", "1Ms", "0.000000001s",
	}
	for _, in := range inputs {
		_, err := time.ParseDuration(in)
		if got, want := re.MatchString(in), err == nil; got != want {
			t.Errorf("%q: pattern matches %v, ParseDuration ok %v (%v)", in, got, want, err)
		}
	}
}

func TestHexPatternMatchesDecode(t *testing.T) {
	re := regexp.MustCompile(hexPattern)
	for _, in := range []string{"", "0", "00", "0g", "cafe", "CAFE", "CaFe0", "cafe00", "0x00", "-1", "ff ff"} {
		_, err := hex.DecodeString(in)
		if got, want := re.MatchString(in), err == nil; got != want {
			t.Errorf("%q: pattern matches %v, hex ok %v", in, got, want)
		}
	}
}

func TestBase64PatternMatchesDecode(t *testing.T) {
	re := regexp.MustCompile(base64Pattern)
	inputs := []string{"", "a", "aa", "aaa", "aaaa", "aa==", "aaa=", "a===", "aGk=", "aGkh",
		"aGk", "=", "====", "aa=a", "a+/b", "a-_b", "aGkhaGk=", "aGk=aGk=", "aGkh====", "aB==", "aaB="}
	for _, in := range inputs {
		_, err := base64.StdEncoding.DecodeString(in)
		match := re.MatchString(in)
		// "aB==" carries bits past the last byte: Go's StdEncoding is not
		// strict and accepts it, as the pattern does.
		if match != (err == nil) {
			t.Errorf("%q: pattern matches %v, base64 ok %v", in, match, err == nil)
		}
	}
}

func TestIPMaskPatternAcceptsWhatPflagAccepts(t *testing.T) {
	re := regexp.MustCompile(ipMaskPattern)
	for _, in := range []string{"255.255.255.0", "255.0.0.0", "0.0.0.0", "ffffff00", "FFFF0000", "00000000", "ffff", "255.255", "1.2.3.4.5", "gggggggg"} {
		ok := pflag.ParseIPv4Mask(in) != nil
		if ok && !re.MatchString(in) {
			t.Errorf("%q: accepted by pflag, refused by the pattern", in)
		}
	}
	for _, in := range []string{"ffff", "255.255", "1.2.3.4.5", "/24"} {
		if re.MatchString(in) {
			t.Errorf("%q: matched by the pattern", in)
		}
	}
}

func TestIPPatternAcceptsWhatParseIPAccepts(t *testing.T) {
	re := regexp.MustCompile(ipPattern)
	inputs := []string{"1.2.3.4", "0.0.0.0", "255.255.255.255", "::", "::1", "fe80::1", "2001:DB8::8:800:200C:417A",
		"::ffff:192.0.2.1", "1.2.3", "1.2.3.4.5", "localhost", "fe80::1%eth0", "", "256.1.1.1", ":::"}
	for _, in := range inputs {
		if net.ParseIP(in) != nil && !re.MatchString(in) {
			t.Errorf("%q: accepted by ParseIP, refused by the pattern", in)
		}
	}
	for _, in := range []string{"localhost", "fe80::1%eth0", "", "10.0.0.0/8"} {
		if re.MatchString(in) {
			t.Errorf("%q: matched by the pattern", in)
		}
	}
}

func TestCIDRPatternAcceptsWhatParseCIDRAccepts(t *testing.T) {
	re := regexp.MustCompile(cidrPattern)
	inputs := []string{"10.0.0.0/8", "192.168.1.1/32", "0.0.0.0/0", "::/0", "2001:db8::/32",
		"::ffff:10.0.0.0/104", "fe80::1/64", "10.0.0.0", "10.0.0.0/", "/8", "10.0.0.0/8/8", "host/8", "fe80::1%eth0/64"}
	for _, in := range inputs {
		_, _, err := net.ParseCIDR(in)
		match := re.MatchString(in)
		if err == nil && !match {
			t.Errorf("%q: accepted by ParseCIDR, refused by the pattern", in)
		}
	}
	for _, in := range []string{"10.0.0.0", "/8", "host/8", "10.0.0.0/8/8"} {
		if re.MatchString(in) {
			t.Errorf("%q: matched by the pattern", in)
		}
	}
}

// durationPatternLiteral is the duration pattern written unit by unit, as
// time.ParseDuration's documentation lists the syntax; durationPattern is
// a shorter form of it.
const durationPatternLiteral = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// TestDurationPatternShortFormIsEquivalent proves the short duration
// pattern equivalent to the literal one on every string of up to 5
// symbols over an alphabet holding each character either pattern names,
// plus one that neither does.
func TestDurationPatternShortFormIsEquivalent(t *testing.T) {
	short, literal := regexp.MustCompile(durationPattern), regexp.MustCompile(durationPatternLiteral)
	if len(durationPattern) >= len(durationPatternLiteral) {
		t.Errorf("the short pattern (%d bytes) is not shorter than the literal one (%d)", len(durationPattern), len(durationPatternLiteral))
	}
	alphabet := []string{"0", "1", "9", ".", "+", "-", "n", "u", "µ", "μ", "m", "s", "h", "x"}
	checked, matched := 0, 0
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		checked++
		a, b := short.MatchString(prefix), literal.MatchString(prefix)
		if a != b {
			t.Errorf("%q: the short pattern matches %v, the literal one %v", prefix, a, b)
		}
		if a {
			matched++
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, n-1)
		}
	}
	gen("", 5)
	if matched < 1000 {
		t.Errorf("only %d of %d strings match: the alphabet does not exercise the pattern", matched, checked)
	}
}
