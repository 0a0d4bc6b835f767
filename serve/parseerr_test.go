package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseErrorReader(t *testing.T) {
	const a, b = `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	tests := []struct {
		name, in, pass string
		errors         int
	}{
		{"valid lines pass", a + "\n" + b + "\n", a + "\n" + b + "\n", 0},
		{"bad line answered", "{not json\n" + b + "\n", b + "\n", 1},
		{"blank lines dropped", "\n  \n" + a + "\n", a + "\n", 0},
		{"last line without newline", a + "\n" + b, a + "\n" + b + "\n", 0},
		{"several bad", "x\ny\n" + a + "\nz", a + "\n", 3},
		{"truncated object", "{\"jsonrpc\":\"2.0\",\"id\":1,\n" + a + "\n", a + "\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			got, err := io.ReadAll(newParseErrorReader(strings.NewReader(tt.in), &out))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.pass {
				t.Errorf("passed %q, want %q", got, tt.pass)
			}
			if n := strings.Count(out.String(), parseErrorMessage); n != tt.errors || out.Len() != n*len(parseErrorMessage) {
				t.Errorf("wrote %q, want %d parse errors", out.String(), tt.errors)
			}
		})
	}
}

func TestParseErrorReaderSmallReads(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"long":"` + strings.Repeat("x", 10000) + "\"}}\n"
	r := newParseErrorReader(strings.NewReader(in), io.Discard)
	var got []byte
	buf := make([]byte, 7)
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if string(got) != in {
		t.Errorf("reassembled %d bytes, want %d", len(got), len(in))
	}
}

func TestCheckJSONRPC(t *testing.T) {
	tests := []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, ""},
		{`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"a"}}`, ""},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`, ""},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, ""},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"}}`, ""},
		{`{not json`, `"id":null,"error":{"code":-32700`},
		{`{"foo":1}`, `"id":null,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""`},
		{`{"jsonrpc":"2.0","id":3,"method":5}`, `"id":3,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":3,"method":"x","params":1}`, `"id":3,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, `"id":null,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":4}`, `"id":4,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":4,"result":1,"error":{}}`, `"id":4,"error":{"code":-32600`},
		{`[1,2]`, `"id":null,"error":{"code":-32600`},
		{`"str"`, `"id":null,"error":{"code":-32600`},
		// Lines that the go-sdk's decoder refuses, ending the session.
		{`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, `"id":5,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":` + strings.Repeat("[", 998) + `"[[[\"[["` + strings.Repeat("]", 998) + `}}`, ""},
		{`{"jsonrpc":"2.0","id":7,"error":[1]}`, `"id":7,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":"x","message":"m"}}`, `"id":7,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":1.5}}`, `"id":7,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":99999999999999999999}}`, `"id":7,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":2}}`, `"id":7,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":1,"code":"x"}}`, `"id":7,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"m","data":[1]}}`, ""},
		{`{"jsonrpc":1,"jsonrpc":"2.0","id":8,"method":"ping"}`, `"id":null,"error":{"code":-32600`},
		{`{"jsonrpc":"2.0","id":8,"error":[1],"error":{"code":1}}`, `"id":null,"error":{"code":-32600`},
		// A member named twice, once escaped, is repeated; a ':' or an
		// escaped quote inside a string counts for nothing.
		{`{"jsonrpc":"2.0","id":8,"method":"ping","\u006dethod":"x"}`, `"id":null,"error":{"code":-32600,"message":"Invalid Request: a member of the message is repeated"`},
		{`{"jsonrpc":"2.0","id":"a:b","method":"p:q\":","params":{"k:":{"x":1,"y":2}}}`, ""},
		{`{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"a:b","\u0063ode":2}}`, `"id":9,"error":{"code":-32600`},
	}
	for _, tt := range tests {
		got := check([]byte(tt.line))
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("check(%s) = %q, want %q", tt.line, got, tt.want)
		}
		if got != "" && !json.Valid([]byte(got)) {
			t.Errorf("check(%s) reply is not JSON: %q", tt.line, got)
		}
	}
}

// TestParseErrorReaderTooLong: a line over the limit is answered with
// -32600 and dropped, and the lines after it still pass (the go-sdk would
// end the session).
func TestParseErrorReaderTooLong(t *testing.T) {
	const ok = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":"` + strings.Repeat("x", 200<<10) + `"}}`
	tests := []struct {
		name, in, pass string
		errors         int
	}{
		{"long line then valid", long + "\n" + ok + "\n", ok + "\n", 1},
		{"long last line without end", ok + "\n" + long, ok + "\n", 1},
		{"at the limit passes", ok + "\r\n", ok + "\n", 0},
		{"two long lines", long + "\r\n" + long + "\n" + ok, ok + "\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			r := newParseErrorReader(strings.NewReader(tt.in), &out)
			r.max = len(ok)
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.pass {
				t.Errorf("passed %.80q, want %q", got, tt.pass)
			}
			if n := strings.Count(out.String(), `"code":-32600`); n != tt.errors || out.Len() != n*len(tooLongMessage()) {
				t.Errorf("wrote %q, want %d errors", out.String(), tt.errors)
			}
		})
	}
}

