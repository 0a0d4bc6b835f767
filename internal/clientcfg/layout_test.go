package clientcfg

import (
	"bytes"
	"testing"
)

// TestCommentsStayInEveryLayout enables a server in files laid out in
// several ways, with a line comment after the last member of an object
// that the edit appends to. The comment must stay on the line where the
// user wrote it, after the member it was written after: the layout of
// the object edited decides, not that of the root (a root whose first
// member is on its own line, `{"mcpServers": {`, was taken for a file
// written on one line, and the comment went to the end of the member
// added after it).
func TestCommentsStayInEveryLayout(t *testing.T) {
	s := Server{Command: "/bin/mycli", Args: []string{"mcp", "start"}, Env: map[string]string{"A": "1"}}
	tests := []struct {
		name, src, want string
	}{
		{
			"compact, comment after the last server",
			"{\"mcpServers\": {\"x\": {\"command\": \"y\"} // note\n}}\n",
			"{\"mcpServers\": {\"x\": {\"command\": \"y\"}, // note\n\"mycli\": {\"command\": \"/bin/mycli\", \"args\": [\"mcp\", \"start\"], \"env\": {\"A\": \"1\"}}\n}}\n",
		},
		{
			"one-line root, comment after the last server",
			"{\"mcpServers\": {\n  \"x\": {\n    \"command\": \"y\"\n  } // note\n}}\n",
			"{\"mcpServers\": {\n  \"x\": {\n    \"command\": \"y\"\n  }, // note\n  \"mycli\": {\n    \"command\": \"/bin/mycli\",\n    \"args\": [\n      \"mcp\",\n      \"start\"\n    ],\n    \"env\": {\n      \"A\": \"1\"\n    }\n  }\n}}\n",
		},
		{
			"one-line root, comment after the entry's last member",
			"{\"mcpServers\": {\n  \"mycli\": {\n    \"command\": \"old\",\n    \"args\": [] // mine\n  }\n}}\n",
			"{\"mcpServers\": {\n  \"mycli\": {\n    \"command\": \"/bin/mycli\",\n    \"args\": [\n      \"mcp\",\n      \"start\"\n    ], // mine\n    \"env\": {\n      \"A\": \"1\"\n    }\n  }\n}}\n",
		},
		{
			"one-line root, trailing commas",
			"{\"mcpServers\": {\n  \"mycli\": {\n    \"command\": \"old\",\n    \"args\": [], // mine\n  },\n}}\n",
			"{\"mcpServers\": {\n  \"mycli\": {\n    \"command\": \"/bin/mycli\",\n    \"args\": [\n      \"mcp\",\n      \"start\"\n    ], // mine\n    \"env\": {\n      \"A\": \"1\"\n    },\n  },\n}}\n",
		},
		{
			"one-line root, tabs, comment in the env object",
			"{\"mcpServers\": {\n\t\"mycli\": {\n\t\t\"command\": \"old\",\n\t\t\"args\": [],\n\t\t\"env\": {\n\t\t\t\"B\": \"2\" // keep\n\t\t}\n\t}\n}}\n",
			"{\"mcpServers\": {\n\t\"mycli\": {\n\t\t\"command\": \"/bin/mycli\",\n\t\t\"args\": [\n\t\t\t\"mcp\",\n\t\t\t\"start\"\n\t\t],\n\t\t\"env\": {\n\t\t\t\"B\": \"2\", // keep\n\t\t\t\"A\": \"1\"\n\t\t}\n\t}\n}}\n",
		},
		{
			"pretty, comment after the entry's last member",
			"{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"old\",\n      \"args\": [] // mine\n    }\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/mycli\",\n      \"args\": [\n        \"mcp\",\n        \"start\"\n      ], // mine\n      \"env\": {\n        \"A\": \"1\"\n      }\n    }\n  }\n}\n",
		},
		{
			"pretty, trailing commas, comment after the last server",
			"{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"}, // note\n  },\n}\n",
			"{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"}, // note\n    \"mycli\": {\n      \"command\": \"/bin/mycli\",\n      \"args\": [\n        \"mcp\",\n        \"start\"\n      ],\n      \"env\": {\n        \"A\": \"1\"\n      }\n    },\n  },\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := Set(JSON, []byte(tt.src), []string{"mcpServers"}, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			if bytes.Contains([]byte(tt.src), []byte("mycli")) {
				return
			}
			// Added, then removed: the file as it was.
			back, found, err := Remove(JSON, out, []string{"mcpServers"}, "mycli")
			if err != nil || !found {
				t.Fatalf("Remove: found=%v err=%v", found, err)
			}
			if string(back) != tt.src {
				t.Errorf("round trip:\n%s\nwant\n%s", back, tt.src)
			}
		})
	}
}

