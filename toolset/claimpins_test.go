package toolset_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestClaimPin: a flag pinned to a caller's claim leaves the schemas like
// any pin; a token's claims are checked by the flag's parser; a call
// without a caller (Served.Call) is refused and nothing runs.
func TestClaimPin(t *testing.T) {
	ts, argvs := recordingTree(t)
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Tools: []string{"mycli_echo"}, Pins: []toolset.Pin{{Flag: "int", Claim: "uid", From: "rule 1"}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v.Tools()[0].InputSchema)
	if strings.Contains(string(b), `"int"`) {
		t.Errorf("the claim's flag is listed: %s", b)
	}
	for _, c := range []struct {
		extra map[string]any
		says  string
	}{
		{map[string]any{"uid": json.Number("1234567")}, ""},
		{map[string]any{"uid": "1234567"}, ""},
		{map[string]any{"uid": "many"}, `flag --int=many (pinned rule 1)`},
		{map[string]any{"uid": []any{"1"}}, `pinned rule 1 to the caller's claim "uid", which this caller's token does not carry`},
		{nil, `which this caller's token does not carry`},
	} {
		err := v.CheckClaims(&auth.TokenInfo{UserID: "u", Extra: c.extra})
		if c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("claims %v: %v, want %q", c.extra, err, c.says)
		}
	}
	res, err := v.Call(context.Background(), "mycli_echo", json.RawMessage(`{}`))
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "which this caller's token does not carry") || len(*argvs) != 0 {
		t.Errorf("a call without a caller: %v %q, ran %q", err, resultText(res), *argvs)
	}
	// A flag pinned to a value by one policy and to a claim by another.
	_, err = ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "int", Value: "1", From: "--set"}}}, toolset.Policy{Pins: []toolset.Pin{{Flag: "int", Claim: "uid", From: "rule 1"}}})
	if err == nil || !strings.Contains(err.Error(), "pinned twice, to different values (--set and rule 1)") {
		t.Errorf("a value and a claim for one flag: %v", err)
	}
}
