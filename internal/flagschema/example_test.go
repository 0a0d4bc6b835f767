package flagschema_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/spf13/pflag"
)

func ExampleFor() {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.Int8("level", 3, "compression level")
	fs.StringSlice("tag", []string{"a", "b"}, "tags to add")
	fs.String("mode", "fast", "how to run")
	_ = fs.SetAnnotation("mode", flagschema.Annotation, []string{`{"enum": ["fast", "safe"]}`})

	fs.VisitAll(func(f *pflag.Flag) {
		s, err := flagschema.For(f)
		if err != nil {
			fmt.Println(err) // s is the generated schema: still usable
		}
		b, _ := json.Marshal(s)
		fmt.Println(f.Name, string(b))
	})
	// Output:
	// level {"type":"integer","description":"compression level","default":3,"minimum":-128,"maximum":127}
	// mode {"type":"string","description":"how to run","default":"fast","enum":["fast","safe"]}
	// tag {"type":"array","items":{"type":"string"},"description":"tags to add","default":["a","b"]}
}

func ExampleFor_refused() {
	fs := pflag.NewFlagSet("get", pflag.ContinueOnError)
	fs.Duration("timeout", 30*time.Second, "request timeout")
	_ = fs.SetAnnotation("timeout", flagschema.Annotation, []string{`{"$ref": "https://example.com/duration.json"}`})

	s, err := flagschema.For(fs.Lookup("timeout"))
	fmt.Println(err)
	fmt.Println(s.Type, s.Description)
	// Output:
	// flag --timeout: jsonschema annotation refused: external $ref "https://example.com/duration.json" at the root: only references within the schema (#...) are allowed
	// string request timeout (Go duration such as 30s, 5m, 1h30m)
}

func ExampleFor_draft07() {
	fs := pflag.NewFlagSet("deploy", pflag.ContinueOnError)
	fs.String("target", "", "where to deploy")
	_ = fs.SetAnnotation("target", flagschema.Annotation, []string{`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"definitions": {"port": {"type": "integer", "minimum": 1, "maximum": 65535}},
		"type": "object",
		"properties": {"host": {"type": "string"}, "port": {"$ref": "#/definitions/port"}},
		"required": ["host"]
	}`})

	s, err := flagschema.For(fs.Lookup("target"))
	if err != nil {
		fmt.Println(err)
	}
	b, _ := json.Marshal(s)
	fmt.Println(string(b))
	// Output:
	// {"type":"object","properties":{"host":{"type":"string"},"port":{"type":"integer","minimum":1,"maximum":65535}},"description":"where to deploy","required":["host"]}
}

func ExampleDefault() {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.StringToInt("limit", map[string]int{"cpu": 2}, "limits")
	fs.Duration("wait", 0, "how long to wait")
	_ = fs.Parse([]string{"--limit=cpu=8"}) // changed: the default is still reported

	for _, name := range []string{"limit", "wait"} {
		v, ok := flagschema.Default(fs.Lookup(name))
		fmt.Printf("%s %#v %v\n", name, v, ok)
	}
	// Output:
	// limit map[string]interface {}{"cpu":2} true
	// wait <nil> false
}

func ExampleKindOf() {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.IPSlice("allow", nil, "allowed addresses")
	fmt.Println(flagschema.KindOf(fs.Lookup("allow")).Name())
	// Output:
	// ipSlice
}
