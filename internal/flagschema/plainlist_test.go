package flagschema

import (
	"slices"
	"testing"
)

// TestPlainListReadsBack: the lists plainList lets skip the read-back pass
// it, both ways of reading, as a stringSlice and as a stringArray; and the
// lists it sends to the read-back are ones the read-back is there for.
func TestPlainListReadsBack(t *testing.T) {
	plain := [][]string{
		{"a"}, {"a", "b"}, {" lead", "trail ", " both "}, {`\.`}, {`\`, `\\`}, {"[", "]", "[x]"},
		{"é", "日本", "a=b", "k=v=w"}, {"\t", " "}, {"x y", "#", "'q'"}, {"--flag=v", "-x"},
	}
	for _, l := range plain {
		if !plainList(l) {
			t.Errorf("%q: not plain", l)
			continue
		}
		text := csvRecord(l)
		got, err := readStringSlice(text)
		if err != nil || !slices.Equal(got, l) {
			t.Errorf("%q: Set reads %q back as %q (%v)", l, text, got, err)
		}
		slice, _ := Lookup("stringSlice")
		array, _ := Lookup("stringArray")
		if err := checkListReadBack(slice, []string{text}, l); err != nil {
			t.Errorf("%q as a stringSlice: %v", l, err)
		}
		if err := checkListReadBack(array, l, l); err != nil {
			t.Errorf("%q as a stringArray: %v", l, err)
		}
	}
	for _, l := range [][]string{nil, {""}, {"a", ""}, {"a,b"}, {`"q"`}, {"a\r\nb"}, {"a\nb"}} {
		if plainList(l) {
			t.Errorf("%q: plain", l)
		}
	}
}
