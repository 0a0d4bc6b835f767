package rank_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cobramcp/cobramcp/internal/rank"
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

func ExampleIndex_SearchContext() {
	ix := rank.New([]rank.Doc{{Path: []string{"logs"}, Short: "Print the logs for a container in a pod"}})
	ctx := context.Background()
	hits, err := ix.SearchContext(ctx, "show me the logs", 1)
	fmt.Println(len(hits), err)
	_, err = ix.SearchContext(ctx, strings.Repeat("log", 1000), 1)
	var qe *rank.QueryError
	fmt.Println(errors.As(err, &qe), qe.Limit, qe.Max)
	// Output:
	// 1 <nil>
	// true bytes 1024
}
