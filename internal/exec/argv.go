package exec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/spf13/pflag"
)

// Errors returned (wrapped, with the flag named) by [CommandLine.Argv].
// Test them with errors.Is.
var (
	// ErrUnknownFlag reports a flag name that is not in the flag set.
	ErrUnknownFlag = errors.New("unknown flag")
	// ErrInvalidValue reports a value that does not fit the flag: a JSON
	// type the flag does not take, a number out of the flag's range or not
	// integral for an integer flag, a string the flag's type cannot parse.
	// It is the error of the flag kinds' writers (flagschema.Write).
	ErrInvalidValue = flagschema.ErrInvalidValue
	// ErrUnrepresentable reports a value that fits the flag's type but that
	// no command line can make the flag parser return: a NUL byte, an
	// empty list for a flag type that always parses at least one element, a
	// map key holding the separator of its flag's syntax, and the like.
	// It is the error of the flag kinds' writers (flagschema.Write).
	ErrUnrepresentable = flagschema.ErrUnrepresentable
)

// flagArgv returns the "--name=value" elements of flags, in name order.
func flagArgv(fs *pflag.FlagSet, flags map[string]any) ([]string, error) {
	names := make([]string, 0, len(flags))
	for name, v := range flags {
		if v != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)

	argv := make([]string, 0, len(names)+1)
	seen := make(map[string]string, len(names))
	for _, name := range names {
		f := fs.Lookup(name)
		if f == nil {
			return nil, fmt.Errorf("flag --%s: %w", name, ErrUnknownFlag)
		}
		if prev, dup := seen[f.Name]; dup {
			return nil, fmt.Errorf("flags %q and %q are the same flag --%s: %w", prev, name, f.Name, ErrInvalidValue)
		}
		seen[f.Name] = name
		vals, err := flagschema.Write(f, flags[name])
		if err != nil {
			return nil, fmt.Errorf("flag --%s: %w", f.Name, err)
		}
		for _, val := range vals {
			if strings.IndexByte(val, 0) >= 0 {
				return nil, fmt.Errorf("flag --%s: a NUL byte: %w", f.Name, ErrUnrepresentable)
			}
			argv = append(argv, "--"+f.Name+"="+val)
		}
	}
	return argv, nil
}
