package serve

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestReadSDKMessage: reading a message's top-level members gives what
// decoding it in full gives, for the shapes the go-sdk writes and for
// values that hide brackets, quotes and escapes in strings.
func TestReadSDKMessage(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a } ] { [ \" \\ \u00e9"}],"structuredContent":{"stdout":"x\"}"}}}`,
		`{"jsonrpc":"2.0","id":"abc","error":{"code":0,"message":"method is invalid during session initialization"}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad","data":{"x":[1,{"y":"}"}]}}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"message":"{"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"roots/list","params":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`,
		` { "jsonrpc" : "2.0" , "id" : 2 , "result" : [ 1 , 2 ] , "error" : null } `,
		`{"jsonrpc":"2.0","id":-1.5e3,"result":true}`,
		`{}`,
		// Read in full: a member name with an escape, not an object, an
		// error that is not an object.
		`{"jsonrpc":"2.0","\u0069d":4,"result":{}}`,
		`[{"jsonrpc":"2.0","id":1,"result":{}}]`,
		`{"jsonrpc":"2.0","id":5,"error":"no"}`,
	} {
		var want sdkMessage
		wantErr := json.Unmarshal([]byte(msg), &want)
		got, err := readSDKMessage([]byte(msg))
		if (err == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, decoding in full %v", msg, err, wantErr)
			continue
		}
		if !reflect.DeepEqual(norm(got), norm(want)) {
			t.Errorf("%s:\nread %+v\nwant %+v", msg, norm(got), norm(want))
		}
	}
}

// norm compares two sdkMessages by what the writers use: the id's bytes,
// whether there is a method, and the error.
func norm(m sdkMessage) any {
	type out struct {
		ID     string
		Method bool
		Error  any
	}
	var e any
	if m.Error != nil {
		e = *m.Error
	}
	return out{strings.TrimSpace(string(m.ID)), m.Method != nil, e}
}

// TestTopMembers: the members of an object as written, how deeply it
// nests, and false where the scan cannot read the message.
func TestTopMembers(t *testing.T) {
	tests := []struct {
		msg     string
		want    []string // key=value
		deepest int
		ok      bool
	}{
		{`{"a":1,"b":"}{","c":{"d":["]"]},"e":null}`, []string{`a=1`, `b="}{"`, `c={"d":["]"]}`, `e=null`}, 3, true},
		{` {} `, nil, 1, true},
		{`{"a":"x\"y"}`, []string{`a="x\"y"`}, 1, true},
		{`{"a":[[],{"b":[1]}],"c":[]}`, []string{`a=[[],{"b":[1]}]`, `c=[]`}, 4, true},
		{`{"a\"b":1}`, nil, 0, false},
		{`[1]`, nil, 0, false},
		{`{"a":1`, []string{`a=1`}, 0, false},
		{`{"a":"unterminated}`, nil, 0, false},
	}
	for _, tt := range tests {
		var got []string
		deepest, ok := topMembers([]byte(tt.msg), func(k, v []byte) { got = append(got, string(k)+"="+string(v)) })
		if ok != tt.ok || (ok && (!reflect.DeepEqual(got, tt.want) || deepest != tt.deepest)) {
			t.Errorf("%s: %q depth %d %v, want %q depth %d %v", tt.msg, got, deepest, ok, tt.want, tt.deepest, tt.ok)
		}
		if want, _ := shape([]byte(tt.msg)); ok && deepest != want {
			t.Errorf("%s: depth %d, shape says %d", tt.msg, deepest, want)
		}
	}
}
