// Package strictcheck is a test harness proving that the OpenAI strict
// form of a tool call is read exactly as the MCP form: for every map flag
// of every tool of a cobra tree and every key given, an input the tool's
// MCP schema accepts is also accepted by the strict schema in its
// {key, value} pairs form, the call path gives both forms the same argv
// (or the same refusal), and the tree itself reads that argv back (with
// [roundtrip.Execute]) as exactly the map given.
//
//	c := strictcheck.MapKeys(t, strictcheck.Case{
//		New:  mycli.New, // a fresh tree per call
//		Keys: []string{"a,b", "a=b", ""},
//	})
//	t.Logf("%d inputs: %d refused by the strict schema, %d read back", c.Inputs, c.Refused, c.Read)
//
// Every mismatch is reported with t.Errorf; the counts let the caller
// insist that enough inputs were tried. The package is for tests only: it
// lives in the root module, outside internal/, so that the corpus modules
// under test/ (which use the root module through a replace directive) can
// import it.
package strictcheck
