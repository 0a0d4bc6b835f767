package external

import "time"

// specFormat is the version of the Spec encoding in the cache; a cache
// entry of another format is rebuilt.
const specFormat = 6

// Spec is what reflection found out about a binary: its command tree, the
// flags of each command with their types, and notes on what it could not
// find. It is what the cache stores; Build turns it into a cobra tree.
type Spec struct {
	Format  int       `json:"format"`
	Binary  string    `json:"binary"`  // absolute path, symlinks resolved
	Size    int64     `json:"size"`    // of the binary, for the cache key
	ModTime time.Time `json:"modTime"` // of the binary, for the cache key
	Version string    `json:"version,omitempty"`
	// VersionFlag reports that Version came from cobra's --version flag
	// (re-read on a warm start to check the cache).
	VersionFlag bool `json:"versionFlag,omitempty"`
	// Build is the binary's Go build info (nil when it has none): the
	// main module and version, cobra's and pflag's versions.
	Build *BuildInfo `json:"build,omitempty"`
	// TraverseChildren reports that the root reads its own local flags
	// before a sub-command's name (cobra's TraverseChildren, as docker's
	// global options): they are then served on every command.
	TraverseChildren bool `json:"traverseChildren,omitempty"`
	// Matching is how the CLI reads a word as a sub-command's name, as
	// the binary answered (exec.AnnotationMatching: "exact", "prefix",
	// "case" or "prefix,case"); "" when it was not asked or could not
	// tell, and then any word may name one.
	Matching string   `json:"matching,omitempty"`
	Root     *Command `json:"root"`
	// Notes are what reflection could not find out exactly: flags served
	// as strings because their type stayed unknown, commands left out.
	Notes []string `json:"notes,omitempty"`
	// Partial reports that a process of the binary did not answer in time
	// (twice), so a command was left out or a flag served as a string
	// (each said in Notes). Load does not cache such a spec: a binary that
	// was slow once is asked again on the next start.
	Partial bool `json:"partial,omitempty"`
	// Unread are the commands (paths below the root) whose help could
	// not be read, left out because the overlay of the reflection
	// excluded them: a spec that has some serves only with an overlay
	// that excludes them too.
	Unread []string `json:"unread,omitempty"`
}

// Command is one command of the reflected tree.
type Command struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	Short   string   `json:"short,omitempty"`
	Long    string   `json:"long,omitempty"`
	Example string   `json:"example,omitempty"`
	// Use is the command's usage line from its help, with the command's
	// name first and the path of its parents removed ("pods [NAME] [flags]").
	Use string `json:"use"`
	// NoFlagsInUse reports that the usage line in the help shows no
	// "[flags]" (cobra's DisableFlagsInUseLine), so that the built
	// command's usage line is the one the help shows.
	NoFlagsInUse bool `json:"noFlagsInUse,omitempty"`
	// Runnable reports whether the command runs (its help shows a usage
	// line other than "CMD [command]").
	Runnable bool `json:"runnable"`
	// NoParse reports that the command parses its own flags
	// (cobra's DisableFlagParsing), as far as could be told.
	NoParse bool `json:"noParse,omitempty"`
	// MinArgs and MaxArgs bound the positional args; MaxArgs -1 means no
	// upper bound. Discovery accepts any number (0, -1): a usage line does
	// not bound what the command's Args validator accepts. An overlay may
	// set them.
	MinArgs int `json:"minArgs"`
	MaxArgs int `json:"maxArgs"`
	// Flags are the flags defined on this command (persistent ones are
	// inherited by the sub-commands).
	Flags    []*Flag    `json:"flags,omitempty"`
	Commands []*Command `json:"commands,omitempty"`
	// HasCommands reports that the command has sub-commands in the CLI,
	// whether or not Commands holds them all (the overlay, the depth
	// limit or a help that hung may leave some out): Build keeps such a
	// command one that has sub-commands, so that its positional args are
	// never written where the CLI could read one as a sub-command's name.
	HasCommands bool `json:"hasCommands,omitempty"`
	// Annotations are set by the overlay only (read-only hints, titles).
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Flag is one flag of a command.
type Flag struct {
	Name      string `json:"name"`
	Shorthand string `json:"shorthand,omitempty"`
	Usage     string `json:"usage,omitempty"`
	// Type is the pflag type name (Value.Type()): "string", "int",
	// "stringSlice", "stringToString", "duration"...
	Type string `json:"type"`
	// TypeFrom says how the type was found: "help" (pflag's help format),
	// "probe" (the flag parser's answer to probe values), "table" (a
	// well-known custom type name, kept), "overlay", or "unknown"
	// (served as a string).
	TypeFrom string `json:"typeFrom"`
	// Default is the default value as pflag prints it (DefValue); empty
	// when the help shows none (the type's zero value).
	Default     string `json:"default,omitempty"`
	NoOptDefVal string `json:"noOptDefVal,omitempty"`
	// Repeatable reports a custom type (Type is its name) that takes one
	// value an occurrence, as the help's type word and the parser's
	// answers showed: served as an array, each element given as its own
	// flag, as in-process.
	Repeatable bool `json:"repeatable,omitempty"`
	Persistent bool `json:"persistent,omitempty"`
	Required   bool `json:"required,omitempty"`
	// Schema is a JSON Schema for the flag's value, from the overlay; it
	// becomes the flag's jsonschema annotation.
	Schema string `json:"schema,omitempty"`
	// Declared reports a flag that the CLI hides, declared by the
	// overlay ("hidden": true) and checked against the CLI's parser.
	Declared bool `json:"declared,omitempty"`
	// listed is Usage as the command's listing gave it, before the
	// parser's answers could change it: what the sub-commands, read
	// while those answers are asked, compare theirs with (inherited).
	listed string
}

// Type sources, the values of Flag.TypeFrom.
const (
	FromHelp    = "help"
	FromProbe   = "probe"
	FromTable   = "table"
	FromOverlay = "overlay"
	FromUnknown = "unknown"
)

// find returns the command at path below c, or nil.
func (c *Command) find(path []string) *Command {
	for _, name := range path {
		var next *Command
		for _, s := range c.Commands {
			if s.Name == name {
				next = s
				break
			}
		}
		if next == nil {
			return nil
		}
		c = next
	}
	return c
}

// flag returns c's own flag of that name, or nil.
func (c *Command) flag(name string) *Flag {
	for _, f := range c.Flags {
		if f.Name == name {
			return f
		}
	}
	return nil
}
