// Package rank ranks the commands of a CLI for a request in words, as a
// person asks it ("which node is my pod on", "who changed this deployment
// last"), not only as the CLI names its commands.
//
// A caller describes each command as a [Doc] (its path, aliases,
// descriptions, examples and flags), builds an [Index] once per tree and
// asks it queries:
//
//	ix := rank.New([]rank.Doc{
//		{Path: []string{"logs"}, Short: "Print the logs for a container in a pod"},
//		{Path: []string{"rollout", "undo"}, Short: "Undo a previous rollout"},
//		{Path: []string{"delete"}, Aliases: []string{"rm"}, Short: "Delete resources"},
//	})
//	for _, h := range ix.Search("roll back my app", 3) {
//		fmt.Println(ix.Len(), h.Doc, h.Score) // h.Doc indexes the slice given to New
//	}
//
// The ranking is a BM25F over the fields of a command, each with its
// weight ([Weights]): a query word counts most in the command's path, then
// in its aliases, its short description, the comment lines of its examples
// ("# List all pods in ps output format", which say in words what the
// command is for), its flags' names and usage, and its long description.
// Words meet through a small stemmer ([Stem]: "creating", "created" and
// "create" are one word), through a thesaurus of how people name the
// actions and objects of command-line tools (remove and delete, list and
// ls, copies and replicas; a question word such as "which" or "who" asks
// to list or for history), through prefixes ("auth" and "authentication"),
// and through two adjacent words joined ("roll back" finds rollback). A
// command whose path the query explains and that matches more of the
// query's words ranks higher. [DefaultWeights] are fitted on the
// development half of the task set of test/searchbench, which measures
// the ranking on the real trees of eight CLIs.
//
// The package is text only: it knows nothing of cobra or MCP, keeps no
// state of its own between calls, and builds its tables on first use, so
// that linking it costs a program nothing at start-up. An Index is safe
// for concurrent use; a query on kubectl's tree takes microseconds.
package rank
