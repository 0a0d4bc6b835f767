package rank

import (
	"strings"
	"sync"
)

// The thesaurus is general CLI vocabulary: the words people use for the
// actions and objects of command-line tools, and the words CLIs name them
// with. It holds no answer to any particular task; it says that "remove"
// and "delete" mean the same, not which command deletes what.

// synonymGroups are words of one meaning: a query word finds the others.
var synonymGroups = []string{
	"list ls enumerate get show view display",
	"get show view display print see look read",
	"describe inspect detail details info information",
	"delete remove rm del destroy erase purge drop uninstall prune getrid teardown",
	"create add new make generate init initialize scaffold setup spinup",
	"update edit modify change patch alter set replace",
	"upgrade update",
	"rollback undo revert goback rollback",
	"run exec execute invoke launch trigger",
	"stop kill halt terminate shutdown pause suspend",
	"start resume boot bringup unpause",
	"restart reboot bounce reload redeploy recycle",
	"copy cp duplicate clone mirror",
	"move mv rename",
	"download pull fetch",
	"save export dump",
	"upload push publish",
	"login signin authenticate authentication auth logon",
	"logout signout",
	"log logs output stdout stderr",
	"config configuration configure setting settings option options preference preferences",
	"secret password credential token",
	"label tag",
	"annotate annotation note",
	"scale replica replicas",
	"autoscale autoscaler hpa",
	"node host worker agent member",
	"use switch select",
	"load import ingest",
	"migrate convert transform",
	"flatten squash",
	"enable activate turnon",
	"disable deactivate turnoff",
	"compact compaction defrag defragment reclaim shrink vacuum gc",
	"history revision audit",
	"health healthy status alive state",
	"namespace ns",
	"shell terminal console bash ssh",
	"forward tunnel",
	"manifest yaml spec",
	"diff compare difference preview",
	"wait block until",
	"permission allow allowed access auth authorize authorization rbac grant right rights privilege",
	"usage memory cpu metric metrics consumption utilization",
	"search find lookup discover",
	"watch follow stream notify subscribe",
	"backup snapshot",
	"restore recover",
	"expire expiry ttl lease",
	"schedule schedulable scheduling",
	"drain evict eviction maintenance",
	"cron cronjob nightly night periodic daily hourly",
	"leader leadership primary",
	"merge combine",
	"template render",
	"lint validate verify mistake",
	"package bundle archive tar tgz tarball",
	"repository repo",
	"pr pullrequest",
	"issue bug ticket",
	"workflow action actions ci pipeline",
	"approve review",
	"browser web",
	"api rest graphql endpoint",
	"digest sha sha256 hash checksum",
	"layer blob",
	"env environment",
	"explain documentation doc docs field fields schema",
	"event events",
	"debug troubleshoot diagnose investigate",
	"rerun retry",
	"kubeconfig kubecfg",
	"key keys kv",
	"dependency dependencies deps",
	"plugin plugins extension extensions addon",
	"user account",
	"alias shortcut",
	"gist snippet",
	"lock mutex",
	// General English for the actions of a command line, as people word
	// a goal: ways to say remove, cancel, look, answer, connect.
	"delete discard ditch wipe nuke trash eliminate getridof cleanup",
	"cancel abort interrupt",
	"comment reply respond remark",
	"examine inspect investigate describe",
	"watch monitor observe track tail",
	"search grep",
	"sync synchronize catchup",
	"deny reject refuse disallow decline forbid",
	"permit allow",
	"lock freeze",
	"unlock unfreeze thaw",
	"attach connect",
	"certificate cert tls ssl x509",
	"password passwd passphrase",
	"variable var vars variables",
	"org organization organisation orgs",
	"user username person people",
	"limit limits cap quota",
	"resize rescale",
	"reset clear",
	"backout revert",
	"current active",
	"update tweak adjust amend",
	"create bootstrap provision establish",
	"dependency requirement requirements prerequisite prerequisites",
	"source code",
}

