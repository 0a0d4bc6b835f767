package rank_test

import (
	"fmt"

	"github.com/cobramcp/cobramcp/rank"
)

func ExampleIndex_Search() {
	docs := []rank.Doc{
		{Path: []string{"get"}, Short: "Display one or many resources",
			Example: "# List all pods in ps output format with more information (such as node name)\nkubectl get pods -o wide"},
		{Path: []string{"logs"}, Short: "Print the logs for a container in a pod"},
		{Path: []string{"rollout", "history"}, Short: "View rollout history"},
		{Path: []string{"rollout", "undo"}, Short: "Undo a previous rollout"},
		{Path: []string{"delete"}, Short: "Delete resources by file names, stdin, resources and names, or by resources and label selector"},
	}
	ix := rank.New(docs)
	for _, q := range []string{"roll back my app", "remove a pod", "list my pods", "who changed this deployment"} {
		hits := ix.Search(q, 1)
		fmt.Printf("%s: %v\n", q, docs[hits[0].Doc].Path)
	}
	// Output:
	// roll back my app: [rollout undo]
	// remove a pod: [delete]
	// list my pods: [get]
	// who changed this deployment: [rollout history]
}
