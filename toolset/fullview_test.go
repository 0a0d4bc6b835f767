package toolset_test

import "github.com/cobramcp/cobramcp/toolset"

// fullView is the view of every tool of ts in the default listing (full,
// compact), as a server without a policy serves them.
func fullView(ts *toolset.Toolset) *toolset.Served {
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		panic(err)
	}
	return v
}

// fullViewExpanded is fullView with every tool listed expanded.
func fullViewExpanded(ts *toolset.Toolset) *toolset.Served {
	v, err := ts.View(toolset.Listing{Expanded: true})
	if err != nil {
		panic(err)
	}
	return v
}
