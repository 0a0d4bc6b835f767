package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/cmd"
)

// The end user's policy: only read-only commands, with --namespace pinned,
// listed in search mode. A pinned flag leaves the schemas and a call
// cannot change it.
func ExampleToolset_Restrict() {
	root := &cobra.Command{Use: "kube"}
	root.PersistentFlags().String("namespace", "default", "namespace")
	get := &cobra.Command{Use: "get", Short: "List pods", RunE: func(*cobra.Command, []string) error { return nil },
		Annotations: map[string]string{bridge.AnnotationReadOnly: "true"}}
	del := &cobra.Command{Use: "delete", Short: "Delete pods", RunE: func(*cobra.Command, []string) error { return nil }}
	root.AddCommand(get, del)

	ts, err := bridge.Tools(root, nil)
	if err != nil {
		panic(err)
	}
	v, err := ts.Restrict(cmd.Policy{
		ReadOnly: true,
		Pins:     []cmd.Pin{{Flag: "namespace", Value: "staging", From: "--set"}},
		ToolMode: cmd.ToolModeSearch,
	})
	if err != nil {
		panic(err)
	}
	for _, t := range v.Tools() {
		fmt.Println(t.Name)
	}
	res, _ := v.Call(context.Background(), "kube_search", json.RawMessage(`{"query":"list pods"}`))
	var found struct{ Results []struct{ Command string } }
	_ = json.Unmarshal([]byte(resultText(res)), &found)
	fmt.Println(found.Results[0].Command)
	res, _ = v.Call(context.Background(), "kube_run", json.RawMessage(`{"command":"kube_get","flags":{"namespace":"prod"}}`))
	fmt.Println(res.IsError)
	_, err = v.Call(context.Background(), "kube_delete", nil)
	fmt.Println(err)
	// Output:
	// kube_describe
	// kube_run
	// kube_search
	// kube_get
	// true
	// unknown tool "kube_delete" (in search mode the tools are kube_search, kube_describe and kube_run)
}
