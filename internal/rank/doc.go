// Package rank ranks the commands of a CLI for a request in words, as a
// person asks it ("roll back my app", "who changed this deployment"), not
// only as the CLI names its commands.
//
// A caller describes each command as a [Doc] (its path, aliases,
// descriptions, examples and own flags), builds an [Index] once per tree
// and asks it queries:
//
//	docs := []rank.Doc{
//		{Path: []string{"logs"}, Short: "Print the logs for a container in a pod"},
//		{Path: []string{"rollout", "undo"}, Short: "Undo a previous rollout"},
//		{Path: []string{"delete"}, Aliases: []string{"rm"}, Short: "Delete resources"},
//	}
//	ix := rank.New(docs)
//	for _, h := range ix.Search("roll back my app", 8) {
//		fmt.Println(strings.Join(docs[h.Doc].Path, " "), h.Score) // "rollout undo" first
//	}
//
// The ranking is a BM25F over the fields of a command, each with its
// weight ([Weights]): the command's path, its aliases, its short and long
// descriptions, the comment lines and the command lines of its examples,
// its flags' names and usage. Words meet through a small stemmer
// ("creating", "created", "creation" and "create" are one word), a
// thesaurus of how people name the actions and objects of command-line
// tools (remove and delete, list and ls, copies and replicas, clone for
// download; "which" asks to get or list, "who" for history), the parts of
// compound command names ("nameprefix" is name and prefix), prefixes
// ("config" and "configmap") and two or three adjacent query words joined
// ("roll back" finds rollback, "who am i" whoami); a phrase of the
// thesaurus found so ("sign out", "get rid of") outweighs its words
// alone, and a participle after the query's first word ("remove a
// published release") weighs less than the action it qualifies. A
// question about state ("is my cluster up", "which organizations do I
// belong to", "how long until...") favours the commands that read (list,
// show, get, status, version...) over those that act, a request that opens
// with a verb of action ("kill one pod") the reverse, and a command the
// CLI gives more examples of (one in common use) ranks a little higher. A
// command scores higher when the query explains
// more of its path and when it has more of the query's words anywhere (its
// examples included, a rare word counting more than a common one); one
// whose path the query names two levels of ("uninstall a plugin" for
// "plugin uninstall") above one it names one level of; a group ranks
// below the subcommands it holds.
//
// [DefaultWeights] were fitted on the task sets of test/searchbench
// (requests worded as people ask over the real trees of eight CLIs), which
// also measures the ranking against search mode's previous one.
//
// The package is text only: it knows nothing of cobra or MCP, keeps no
// state between calls, and builds its tables on first use, so that linking
// it costs a program nothing at start-up. An [Index] is safe for
// concurrent use; a query on a tree of 200 commands takes microseconds.
//
// A query is a request in words, and [Index.SearchContext] bounds it: one
// of more than [MaxQueryBytes] bytes or [MaxQueryWords] words is refused
// with a [*QueryError] naming the bound, and ranking stops when its
// context is done. Whatever a query's shape, ranking it costs time linear
// in its length.
package rank
