package docker

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
)

// dockerVersion is the docker CLI's version, pinned in go.mod.
const dockerVersion = "v29.7.2"

// outsideCalls are docker commands that need no daemon, each side with a
// client configuration directory of its own (the root's --config, which
// docker reads before the sub-command's name).
var outsideCalls = []corpustest.Call{
	{Tool: "docker_context_create", Arguments: `{"args":["ctx1"],"flags":{"config":"$DIR/cfg","docker":{"host":"unix:///$DIR/none.sock"},"description":"one, two"}}`,
		Argv: []string{"--config=$DIR/cfg", "context", "create", "ctx1", "--description=one, two", "--docker=host=unix:///$DIR/none.sock"}},
	{Tool: "docker_context_ls", Arguments: `{"flags":{"config":"$DIR/cfg","format":"{{.Name}} {{.Description}}"}}`,
		Argv: []string{"--config=$DIR/cfg", "context", "ls", "--format={{.Name}} {{.Description}}"}},
	{Tool: "docker_context_inspect", Arguments: `{"args":["ctx1"],"flags":{"config":"$DIR/cfg","format":"{{.Endpoints.docker.Host}}"}}`,
		Argv: []string{"--config=$DIR/cfg", "context", "inspect", "ctx1", "--format={{.Endpoints.docker.Host}}"}},
	{Tool: "docker_context_rm", Arguments: `{"args":["ctx1", "no-such-context"],"flags":{"config":"$DIR/cfg"}}`,
		Argv: []string{"--config=$DIR/cfg", "context", "rm", "ctx1", "no-such-context"}},
}

// TestDockerFromOutside builds docker, reflects the binary from outside
// (cold, then warm from the cache) and compares every tool of the
// expanded listing with the in-process tree docker's main builds (New,
// with RepeatableTypes): a difference of a kind that docs/external.md's
// known limits do not list fails the test. Offline calls through the
// tools served from outside give what the binary gives run directly. The
// row of docs/external.md's corpus table is logged.
func TestDockerFromOutside(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	known, err := toolcompare.KnownLimits("../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "docker")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/docker/cli/cmd/docker").CombinedOutput(); err != nil {
		t.Fatalf("building docker %s: %v\n%s", dockerVersion, err, b)
	}
	t.Log(corpustest.Compare(t, known, corpustest.CLI{
		Name: "docker", Version: dockerVersion, Bin: bin, Root: New(),
		Config: &toolset.Config{RepeatableTypes: RepeatableTypes()},
		Calls:  outsideCalls, MinTools: 150,
	}))
}
