package external

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

func TestParseCompletion(t *testing.T) {
	// kubectl's options command writes cobra's stderr to stdout: the note
	// after the directive and the error before it are not completions.
	c, err := parseCompletion("[Debug] [Error] unknown flag: --x\n:0\nCompletion ended with directive: ShellCompDirectiveDefault\n", "")
	if err != nil || c.directive != 0 || len(c.items) != 0 || !c.refused() || c.errText != "unknown flag: --x" {
		t.Errorf("stdout with cobra's notes: %+v, %v", c, err)
	}
	c, err = parseCompletion("--all\tall of them\n-A\tall of them\n_activeHelp_ hint\n:4\n", "[Debug] Completion ended")
	if err != nil || c.directive != 4 || len(c.items) != 2 || c.refused() {
		t.Errorf("flag list: %+v, %v", c, err)
	}
	fl := flagsOf(c)
	if len(fl) != 1 || fl[0].name != "all" || fl[0].shorthand != "A" || fl[0].usage != "all of them" {
		t.Errorf("flags: %+v", fl)
	}
	for _, bad := range []string{"", "hello\n", ":x\n", "garbage\n:-1\n"} {
		if _, err := parseCompletion(bad, ""); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestFromMessage(t *testing.T) {
	tests := []struct {
		msg  string
		list bool
		want string
	}{
		{`invalid argument "cobramcp-probe" for "--int" flag: must be an integer`, false, "int"},
		{`invalid argument "cobramcp-probe" for "--v" flag: strconv.ParseUint: parsing "cobramcp-probe": invalid syntax`, false, "uint"},
		{`invalid argument "x" for "--n" flag: must be a non-negative integer`, false, "uint"},
		{`invalid argument "x" for "--b" flag: strconv.ParseBool: parsing "x": invalid syntax`, true, "boolSlice"},
		{`invalid argument "x" for "--d" flag: time: invalid duration "x"`, false, "duration"},
		{`invalid argument "x" for "--m" flag: x must be formatted as key=value`, true, "stringToString"},
		{`invalid argument "x" for "--ip" flag: failed to parse IP: "x"`, false, "ip"},
		{`invalid argument "cobramcp-probe" for "--aggregation-rule" flag: malformed pair, expect string=string`, false, "stringToString"},
		{`invalid argument "x" for "--n" flag: must be an integer`, true, "intSlice"},
		{`invalid argument "x" for "--n" flag: strconv.ParseUint: parsing "x": invalid syntax`, true, "uintSlice"},
		{`invalid argument "x" for "--f" flag: strconv.ParseFloat: parsing "x": invalid syntax`, true, "float64Slice"},
		{`invalid argument "x" for "--d" flag: time: invalid duration "x"`, true, "durationSlice"},
		{`invalid argument "x" for "--ip" flag: invalid string being converted to IP address: x`, true, "ipSlice"},
		{`invalid argument "x" for "--net" flag: invalid CIDR address: x`, true, "ipNetSlice"},
		{`invalid argument "x" for "--m" flag: malformed pair, expect string=string`, true, "stringToString"},
		{`invalid argument "x" for "--level" flag: not a level`, false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := fromMessage(tt.msg, tt.list); got != tt.want {
			t.Errorf("fromMessage(%q, %v) = %q, want %q", tt.msg, tt.list, got, tt.want)
		}
	}
}

// TestSampleValues: every type a help page names is given, when its
// parser is asked, a value that parser takes (a flag of the type as Build
// makes it); the types that take any text get probeValue.
func TestSampleValues(t *testing.T) {
	for _, k := range flagschema.Kinds() {
		if len(k.HelpWords()) == 0 {
			continue // not seen from outside
		}
		v, ok := sampleValue(k.Name())
		if !ok {
			t.Errorf("%s: no sample", k.Name())
			continue
		}
		fs := pflag.NewFlagSet("", pflag.ContinueOnError)
		if err := define(fs, k.Name(), "f", ""); err != nil {
			t.Fatal(err)
		}
		if err := fs.Set("f", v); err != nil {
			t.Errorf("%s: the sample %q is refused: %v", k.Name(), v, err)
		}
	}
	for _, typ := range []string{"string", "stringSlice", "stringArray"} {
		if v, _ := sampleValue(typ); v != probeValue {
			t.Errorf("%s: sample %q, want %q", typ, v, probeValue)
		}
	}
	if v, ok := sampleValue("list"); ok {
		t.Errorf("a custom type has a sample: %q", v)
	}
}

// TestHelpCommandsAfterExamples: kubectl prints "Available Commands:"
// after "Examples:"; the list is the command's sub-commands, not part of
// its examples.
func TestHelpCommandsAfterExamples(t *testing.T) {
	p := parseHelp("Apply a configuration.\n\nExamples:\n  # Apply\n  kubectl apply -f x.yaml\n\nAvailable Commands:\n  edit-last-applied   Edit it\n  view-last-applied   View it\n\nOptions:\n    --all=false:\n\tSelect all.\n\nUsage:\n  kubectl apply (-f FILENAME | -k DIRECTORY) [options]\n", helpContext{path: "kubectl apply"})
	if p.example != "  # Apply\n  kubectl apply -f x.yaml" {
		t.Errorf("example = %q", p.example)
	}
	if len(p.commands) != 2 || p.commands[0].name != "edit-last-applied" || p.leaf("kubectl apply") {
		t.Errorf("commands = %+v, leaf %v", p.commands, p.leaf("kubectl apply"))
	}
	if leaf := parseHelp("Get it.\n\nUsage:\n  kubectl get [NAME] [options]\n", helpContext{path: "kubectl get"}); !leaf.leaf("kubectl get") {
		t.Error("a help without sub-commands is a leaf")
	}
}

func TestRefusedFlag(t *testing.T) {
	for _, tt := range []struct{ msg, want string }{
		{`Error while parsing flags from args [--v=x --a=b]: invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax`, "v"},
		{`invalid argument "\"cobramcp-probe" for "--filename" flag: parse error on line 1, column 1: bare " in non-quoted-field`, "filename"},
		{`unknown flag: --cobramcp-no-such-flag`, ""},
	} {
		got := ""
		if m := refusedFlag().FindStringSubmatch(tt.msg); m != nil {
			got = m[1]
		}
		if got != tt.want {
			t.Errorf("refusedFlag(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestAssignStyleUsageKeepsDefaultWords: kubectl's help gives a flag's
// default after "="; a "(default ...)" ending its usage is the usage's own
// text (kubectl get --show-labels), not a default to take out of it.
func TestAssignStyleUsageKeepsDefaultWords(t *testing.T) {
	p := parseHelp("Get it.\n\nOptions:\n    --show-labels=false:\n\tWhen printing, show all labels as the last column (default hide labels column)\n\n    --output='':\n\tOutput format (default table)\n\nUsage:\n  kubectl get [NAME] [options]\n", helpContext{path: "kubectl get"})
	for name, want := range map[string]string{
		"show-labels": "When printing, show all labels as the last column (default hide labels column)",
		"output":      "Output format (default table)",
	} {
		hf := p.flags[name]
		if hf == nil {
			t.Fatalf("--%s not parsed: %+v", name, p.flags)
		}
		for _, typ := range []string{"", "bool", "string"} {
			if u, def, ok := hf.split(typ); u != want || def != "" || ok {
				t.Errorf("--%s split(%q) = %q, %q, %v; want %q and no default", name, typ, u, def, ok, want)
			}
		}
	}
}

// TestHelpLayouts reads help pages of real CLIs whose layout is not
// cobra's default, by what the parser tells of the command (its path and
// the flags completion lists), not by the titles of cobra's sections.
func TestHelpLayouts(t *testing.T) {
	const helmInstall = `This command installs a chart archive.

To override values in a chart, use either the '--values' flag and pass in a file:

    $ helm install -f myvalues.yaml myredis ./redis

contained a key called 'Test', the value set in override.yaml would take precedence:

    $ helm install -f myvalues.yaml -f override.yaml  myredis ./redis

There are six different ways you can express the chart you want to install:

 1. By chart reference: helm install mymaria example/mariadb

Usage:
  helm install [NAME] [CHART] [flags]

Flags:
      --wait WaitStrategy[=watcher]   wait until resources are ready (default hookOnly)
  -f, --values strings                specify values in a YAML file or a URL (can specify multiple)

Global Flags:
      --debug   enable verbose output
`
	tests := []struct {
		name, path, text string
		flags            []string // completion's flag names
		lead, use        string   // use "" for a group that does not run
		example          string
		commands         []string
		global           []string
		leaf             bool
		flagText         map[string]string
	}{
		{name: "gh leaf", path: "gh pr view", flags: []string{"comments", "jq", "json", "template", "web", "repo"},
			text: "Display the title, body, and other information about a pull request.\n\nWith `--web` flag, open it.\n\nUSAGE\n  gh pr view [<number> | <url> | <branch>] [flags]\n\nFLAGS\n  -c, --comments          View pull request comments\n      --json fields       Output JSON with the specified fields\n\nINHERITED FLAGS\n      --help                     Show help for command\n  -R, --repo [HOST/]OWNER/REPO   Select another repository using the [HOST/]OWNER/REPO format\n\nJSON FIELDS\n  additions, assignees, author\n\nEXAMPLES\n  $ gh pr view 123\n\nLEARN MORE\n  Use `gh <command> <subcommand> --help` for more information about a command.\n",
			lead: "Display the title, body, and other information about a pull request.\n\nWith `--web` flag, open it.", use: "gh pr view [<number> | <url> | <branch>] [flags]",
			example: "$ gh pr view 123", global: []string{"help", "repo"}, leaf: true,
			flagText: map[string]string{"comments": "View pull request comments", "repo": "Select another repository using the [HOST/]OWNER/REPO format"}},
		{name: "gh group", path: "gh pr", flags: []string{"repo"},
			text: "Work with GitHub pull requests.\n\nUSAGE\n  gh pr <command> [flags]\n\nGENERAL COMMANDS\n  create:        Create a pull request\n  list:          List pull requests in a repository\n\nTARGETED COMMANDS\n  update-branch: Update a pull request branch\n\nFLAGS\n  -R, --repo [HOST/]OWNER/REPO   Select another repository\n\nINHERITED FLAGS\n  --help   Show help for command\n\nARGUMENTS\n  A pull request can be supplied as argument in any of the following formats:\n  - by number, e.g. \"123\";\n",
			lead: "Work with GitHub pull requests.", commands: []string{"create", "list", "update-branch"}, global: []string{"help"}},
		{name: "gh root", path: "gh", flags: []string{"version"},
			text: "Work seamlessly with GitHub from the command line.\n\nUSAGE\n  gh <command> <subcommand> [flags]\n\nCORE COMMANDS\n  auth:          Authenticate gh and git with GitHub\n\nFLAGS\n  --help      Show help for command\n  --version   Show gh version\n",
			lead: "Work seamlessly with GitHub from the command line.", commands: []string{"auth"}},
		{name: "docker leaf", path: "docker run", flags: []string{"add-host", "attach"},
			text: "\nUsage:  docker run [OPTIONS] IMAGE [COMMAND] [ARG...]\n\nCreate and run a new container from an image\n\nAliases:\n  docker container run, docker run\n\nOptions:\n      --add-host list    Add a custom host-to-IP mapping (host:ip)\n  -a, --attach list      Attach to STDIN, STDOUT or STDERR\n",
			lead: "Create and run a new container from an image", use: "docker run [OPTIONS] IMAGE [COMMAND] [ARG...]", leaf: true,
			flagText: map[string]string{"attach": "Attach to STDIN, STDOUT or STDERR"}},
		// Two use lines, the second in the Use itself ("\n\tdocker cp"),
		// and an "Example:" paragraph that is the description's own.
		{name: "docker two use lines", path: "docker context create", flags: []string{"from"},
			text: "\nUsage:  docker context create [OPTIONS] CONTEXT\n\tdocker context create --from CONTEXT NAME\n\nCreate a context\n\nExample:\n\n$ docker context create my-context --description \"some description\"\n\nOptions:\n      --from string   create context from a named context\n",
			lead: "Create a context\n\nExample:\n\n$ docker context create my-context --description \"some description\"",
			use:  "docker context create [OPTIONS] CONTEXT\n\tdocker context create --from CONTEXT NAME", leaf: true},
		{name: "docker use line naming an alias", path: "docker container cp",
			text: "\nUsage:  docker container cp [OPTIONS] CONTAINER:SRC_PATH DEST_PATH|-\n\tdocker cp [OPTIONS] SRC_PATH|- CONTAINER:DEST_PATH\n\nCopy files/folders\n",
			lead: "Copy files/folders", use: "docker container cp [OPTIONS] CONTAINER:SRC_PATH DEST_PATH|-\n\tdocker cp [OPTIONS] SRC_PATH|- CONTAINER:DEST_PATH", leaf: true},
		{name: "docker group", path: "docker image",
			text: "\nUsage:  docker image COMMAND\n\nManage images\n\nCommands:\n  build       Build an image from a Dockerfile\n  ls          List images\n\nRun 'docker image COMMAND --help' for more information on a command.\n",
			lead: "Manage images", commands: []string{"build", "ls"}},
		{name: "docker root", path: "docker", flags: []string{"config"},
			text: "\nUsage:  docker [OPTIONS] COMMAND\n\nA self-sufficient runtime for containers\n\nCommon Commands:\n  run         Create and run a new container from an image\n\nManagement Commands:\n  image       Manage images\n\nGlobal Options:\n      --config string      Location of client config files\n",
			lead: "A self-sufficient runtime for containers", commands: []string{"run", "image"}, global: []string{"config"}},
		{name: "helm", path: "helm install", flags: []string{"wait", "values", "debug"}, text: helmInstall,
			lead: strings.TrimSpace(helmInstall[:strings.Index(helmInstall, "Usage:")]), use: "helm install [NAME] [CHART] [flags]",
			global: []string{"debug"}, leaf: true,
			flagText: map[string]string{"wait": "wait until resources are ready (default hookOnly)"}},
		{name: "helm examples in the description", path: "helm search repo", flags: []string{"devel"},
			text: "Search reads through all of the repositories.\n\nExamples:\n\n    # Search for nginx\n    $ helm search repo nginx\n\nRepositories are managed with 'helm repo' commands.\n\nUsage:\n  helm search repo [keyword] [flags]\n\nFlags:\n      --devel   use development versions, too\n",
			lead: "Search reads through all of the repositories.\n\nExamples:\n\n    # Search for nginx\n    $ helm search repo nginx\n\nRepositories are managed with 'helm repo' commands.",
			use:  "helm search repo [keyword] [flags]", leaf: true},
		{name: "kustomize example text", path: "kustomize edit set image",
			text: "Sets images\n\nUsage:\n  kustomize edit set image [flags]\n\nExamples:\n\nThe command\n  set image postgres=eu.gcr.io/postgres:latest\nwill add\n\nimages:\n- name: postgres\n\t\t\n\nFlags:\n  -h, --help   help for image\n",
			lead: "Sets images", use: "kustomize edit set image [flags]", leaf: true,
			example: "\nThe command\n  set image postgres=eu.gcr.io/postgres:latest\nwill add\n\nimages:\n- name: postgres\n\t\t"},
		{name: "etcdctl leaf", path: "etcdctl put", flags: []string{"prev-kv", "lease"},
			text: "\nPuts the given key into the store.\n\nWhen <value> begins with '-', <value> is interpreted as a flag.\nInsert '--' for workaround:\n\n$ put <key> -- <value>\n\nUsage:\n  etcdctl put [options] <key> <value> (<value> can also be given from stdin) [flags]\n\nFlags:\n  -h, --help           help for put\n      --lease string   lease ID (in hexadecimal) to attach to the key (default \"0\")\n      --prev-kv        return the previous key-value pair before modification\nUse \"etcdctl options\" for a list of global command-line options (applies to all commands).\n",
			lead: "Puts the given key into the store.\n\nWhen <value> begins with '-', <value> is interpreted as a flag.\nInsert '--' for workaround:\n\n$ put <key> -- <value>",
			use:  "etcdctl put [options] <key> <value> (<value> can also be given from stdin) [flags]", leaf: true,
			flagText: map[string]string{"prev-kv": "return the previous key-value pair before modification"}},
		{name: "etcdctl root", path: "etcdctl",
			text: "A simple command line client for etcd3.\n\nUsage:\n  etcdctl [command]\n\nKey-value commands\n  compaction  Compacts the event history in etcd\n  move-leader Transfers leadership to another etcd cluster member.\n\nUtility commands\n  version     Prints the version of etcdctl\n\nUse \"etcdctl [command] --help\" for more information about a command.\n",
			lead: "A simple command line client for etcd3.", commands: []string{"compaction", "move-leader", "version"}},
		{name: "crane examples", path: "crane blob", flags: []string{"platform"},
			text: "Read a blob from the registry\n\nUsage:\n  crane blob BLOB [flags]\n\nExamples:\ncrane blob ubuntu@sha256:4c1d > blob.tar.gz\n\nFlags:\n  -h, --help   help for blob\n",
			lead: "Read a blob from the registry", use: "crane blob BLOB [flags]", example: "crane blob ubuntu@sha256:4c1d > blob.tar.gz", leaf: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hc := helpContext{path: tt.path, flags: map[string]bool{"help": true}}
			for _, f := range tt.flags {
				hc.flags[f] = true
			}
			p := parseHelp(tt.text, hc)
			if p.lead != tt.lead {
				t.Errorf("lead = %q\nwant %q", p.lead, tt.lead)
			}
			if use, ok := p.useLine(tt.path); use != tt.use || ok != (tt.use != "") {
				t.Errorf("use line = %q, %v; want %q", use, ok, tt.use)
			}
			if p.example != tt.example {
				t.Errorf("example = %q, want %q", p.example, tt.example)
			}
			var cmds []string
			for _, c := range p.commands {
				cmds = append(cmds, c.name)
			}
			if strings.Join(cmds, " ") != strings.Join(tt.commands, " ") {
				t.Errorf("commands = %v, want %v", cmds, tt.commands)
			}
			if p.leaf(tt.path) != tt.leaf {
				t.Errorf("leaf = %v, want %v", p.leaf(tt.path), tt.leaf)
			}
			var global []string
			for name := range p.global {
				global = append(global, name)
			}
			slices.Sort(global)
			if strings.Join(global, " ") != strings.Join(tt.global, " ") {
				t.Errorf("global flags = %v, want %v", global, tt.global)
			}
			for name, want := range tt.flagText {
				hf := p.flags[name]
				if hf == nil {
					t.Errorf("--%s not read", name)
					continue
				}
				if got := strings.Join(hf.text, "\n"); got != want {
					t.Errorf("--%s text = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestBuildInfo compares cobra versions (TestOldPflagHelp reads the build
// info of a binary).
func TestBuildInfo(t *testing.T) {
	for _, tt := range []struct {
		b             *BuildInfo
		atLeast, know bool
	}{
		{&BuildInfo{Cobra: "v1.3.0"}, false, true},
		{&BuildInfo{Cobra: "v1.4.0"}, true, true},
		{&BuildInfo{Cobra: "v2.0.0-rc1"}, true, true},
		{&BuildInfo{}, false, false},
		{nil, false, false},
	} {
		if a, k := tt.b.cobraAtLeast(1, 4); a != tt.atLeast || k != tt.know {
			t.Errorf("%+v: cobraAtLeast(1, 4) = %v, %v; want %v, %v", tt.b, a, k, tt.atLeast, tt.know)
		}
	}
	if readBuildInfo(filepath.Join(t.TempDir(), "none")) != nil {
		t.Error("build info of a missing file")
	}
}

// TestFullListing: cobra before 1.4 never lists --help, so a listing
// without it is every flag (cobra-cli v1.3.0's), unless the help shows a
// flag that it left out; from 1.4 on, a listing without --help is of the
// required flags only.
func TestFullListing(t *testing.T) {
	page := parseHelp("Add a command.\n\nUsage:\n  cobra-cli add [command name] [flags]\n\nFlags:\n  -h, --help   help for add\n  -p, --parent string   parent\n\nGlobal Flags:\n  -a, --author string   author\n",
		helpContext{path: "cobra-cli add", flags: map[string]bool{"help": true, "parent": true, "author": true}})
	all := map[string]bool{"parent": true, "author": true}
	some := map[string]bool{"parent": true}
	for _, tt := range []struct {
		name                 string
		listsHelp, helpKnown bool
		names                map[string]bool
		want                 bool
	}{
		{"cobra 1.3, every flag", false, true, all, true},
		{"cobra 1.3, one left out", false, true, some, false},
		{"cobra 1.4", true, true, all, false},
		{"--help listed", true, true, map[string]bool{"help": true}, true},
		{"unknown cobra, every flag", false, false, all, true},
	} {
		d := &discoverer{listsHelp: tt.listsHelp, helpKnown: tt.helpKnown}
		if got := d.fullListing(tt.names, page); got != tt.want {
			t.Errorf("%s: fullListing = %v, want %v", tt.name, got, tt.want)
		}
	}
	// docker hides --help: completion never lists it, on cobra 1.4 and
	// later too, and the help does not show it. Every flag was read as
	// required (127 docker commands).
	hidden := parseHelp("Create a volume.\n\nUsage:\n  docker volume create [OPTIONS] [VOLUME]\n\nOptions:\n  -d, --driver string   Specify volume driver name\n      --label list      Set metadata\n",
		helpContext{path: "docker volume create", flags: map[string]bool{"driver": true, "label": true}})
	d := &discoverer{listsHelp: true, helpKnown: true}
	if !d.fullListing(map[string]bool{"driver": true, "label": true}, hidden) {
		t.Error("hidden --help, every flag listed: read as the required flags only")
	}
	if d.fullListing(map[string]bool{"driver": true}, hidden) {
		t.Error("hidden --help, one flag left out: read as every flag")
	}
}

// TestIsPlaceholder: completion keeps the usage's back quotes, which tell
// a placeholder (gh's --repo, --json) from a custom type's name (crane's
// platform), even where the usage happens to say the word.
func TestIsPlaceholder(t *testing.T) {
	for _, tt := range []struct {
		word, raw string
		text      []string
		want      bool
	}{
		{"platform", "Specifies the platform in the form os/arch", []string{"Specifies the platform in the form os/arch"}, false},
		{"[HOST/]OWNER/REPO", "Select another repository using the `[HOST/]OWNER/REPO` format", []string{"Select another repository using the [HOST/]OWNER/REPO format"}, true},
		{"fields", "Output JSON with the specified `fields`", []string{"Output JSON with the specified fields"}, true},
		{"WaitStrategy", "wait until resources are ready", []string{"wait until resources are ready"}, false},
		{"file", "Read from a file", []string{"Read from a file", "or from the `file` given"}, true},
		{"file", "Read from a `path`", []string{"Read from a path", "or a file"}, false},
	} {
		hf := &helpFlag{word: tt.word, style: "pflag", text: tt.text}
		if got := isPlaceholder(hf, tt.raw); got != tt.want {
			t.Errorf("isPlaceholder(%q, %q) = %v, want %v", tt.word, tt.raw, got, tt.want)
		}
	}
}

// TestBackQuotedPlaceholders reads flag lines whose placeholder pflag took
// from the usage's back quotes, as k3d's are: the placeholder may hold
// spaces and "[=" (no optional value), and a usage with a second pair of
// back quotes gets its first pair back, so that pflag reads it as written.
func TestBackQuotedPlaceholders(t *testing.T) {
	for _, tt := range []struct {
		line, cont, raw    string
		word, noOpt, usage string
		placeholder        bool
	}{
		{
			line:  "      --port-delete k3d cluster edit NODE --port-delete 8080:80   [EXPERIMENTAL] Delete a port mapping",
			cont:  "                                                                   - Example: k3d cluster edit NODE --port-delete 8080:80",
			raw:   "[EXPERIMENTAL] Delete a port mapping",
			word:  "k3d cluster edit NODE --port-delete 8080:80",
			usage: "[EXPERIMENTAL] Delete a port mapping\n - Example: k3d cluster edit NODE --port-delete 8080:80", placeholder: true,
		},
		{
			line:  "  -e, --env KEY[=VALUE][@NODEFILTER]   Add environment variables (Format: KEY[=VALUE][@NODEFILTER]",
			cont:  "                                        - Example: `k3d cluster create -e \"A=1@server:0\"`",
			raw:   "Add environment variables (Format: `KEY[=VALUE][@NODEFILTER]`",
			word:  "KEY[=VALUE][@NODEFILTER]",
			usage: "Add environment variables (Format: `KEY[=VALUE][@NODEFILTER]`\n - Example: `k3d cluster create -e \"A=1@server:0\"`", placeholder: true,
		},
		{
			line: "      --mode MODE[=\"fast\"]   The MODE to run in",
			raw:  "The `MODE` to run in",
			word: "MODE", noOpt: `"fast"`,
			usage: "The MODE to run in", placeholder: true,
		},
		{
			line:  "      --json fields   Output JSON with the specified fields",
			raw:   "Output JSON with the specified `fields`",
			word:  "fields",
			usage: "Output JSON with the specified fields", placeholder: true,
		},
	} {
		p := parseHelp("Flags:\n"+tt.line+"\n"+tt.cont+"\n", helpContext{})
		var hf *helpFlag
		for _, f := range p.flags {
			hf = f
		}
		if len(p.flags) != 1 || hf == nil {
			t.Errorf("%q: %d flags read", tt.line, len(p.flags))
			continue
		}
		hf.unquote(tt.raw)
		usage, _, _ := hf.split("")
		if hf.word != tt.word || hf.noOpt != tt.noOpt || usage != tt.usage || isPlaceholder(hf, tt.raw) != tt.placeholder {
			t.Errorf("%q: word %q, optional value %q, usage %q, placeholder %v; want %q, %q, %q, %v",
				tt.line, hf.word, hf.noOpt, usage, isPlaceholder(hf, tt.raw), tt.word, tt.noOpt, tt.usage, tt.placeholder)
		}
	}
}

// TestUnwrap: docker wraps its flag usages at the terminal's width, the
// default too; the usage is the CLI's one line again (completion has it)
// and the default is read. A usage whose first line is whole keeps its
// own further lines.
func TestUnwrap(t *testing.T) {
	page := parseHelp("Usage:  docker run [OPTIONS] IMAGE\n\nCreate and run a container\n\nOptions:\n"+
		"      --config string    Location of client config files (default\n                         \"/root/.docker\")\n"+
		"  -c, --context string   Name of the context to use to connect to the\n                         daemon (overrides DOCKER_HOST env var)\n"+
		"      --note string      First line.\n                         Second line of its own.\n",
		helpContext{path: "docker run", flags: map[string]bool{"config": true, "context": true, "note": true}})
	for _, tt := range []struct {
		name, raw, usage, def string
	}{
		{"config", "Location of client config files", "Location of client config files", "/root/.docker"},
		{"context", "Name of the context to use to connect to the daemon (overrides DOCKER_HOST env var)", "Name of the context to use to connect to the daemon (overrides DOCKER_HOST env var)", ""},
		{"note", "First line.", "First line.\nSecond line of its own.", ""},
	} {
		hf := page.flags[tt.name]
		if hf == nil {
			t.Fatalf("--%s not read", tt.name)
		}
		hf.unwrap(tt.raw)
		usage, def, _ := hf.split("string")
		if usage != tt.usage || def != tt.def {
			t.Errorf("--%s: usage %q, default %q; want %q, %q", tt.name, usage, def, tt.usage, tt.def)
		}
	}
}

// TestUsageDefaults: a "(default X)" that pflag cannot have printed for
// the flag's type (a zero it leaves out, a value the type refuses) is the
// usage's own words (docker's); one it prints is the default.
func TestUsageDefaults(t *testing.T) {
	tests := []struct {
		typ, line, usage, def string
	}{
		{"int", "Limit maximum number of processes (default 0 = unlimited)", "Limit maximum number of processes (default 0 = unlimited)", ""},
		{"uint16", "Block IO, or 0 to disable (default 0)", "Block IO, or 0 to disable (default 0)", ""},
		{"bool", "Show all containers (default shows just running)", "Show all containers (default shows just running)", ""},
		{"duration", "Time between running the check (ms|s|m|h) (default 0s)", "Time between running the check (ms|s|m|h) (default 0s)", ""},
		{"int", "Number of job tasks (default equal to --replicas)", "Number of job tasks (default equal to --replicas)", ""},
		{"int", "number of pods (default 3)", "number of pods", "3"},
		{"bool", "prefix each line (default true)", "prefix each line", "true"},
		{"duration", "how long to wait (default 30s)", "how long to wait", "30s"},
		{"stringToString", "labels, e.g. team=blue (default [])", "labels, e.g. team=blue", "[]"},
		{"string", `the namespace (default "default")`, "the namespace", "default"},
		{"bytes", "Memory limit (default 64MiB)", "Memory limit", "64MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.line, func(t *testing.T) {
			f := &helpFlag{style: "pflag", text: []string{tt.line}}
			usage, def, _ := f.split(tt.typ)
			if usage != tt.usage || def != tt.def {
				t.Errorf("split(%q) = %q, %q; want %q, %q", tt.typ, usage, def, tt.usage, tt.def)
			}
		})
	}
}

// TestUnwrapLines: a usage of several lines that pflag's FlagUsagesWrapped
// wrapped (docker's help) is read back as written: the wrap's breaks
// joined, the usage's own kept.
func TestUnwrapLines(t *testing.T) {
	usages := []string{
		"Format output using a custom template:\n'table':            Print output in table format with column headers (default)\n'table TEMPLATE':   Print output in table format using the given Go template\n'json':             Print in JSON format\n'TEMPLATE':         Print output using the given Go template.\nRefer to https://docs.docker.com/go/formatting/ for more information about formatting output with templates",
		"Cgroup namespace to use (host|private)\n'host':    Run the container in the Docker host's cgroup namespace\n'private': Run the container in its own private cgroup namespace\n'':        Use the cgroup namespace as configured by the\n           default-cgroupns-mode option on the daemon (default)",
		"First line, short.\nA second line that is long enough to be wrapped at least once by the help, and then some more words",
		// docker's image push --platform: the wrap may break after
		// "(eg.", which ends no sentence.
		"Push a platform-specific manifest as a single-platform image to the registry.\nImage index won't be pushed, meaning that other manifests, including attestations won't be preserved.\n'os[/arch[/variant]]': Explicit platform (eg. linux/amd64)",
	}
	for _, cols := range []int{79, 100, 60} {
		for i, usage := range usages {
			if i == 1 && cols == 60 {
				// Wrapped at 23 columns, the indented line breaks
				// inside its indentation: a line of spaces alone,
				// which the help's reading drops.
				continue
			}
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			fs.String("format", "", usage)
			fs.BoolP("all", "a", false, "Show all")
			help := "Usage:  docker x [OPTIONS]\n\nDo x\n\nOptions:\n" + fs.FlagUsagesWrapped(cols)
			page := parseHelp(help, helpContext{path: "docker x", flags: map[string]bool{"format": true, "all": true}})
			hf := page.flags["format"]
			if hf == nil {
				t.Fatalf("--format not read in\n%s", help)
			}
			first, _, _ := strings.Cut(usage, "\n")
			hf.unwrap(first)
			if got, _, _ := hf.split("string"); got != usage {
				t.Errorf("cols %d: usage read as\n%q\nwant\n%q\nhelp:\n%s", cols, got, usage, help)
			}
		}
	}
}

func TestEndsClause(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"Format output using a custom template:", true},
		{"Print the thing.", true},
		{"Is it?", true},
		{"a line that goes on", false},
		{"Explicit platform (eg.", false},
		{"such as e.g.", false},
		{"that is, i.e.", false},
		{"'os[/arch[/variant]]':", false},
		{"'json':             Print in JSON format", false},
		{"Use 'json':", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := endsClause(tt.line); got != tt.want {
			t.Errorf("endsClause(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestUsageName reads the root command's name from the usage line of its
// help, in the layouts of cobra, gh and docker.
func TestUsageName(t *testing.T) {
	for help, want := range map[string]string{
		"A CLI\n\nUsage:\n  shapes [flags]\n  shapes [command]\n":                      "shapes",
		"Work seamlessly with GitHub.\n\nUSAGE\n  gh <command> <subcommand> [flags]\n": "gh",
		"\nUsage:  docker [OPTIONS] COMMAND\n\nA self-sufficient runtime\n":            "docker",
		"Usage:\n  /usr/local/bin/tool [flags]\n":                                      "",
		"no usage here\n": "",
		// Usage lines at column 0: the root's two lines name it, or
		// the file's name does.
		"A CLI\n\nUsage:\nshapes [flags]\nshapes [command]\n": "shapes",
		"A CLI\n\nUsage:\nsh [flags]\n":                       "sh",
		"A CLI\n\nUsage:\nRun it as you like.\n":              "",
	} {
		if got := usageName(help, "sh"); got != want {
			t.Errorf("UsageName(%q) = %q, want %q", help, got, want)
		}
	}
}

// TestOfferedValues: the values a parser's refusal names, tried for a
// required flag before the guesses; a refusal that names none gives none.
func TestOfferedValues(t *testing.T) {
	for _, tt := range []struct {
		why  string
		want []string
	}{
		{`invalid argument "x" for "--data-type" flag: valid values are {TEXT|SINGLE_SELECT|DATE|NUMBER}`, []string{"TEXT", "SINGLE_SELECT"}},
		{`invalid argument "x" for "-o, --output" flag: must be one of [json, yaml, table]`, []string{"json", "yaml"}},
		{`invalid argument "x" for "--mode" flag: want one of ("fast", "safe")`, []string{"fast", "safe"}},
		{`invalid argument "x" for "--level" flag: unknown level (see {docs}); one of {debug|info}`, []string{"debug", "info"}},
		{`invalid argument "\"x" for "--json" flag: parse error on line 1, column 1: bare " in non-quoted-field`, nil},
		{`invalid argument "x" for "--count" flag: strconv.ParseInt: parsing "x": invalid syntax`, nil},
		{`invalid argument "x" for "--since" flag: parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`, nil},
		{`valid values are {a|b}`, nil}, // not pflag's refusal of a flag
		{`invalid argument "x" for "--mode" flag: one of {` + strings.Repeat("a", 257) + `|b}`, nil}, // no value that long
	} {
		if got := offeredValues(tt.why); !slices.Equal(got, tt.want) {
			t.Errorf("offeredValues(%q) = %q, want %q", tt.why, got, tt.want)
		}
	}
}
