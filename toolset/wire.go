package toolset

import (
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wireDefs are a listing's definitions as the server registers them with
// the go-sdk: each schema encoded once, as JSON. The go-sdk encodes a
// *jsonschema.Schema again for every tools/list answer, when a tool is
// added (to look for parameter headers) and, over HTTP, for every call of
// the tool; encoded, a schema is copied instead, and what goes on the wire
// is the same bytes. The listing's own definitions keep their
// *jsonschema.Schema for the library's readers (Tools, the exports).
type wireDefs struct {
	once sync.Once
	defs []*mcp.Tool
	size int // of the listing as tools/list sends it
}

// get returns the encoded definitions of defs and the size of the listing,
// encoding them on the first call.
func (w *wireDefs) get(defs []*mcp.Tool) ([]*mcp.Tool, int) {
	w.once.Do(func() {
		w.defs, w.size = encodeDefs(defs)
	})
	return w.defs, w.size
}

// encodeDefs returns defs with their schemas encoded (wireTool) and the
// size of the listing they make: each definition as json.Marshal writes it,
// and a separator. Schemas shared by several definitions (the output
// schema) are encoded once.
func encodeDefs(defs []*mcp.Tool) ([]*mcp.Tool, int) {
	done := map[*jsonschema.Schema]json.RawMessage{}
	encode := func(s any) any {
		js, ok := s.(*jsonschema.Schema)
		if !ok || js == nil {
			return s
		}
		if b, ok := done[js]; ok {
			return b
		}
		b, err := json.Marshal(js)
		if err != nil {
			return s // the go-sdk will say what is wrong with it
		}
		done[js] = b
		return json.RawMessage(b)
	}
	out := make([]*mcp.Tool, len(defs))
	size := 0
	for i, t := range defs {
		cp := *t
		cp.InputSchema, cp.OutputSchema = encode(t.InputSchema), encode(t.OutputSchema)
		out[i] = &cp
		if b, err := json.Marshal(&cp); err == nil {
			size += len(b) + 1
		}
	}
	return out, size
}