// directed are words that point to others without the reverse: a person
// who says the first word often means a command named by the others.
var directed = []string{
	"list: get show",
	"show: list",
	"copies: replica scale",
	"machine: node host local",
	"point: use switch",
	"different: switch use",
	"download: clone",
	"configuration: value",
	"setting: value",
	"option: value",
	"release: version",
	"space: compact defrag",
	"render: build template",
	"include: add",
	"start: run launch",
	"copy: fork",
	"open: create browse",
	"instances: replica scale",
	"store: put set save create",
	"put: set add",
	"remember: save set",
	"changed: history revision",
	"crash: log describe event",
	"crashing: log describe event",
	"died: log describe event",
	"fail: log status",
	"failed: log status view",
	"broken: log status",
	"stuck: describe event status",
	"happening: event watch",
	"reachable: expose port forward",
	"reach: expose port forward",
	"exist: list",
	"available: list",
	"running: list status",
	"assigned: list status",
	"mine: list status",
	"version: release",
	"again: restart rerun retry",
	"back: rollback undo restore",
	"previous: rollback undo history",
	"older: history",
	"last: history",
	"tear: delete",
	"rid: delete",
	"spin: create",
	"bring: start",
	"sign: login",
	"healthy: health status check",
	"check: status health lint validate verify",
	"expires: lease",
	"timeout: lease",
	"laptop: local",
	"locally: local",
	"offline: local",
	"bump: upgrade update",
	"bad: rollback undo",
	"container: pod",
	"credentials: config login auth",
	"cluster: context",
	"app: deployment release application",
	"application: deployment release app",
	"deploy: install apply",
	"folder: directory dir",
	"directory: dir",
	"text: edit",
	"editor: edit",
	"address: endpoint url info",
	"platforms: manifest platform",
	"platform: manifest",
	"tags: tag ls list",
	"files: file",
	"why: describe event log status",
	"who: history log audit",
	"which: get list status",
	"what: get list describe show",
	"where: get show env info",
	"much: top usage",
	"many: list count",
	"ok: health status",
	"fast: perf performance",
	"speed: perf performance",
	"slow: perf performance",
	// General English, directed: a goal or a symptom as people word it,
	// pointing to the verbs and nouns CLIs name their commands with.
	"forget: remove delete logout unset",
	"kick: remove delete",
	"throw: delete remove",
	"kickout: remove delete",
	"kill: delete stop cancel",
	"wake: start resume",
	"wakeup: start resume",
	"continue: resume",
	"carry: resume",
	"proceed: resume",
	"hold: pause wait",
	"freeze: pause lock",
	"abort: stop",
	"cancel: stop delete",
	"done: close complete ready",
	"finish: close complete ready",
	"finished: close complete ready",
	"resolve: close",
	"share: create publish upload",
	"retag: tag",
	"rename: move",
	"move: copy transfer",
	"transfer: move copy",
	"peek: view get show",
	"glance: view get show",
	"check: view",
	"find: get list",
	"lookup: get",
	"print: log",
	"printed: log",
	"prints: log",
	"said: log",
	"wrote: log",
	"messages: log event",
	"error: log describe event status",
	"errors: log describe event status",
	"wrong: describe event log status",
	"hang: describe event status",
	"hung: describe event status",
	"pending: describe event",
	"timeline: event history",
	"happened: event history log",
	"recent: event history list",
	"renew: keepalive refresh",
	"refresh: update renew sync",
	"catch: sync update",
	"upstream: sync",
	"restrict: limit quota",
	"let: allow grant permit",
	"admin: role binding permission",
	"rights: role binding",
	"grow: scale",
	"resize: scale",
	"readonly: archive lock",
	"terminal: exec ssh",
	"shell: exec ssh",
	"console: exec",
	"command: exec run",
	"join: add attach",
	"tunnel: proxy forward",
	"localhost: local port proxy forward",
	"traffic: forward proxy port service expose",
	"route: ingress expose proxy",
	"outside: expose ingress loadbalancer",
	"public: expose loadbalancer",
	"signature: verify sign",
	"signed: verify sign",
	"authentic: verify attestation",
	"genuine: verify attestation",
	"tampered: verify attestation",
	"integrity: verify validate",
	"trust: verify",
	"encrypt: secret tls",
	"server: node host endpoint member",
	"vm: node machine",
	"box: node machine host",
	"peer: member node",
	"process: run exec",
	"website: browse web",
	"url: browse web endpoint",
	"link: browse web",
	"identity: whoami user account auth",
	"logged: auth status login whoami",
	"now: current status",
	"currently: current status",
	"eating: usage top",
	"consuming: usage top",
	"hogging: usage top",
	"separate: namespace",
	"isolate: namespace",
	"add: install",
	"problem: describe event log status debug",
	"who: whoami",
	"register: add create",
	"overview: list status",
	"summary: status view",
	"inventory: list",
	"grab: download fetch get",
	"retrieve: get fetch download",
	"obtain: get fetch",
	"bringdown: stop",
	"spindown: stop delete",
	"poweroff: stop",
	"forbidden: permission",
	"permitted: permission",
	"crashloop: log describe",
	"crashloopbackoff: log describe event",
	"oomkilled: describe top",
	"imagepullbackoff: describe event",
	"unreachable: describe event",
	"failing: log status describe",
	"trace: log debug",
	"latest: list",
	"whose: history",
	"temporary: run",
	"exclusive: lock",
}

