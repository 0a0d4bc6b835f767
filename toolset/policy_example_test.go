package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
	"github.com/spf13/cobra"
)

// The end user's policy: only read-only commands, with --namespace pinned,
// listed in search mode. A pinned flag leaves the schemas and a call
// cannot change it.
func ExampleToolset_View() {
	root := &cobra.Command{Use: "kube"}
	root.PersistentFlags().String("namespace", "default", "namespace")
	get := &cobra.Command{Use: "get", Short: "List pods", RunE: func(*cobra.Command, []string) error { return nil },
		Annotations: map[string]string{bridge.AnnotationReadOnly: "true"}}
	del := &cobra.Command{Use: "delete", Short: "Delete pods", RunE: func(*cobra.Command, []string) error { return nil }}
	root.AddCommand(get, del)

	ts, err := toolset.New(root, nil)
	if err != nil {
		panic(err)
	}
	v, err := ts.View(toolset.Listing{Mode: toolset.ToolModeSearch}, toolset.Policy{ReadOnly: true, Pins: []toolset.Pin{{Flag: "namespace", Value: "staging", From: "--set"}}})
	if err != nil {
		panic(err)
	}
	for _, t := range v.Tools() {
		fmt.Println(t.Name)
	}
	res, _ := v.Call(context.Background(), "kube_search_commands", json.RawMessage(`{"query":"list pods"}`))
	var found struct{ Results []struct{ Command string } }
	_ = json.Unmarshal([]byte(resultText(res)), &found)
	fmt.Println(found.Results[0].Command)
	res, _ = v.Call(context.Background(), "kube_run_command", json.RawMessage(`{"command":"kube_get","flags":{"namespace":"prod"}}`))
	fmt.Println(res.IsError)
	_, err = v.Call(context.Background(), "kube_delete", nil)
	fmt.Println(err)
	// Output:
	// kube_describe_command
	// kube_list_commands
	// kube_run_command
	// kube_search_commands
	// kube_get
	// true
	// unknown tool "kube_delete" (in search mode the tools are kube_search_commands, kube_list_commands, kube_describe_command and kube_run_command)
}
