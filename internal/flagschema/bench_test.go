package flagschema

import (
	"testing"

	"github.com/spf13/pflag"
)

// BenchmarkForGenerated measures For over one flag of every type: a command
// tree of a few hundred flags should cost well under a millisecond.
func BenchmarkForGenerated(b *testing.B) {
	var flags []*pflag.Flag
	for _, tc := range typeCases() {
		flags = append(flags, flagFor(b, tc.add))
	}
	b.ResetTimer()
	for b.Loop() {
		for _, f := range flags {
			if _, err := For(f); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkForAnnotation measures For on a draft-07 annotation with
// definitions to inline: parsing, converting, resolving and inlining.
func BenchmarkForAnnotation(b *testing.B) {
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	fs.String("x", "", "config")
	_ = fs.SetAnnotation("x", Annotation, []string{`{"$schema":"http://json-schema.org/draft-07/schema#",
		"definitions":{"port":{"type":"integer","minimum":1,"maximum":65535},"host":{"type":"string"}},
		"type":"object","properties":{"host":{"$ref":"#/definitions/host"},
		"ports":{"type":"array","items":{"$ref":"#/definitions/port"}}},"required":["host"]}`})
	f := fs.Lookup("x")
	for b.Loop() {
		if _, err := For(f); err != nil {
			b.Fatal(err)
		}
	}
}
