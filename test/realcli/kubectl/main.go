// Command kubectl is the real kubectl (k8s.io/kubectl) with cobramcp's mcp
// command group added: `kubectl mcp start` serves kubectl's commands as MCP
// tools. It exists to measure and test cobramcp on a large real tree.
//
//	cd test/realcli && go build -o ../../bin/kubectl ./kubectl
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"

	"github.com/cobramcp/cobramcp/bridge"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	command.AddCommand(bridge.Command(nil))
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
