package toolmeta

// Annotation keys read from a command's Annotations: MCP metadata on a
// command without new API, in the manner of cobra's own annotations.
// Package toolset reads them, package bridge gives them to adopters
// (bridge.AnnotationTitle, ...), and internal/external writes them from an
// overlay. Ophis's keys ("title", "readOnlyHint", "destructiveHint",
// "idempotentHint", "openWorldHint") are read as aliases of the first
// five; ours win.
const (
	AnnotationTitle       = "mcp.title"           // the tool's human-readable title
	AnnotationReadOnly    = "mcp.readOnlyHint"    // "true": the command changes nothing
	AnnotationDestructive = "mcp.destructiveHint" // "true"/"false": the command may destroy data
	AnnotationIdempotent  = "mcp.idempotentHint"  // "true": repeating the call has no further effect
	AnnotationOpenWorld   = "mcp.openWorldHint"   // "true"/"false": the command reaches outside systems
	AnnotationTimeout     = "mcp.timeout"         // a Go duration overriding Config.Timeout for this command; "0s" or negative: no limit
	AnnotationTags        = "mcp.tags"            // comma-separated tags for the tool record
)

// AnnotationGroup marks a command group that serves the tree (the mcp
// group, which bridge.New makes): the walk leaves it and its sub-commands
// out by this mark rather than by name.
const AnnotationGroup = "cobramcp.group"
