package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestCompactListingOverStdio drives bin/mycli through the go-sdk client:
// the initialize result carries the instructions, which state the shared
// flags; tools/list does not repeat them in any tool; a call that sets one
// runs with it, and a wrong value for one is refused. With --expanded every
// tool lists them and the instructions do not.
func TestCompactListingOverStdio(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := startServer(t, serverOptions{})
	ins := s.cs.InitializeResult().Instructions
	for _, want := range []string{"mycli", "Each tool runs one mycli command", "--namespace string", "--output string", "--verbose count"} {
		if !strings.Contains(ins, want) {
			t.Errorf("instructions lack %q:\n%s", want, ins)
		}
	}
	if len(ins) > 2048 {
		t.Errorf("instructions of %d bytes", len(ins))
	}
	res, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if strings.Contains(flagNames(t, tool.InputSchema), " namespace ") {
			t.Errorf("%s lists the shared flag namespace", tool.Name)
		}
	}
	out, _ := resultOutput(t, s.call(t, ctx, "mycli_get_pods", `{"flags":{"namespace":"kube-system","output":"name"}}`))
	if out.ExitCode != 0 || !strings.Contains(out.Stdout, "pod/") {
		t.Errorf("get pods with shared flags: %+v", out)
	}
	bad := s.call(t, ctx, "mycli_get_pods", `{"flags":{"output":"xml"}}`)
	if !bad.IsError || !strings.Contains(resultText(t, bad), "output") {
		t.Errorf("a wrong value for a shared flag was not refused: %s", resultText(t, bad))
	}

	e := startServer(t, serverOptions{args: []string{"--expanded"}})
	if ins := e.cs.InitializeResult().Instructions; strings.Contains(ins, "Shared flags") || ins == "" {
		t.Errorf("--expanded instructions:\n%s", ins)
	}
	res, err = e.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "mycli_get_pods" && !strings.Contains(flagNames(t, tool.InputSchema), " namespace ") {
			t.Errorf("--expanded: %s does not list namespace", tool.Name)
		}
	}
}

// flagNames returns the names of the flags an input schema lists, each
// between spaces.
func flagNames(t *testing.T, schema any) string {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	names := " "
	if f := s.Properties["flags"]; f != nil {
		for n := range f.Properties {
			names += n + " "
		}
	}
	return names
}