// TestTrackExactNames: the requests in flight are told by the members the
// go-sdk reads, named exactly: a notification with an "ID" member is no
// request, and a later request with that id is not refused as in use.
func TestTrackExactNames(t *testing.T) {
	in := `{"jsonrpc":"2.0","method":"notifications/initialized","ID":5}` + "\n" +
		`{"jsonrpc":"2.0","id":5,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":5,"method":"ping"}` + "\n"
	var out bytes.Buffer
	r := newParseErrorReader(strings.NewReader(in), &out)
	r.flight = &inFlight{ids: map[string]bool{}}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), "\n"); n != 2 {
		t.Errorf("passed %q, want the notification and the first ping", got)
	}
	if !strings.Contains(out.String(), `"id":5,"error":{"code":-32600`) || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("answered %q, want one refusal of the second ping (id 5 in use)", out.String())
	}
}

// TestInspectAgreesWithDecoding: inspect's scan answers every line as
// decoding it does (inspectDecoded), on lines drawn from the members a
// message has, with repeats, escapes, invalid UTF-8, odd ids and values,
// other JSON than objects, and cut lines.
func TestInspectAgreesWithDecoding(t *testing.T) {
	keys := []string{`"jsonrpc"`, `"id"`, `"method"`, `"params"`, `"result"`, `"error"`, `"x"`, `"\u0069d"`, `"me\thod"`, "\"id\xff\"", `"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`, `"g"`, `"h"`}
	vals := map[string][]string{
		`"jsonrpc"`: {`"2.0"`, `"1.0"`, `2`, `"2\u002e0"`},
		`"id"`:      {`1`, `-7`, `"a"`, `"\u00e9"`, `null`, `true`, `1.5`, `9007199254740993`, `1e400`, `{}`, `[1]`, `""`},
		`"method"`:  {`"tools/call"`, `""`, `"a\"b"`, `1`, `null`, "\"m\xff\"", `"\u0074ools/list"`},
		`"params"`:  {`{}`, `[]`, `{"name":"t","arguments":{"a":[1,{"b":null}]}}`, `1`, `"p"`, `null`},
		`"result"`:  {`{}`, `null`, `[1,2]`},
		`"error"`:   {`{"code":-32601,"message":"m"}`, `{"code":1.5,"message":"m"}`, `{"code":1,"code":2}`, `{}`, `"e"`, `null`},
	}
	other := []string{`1`, `"s"`, `null`, `{"k":[{}]}`, `[[[[]]]]`}
	r := rand.New(rand.NewPCG(5, 6))
	lines := []string{`null`, `[]`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `"x"`, `1`, `{`, `{}`, ` { } `, `{"a":1,}`, `{"a" 1}`}
	for range 20000 {
		var b strings.Builder
		b.WriteString("{")
		n := r.IntN(7)
		for i := range n {
			if i > 0 {
				b.WriteString([]string{",", " , ", ",\n"}[r.IntN(3)])
			}
			k := keys[r.IntN(len(keys))]
			if i < 3 && r.IntN(3) > 0 { // most lines look like messages
				k = []string{`"jsonrpc"`, `"id"`, `"method"`}[i]
			}
			v := other[r.IntN(len(other))]
			if vs := vals[k]; len(vs) > 0 && r.IntN(5) > 0 {
				v = vs[r.IntN(len(vs))]
			}
			b.WriteString(k + []string{":", " : "}[r.IntN(2)] + v)
		}
		b.WriteString("}")
		line := b.String()
		if r.IntN(20) == 0 {
			line = line[:r.IntN(len(line))] // cut
		}
		lines = append(lines, line)
	}
	lines = append(lines, strings.Repeat("[", 1200)+strings.Repeat("]", 1200), `{"a":`+strings.Repeat("[", 1001)+strings.Repeat("]", 1001)+`}`)
	for _, line := range lines {
		gotReply, gotMsg := inspect([]byte(line))
		wantReply, wantMsg := inspectDecoded([]byte(line))
		if gotReply != wantReply || string(gotMsg.id) != string(wantMsg.id) || gotMsg.method != wantMsg.method || string(gotMsg.params) != string(wantMsg.params) {
			t.Fatalf("%s:\nscanned: %q %+v\ndecoded: %q %+v", line, gotReply, gotMsg, wantReply, wantMsg)
		}
	}
}

// TestValidID holds validID to what decoding an id into an any gives: a
// string or a float64.
func TestValidID(t *testing.T) {
	for _, id := range []string{`1`, `-0`, `1.5e3`, `1e400`, `-1e400`, `9007199254740993`, `"a"`, `""`, `"\u00e9"`, `null`, `true`, `false`, `{}`, `[1]`, ` 7 `} {
		var v any
		err := json.Unmarshal([]byte(id), &v)
		want := false
		if err == nil {
			switch v.(type) {
			case string, float64:
				want = true
			}
		}
		if got := validID(json.RawMessage(id)); got != want {
			t.Errorf("validID(%s) = %v, want %v", id, got, want)
		}
	}
}

// BenchmarkInspect is the check of one incoming tools/call line.
func BenchmarkInspect(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"kubelite_echo","arguments":{"args":["hello"]},"_meta":{"progressToken":7}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if r, _ := inspect(line); r != "" {
			b.Fatal(r)
		}
	}
}