// TestBlockCommentBeforeOneLineClose enables a server in objects written
// on one line whose last member is followed by a /* */ comment before the
// closing brace. The comment is about the member before it: it stays
// right after that member, and the new member comes after the comment
// (it went to the end, after the new member). disable gives the bytes
// back.
func TestBlockCommentBeforeOneLineClose(t *testing.T) {
	s := Server{Command: "/bin/m", Args: []string{"a"}}
	tests := []struct {
		name, src, want string
	}{
		{
			"no trailing comma",
			`{"mcpServers": {"a": {"command": "x"} /* keep */}}`,
			`{"mcpServers": {"a": {"command": "x"} /* keep */, "mycli": {"command": "/bin/m", "args": ["a"]}}}`,
		},
		{
			"space before the brace",
			`{"mcpServers": {"a": 1 /* keep */ }}`,
			`{"mcpServers": {"a": 1 /* keep */, "mycli": {"command": "/bin/m", "args": ["a"]} }}`,
		},
		{
			"trailing comma",
			`{"mcpServers": {"a": 1, /* keep */}}`,
			`{"mcpServers": {"a": 1, /* keep */ "mycli": {"command": "/bin/m", "args": ["a"]},}}`,
		},
		{
			"compact, two members",
			`{"mcpServers":{"a":1,"b":2/*keep*/}}`,
			`{"mcpServers":{"a":1,"b":2/*keep*/,"mycli":{"command":"/bin/m","args":["a"]}}}`,
		},
		{
			"root on one line, key absent",
			`{"theme": "dark" /* keep */}`,
			`{"theme": "dark" /* keep */, "mcpServers": {"mycli": {"command": "/bin/m", "args": ["a"]}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := []string{"mcpServers"}
			out, _, err := Set(JSON, []byte(tt.src), key, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			back, found, err := Remove(JSON, out, key, "mycli")
			if err != nil || !found {
				t.Fatalf("Remove: found=%v err=%v", found, err)
			}
			if string(back) != tt.src {
				t.Errorf("round trip:\n%s\nwant\n%s", back, tt.src)
			}
		})
	}
}

// TestCommentInEmptyObjectKept enables a server in a file whose root (or
// servers object) holds only comments. The comments on lines of their own
// stay there, below the new member (they went into the member's leading
// comments, and disable then took them away with the member); a comment on
// the brace's line stays on it.
func TestCommentInEmptyObjectKept(t *testing.T) {
	s := Server{Command: "/bin/m", Args: []string{}}
	tests := []struct {
		name, src, want string
	}{
		{
			"root holding a comment",
			"// settings\n{\n  // nothing yet\n}\n",
			"// settings\n{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/m\",\n      \"args\": []\n    }\n  }\n  // nothing yet\n}\n",
		},
		{
			"servers object holding a comment",
			"{\n  \"mcpServers\": {\n    // add servers here\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/m\",\n      \"args\": []\n    }\n    // add servers here\n  }\n}\n",
		},
		{
			"comment on the brace's line and below",
			"{ // mine\n  // more\n}\n",
			"{ // mine\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/m\",\n      \"args\": []\n    }\n  }\n  // more\n}\n",
		},
		{
			"block comment on the brace's line",
			"{ /* keep */\n}\n",
			"{ /* keep */\n  \"mcpServers\": {\n    \"mycli\": {\n      \"command\": \"/bin/m\",\n      \"args\": []\n    }\n  }\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := []string{"mcpServers"}
			out, _, err := Set(JSON, []byte(tt.src), key, "mycli", s)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			back, found, err := Remove(JSON, out, key, "mycli")
			if err != nil || !found {
				t.Fatalf("Remove: found=%v err=%v", found, err)
			}
			if string(back) != tt.src {
				t.Errorf("round trip:\n%q\nwant\n%q", back, tt.src)
			}
		})
	}
}
