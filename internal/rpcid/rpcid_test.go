package rpcid

import (
	"encoding/json"
	"testing"
)

func TestExact(t *testing.T) {
	tests := []struct {
		id            string
		exact, number bool
	}{
		{`0`, true, true},
		{`7`, true, true},
		{`-7`, true, true},
		{`9007199254740992`, true, true},
		{`-9007199254740992`, true, true},
		{` 12 `, true, true},
		{`"9007199254740993"`, true, false},
		{`""`, true, false},
		{`9007199254740993`, false, true},
		{`-9007199254740993`, false, true},
		{`1180591620717411303424`, false, true},
		{`1.5`, false, true},
		{`1.0`, false, true},
		{`1e2`, false, true},
		{`-0`, false, true},
		{`007`, false, false},
		{`null`, false, false},
		{`true`, false, false},
		{`{}`, false, false},
		{``, false, false},
	}
	for _, tt := range tests {
		if got := Exact(json.RawMessage(tt.id)); got != tt.exact {
			t.Errorf("Exact(%s) = %v, want %v", tt.id, got, tt.exact)
		}
		if got := Number(json.RawMessage(tt.id)); got != tt.number {
			t.Errorf("Number(%s) = %v, want %v", tt.id, got, tt.number)
		}
	}
}
