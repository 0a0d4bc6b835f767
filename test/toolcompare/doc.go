// Package toolcompare compares two listings of the same CLI's MCP tools,
// the one served in-process (an adopted CLI's `mcp` group) and the one
// served from outside (package external's reflection of the built
// binary), and names each difference by kind.
//
//	diffs := toolcompare.Tools(in.Tools(), out.Tools(), toolcompare.Annotated(flagSets...))
//	known, err := toolcompare.KnownLimits("docs/external.md")
//	for _, d := range diffs {
//		if !known[d.Kind] { ... } // a difference docs/external.md does not explain
//	}
//
// The kinds that docs/external.md lists in its known-limits table are
// those reflection from outside cannot know; any other kind is a defect of
// the reflection (or of the table). The tests that use it are
// TestMycliFromOutside (package external) and TestKubectlFromOutside
// (test/realcli).
package toolcompare
