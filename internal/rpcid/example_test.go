package rpcid_test

import (
	"encoding/json"
	"fmt"

	"github.com/cobramcp/cobramcp/internal/rpcid"
)

func ExampleExact() {
	for _, id := range []string{`7`, `"abc"`, `9007199254740992`, `9007199254740993`, `1.0`} {
		fmt.Println(id, rpcid.Exact(json.RawMessage(id)))
	}
	// Output:
	// 7 true
	// "abc" true
	// 9007199254740992 true
	// 9007199254740993 false
	// 1.0 false
}