// intentWords are words kept out of the index (they name no command) whose
// meaning still counts through the thesaurus: "which node" asks to get or
// list.
var intentWords = []string{"why", "who", "which", "what", "where", "much", "many"}

// stopWords are dropped from queries: they say nothing of the command.
const stopWords = `a an the in on of for to from with by and or all my me i is are be it its this that
these those how do does did can could would should will please some any each every into via using at want need
one many given your our we you there here just so then than as up out about thing things something when am was
were been being have has had not no yes over under while also like`

// negationWords rule out the words after them: "close it without
// merging", "instead of waiting for its schedule" name what the person
// does not want, and matching them finds the command they avoid.
var negationWords = []string{"without", "instead", "rather", "except", "excluding"}

// negationScope is how many content words after a negation word it rules
// out (none after an "and" or a "but"): the verb that follows ("without
// merging"), not its object, which is often the request's own ("instead
// of merging the pull request").
const negationScope = 1

// readVerbs start the description of a command that reads rather than
// acts ("List the pods", "Shows the status"); readNames name one ("list",
// "status"). A question about state favours them.
const (
	readVerbs = "list show display print output get view describe inspect examine retrieve return read check search find watch observe dump tell"
	readNames = "list ls get show view status version history top describe inspect info logs events explain whoami"
)

// measureWords after "how" ask about state ("how long", "how many"), not
// for a way to act ("how do I").
const measureWords = "long many much often old big far recent"

// alt is one word a query word expands to, with its weight.
type alt struct {
	term string
	w    float64
}

// lexicon is the built thesaurus: each stem's expansions, the stop words and
// the intent words.
type lexicon struct {
	expand   map[string][]alt
	stop     map[string]bool
	intent   map[string]bool
	negation map[string]bool
	readVerb map[string]bool // stems of readVerbs
	readName map[string]bool // stems of readNames
	measure  map[string]bool
}

// lex builds the lexicon on first use.
var lex = sync.OnceValue(func() *lexicon {
	l := &lexicon{expand: map[string][]alt{}, stop: map[string]bool{}, intent: map[string]bool{}, negation: map[string]bool{}}
	l.readVerb, l.readName, l.measure = stemSet(readVerbs), stemSet(readNames), map[string]bool{}
	for _, w := range strings.Fields(measureWords) {
		l.measure[w] = true
	}
	for _, w := range negationWords {
		l.negation[w] = true
	}
	add := func(from, to string, w float64) {
		if from == to {
			return
		}
		for _, a := range l.expand[from] {
			if a.term == to {
				return
			}
		}
		l.expand[from] = append(l.expand[from], alt{to, w})
	}
	for _, g := range synonymGroups {
		ws := strings.Fields(g)
		for _, a := range ws {
			for _, b := range ws {
				add(stem(a), stem(b), 1)
			}
		}
	}
	for _, d := range directed {
		from, to, _ := strings.Cut(d, ":")
		for _, b := range strings.Fields(to) {
			add(stem(strings.TrimSpace(from)), stem(b), 0.7)
		}
	}
	for _, w := range strings.Fields(stopWords) {
		l.stop[w] = true
	}
	for _, w := range intentWords {
		l.intent[w] = true
		l.stop[w] = false
	}
	return l
})

// stemSet is the set of the stems of the words of s.
func stemSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[stem(w)] = true
	}
	return m
}
