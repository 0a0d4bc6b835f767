// Package api_test checks the exported API of the packages adopters use
// against the listing committed in testdata: a name that disappears or
// changes its signature must be named in CHANGELOG.md's Unreleased section.
//
//	go test ./test/api              # the check (part of make test)
//	go test ./test/api -update      # rewrite testdata/*.txt (make api-update)
package api_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txt with the API as it is now")

// packages are the directories, from the repository's root, whose exported
// names adopters rely on.
var packages = []string{"bridge", "toolset", "serve", "oauth", "access", "audit", "telemetry"}

const root = "../.."

func TestAPI(t *testing.T) {
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatalf("the API check needs CHANGELOG.md: %v", err)
	}
	unreleased := unreleasedSection(string(changelog))
	for _, pkg := range packages {
		t.Run(pkg, func(t *testing.T) {
			golden := filepath.Join("testdata", strings.ReplaceAll(pkg, "/", "_")+".txt")
			var got []string // a package that is gone has no API left
			if _, err := os.Stat(filepath.Join(root, pkg)); err == nil {
				if got, err = apiOf(filepath.Join(root, pkg), pkg); err != nil {
					t.Fatal(err)
				}
			}
			if *update && got == nil {
				if err := os.Remove(golden); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				return
			}
			if *update {
				if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			var want []string // a package new to the check has nothing to lose
			if b, err := os.ReadFile(golden); err == nil {
				want = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			} else if !os.IsNotExist(err) {
				t.Fatal(err)
			}
			var missing []string
			for _, line := range gone(want, got) {
				if name, _, _ := strings.Cut(line, " "); !mentioned(unreleased, name) {
					missing = append(missing, "\t"+line)
				}
			}
			if len(missing) > 0 {
				t.Errorf("these exported names of %s disappeared or changed (listed as they were), and CHANGELOG.md's [Unreleased] section names none of them (by pkg.Name, Type.Member or pkg.Type): add a line for adopters saying what to use instead, then run make api-update:\n%s", pkg, strings.Join(missing, "\n"))
			}
			if added := gone(got, want); len(added) > 0 {
				t.Logf("not yet in %s (make api-update records them):\n%s", golden, strings.Join(added, "\n"))
			}
		})
	}
}

// gone returns the lines of old that are not in new.
func gone(old, new []string) []string {
	var out []string
	for _, l := range old {
		if l != "" && !slices.Contains(new, l) {
			out = append(out, l)
		}
	}
	return out
}

// unreleasedSection returns the text from "## [Unreleased]" to the next
// "## " heading.
func unreleasedSection(s string) string {
	_, rest, ok := strings.Cut(s, "## [Unreleased]")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// mentioned reports whether text names name ("pkg.Name" or
// "pkg.Type.Member"): the whole name, or for a member "Type.Member" or its
// type "pkg.Type", not followed by more of an identifier.
func mentioned(text, name string) bool {
	parts := strings.Split(name, ".")
	forms := []string{name}
	if len(parts) == 3 {
		forms = append(forms, parts[1]+"."+parts[2], parts[0]+"."+parts[1])
	}
	for _, f := range forms {
		if regexp.MustCompile(`(^|[^A-Za-z0-9_.])` + regexp.QuoteMeta(f) + `($|[^A-Za-z0-9_])`).MatchString(text) {
			return true
		}
	}
	return false
}

// apiOf lists the exported API of the package in dir, one line per name,
// sorted: "pkg.Name kind signature", parameter names and constants'
// values left out.
func apiOf(dir, pkg string) ([]string, error) {
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("package %s: %w", pkg, err)
	}
	name := bp.Name
	fset := token.NewFileSet()
	var lines []string
	add := func(ident, kind, sig string) {
		lines = append(lines, strings.Join(strings.Fields(name+"."+ident+" "+kind+" "+sig), " "))
	}
	for _, f := range bp.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					add(d.Name.Name, "", funcSig(fset, d.Type))
					continue
				}
				recv := d.Recv.List[0].Type
				ptr := ""
				if s, ok := recv.(*ast.StarExpr); ok {
					recv, ptr = s.X, "*"
				}
				switch r := recv.(type) {
				case *ast.IndexExpr:
					recv = r.X
				case *ast.IndexListExpr:
					recv = r.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
					add(id.Name+"."+d.Name.Name, "method", "("+ptr+id.Name+") "+funcSig(fset, d.Type))
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						typeLines(fset, s, add)
					case *ast.ValueSpec:
						for _, n := range s.Names { // a constant's value is not its signature
							if !n.IsExported() {
								continue
							}
							sig := ""
							if s.Type != nil {
								sig = expr(fset, s.Type)
							}
							add(n.Name, strings.ToLower(d.Tok.String()), sig)
						}
					}
				}
			}
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines), nil
}

// typeLines adds the lines of one exported type: the type, and its
// exported fields or interface methods one per line.
func typeLines(fset *token.FileSet, s *ast.TypeSpec, add func(ident, kind, sig string)) {
	tparams := ""
	if s.TypeParams != nil {
		tparams = "[" + fields(fset, s.TypeParams, ", ") + "]"
	}
	if s.Assign.IsValid() {
		add(s.Name.Name, "type", tparams+"= "+expr(fset, s.Type))
		return
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		add(s.Name.Name, "type", tparams+"struct")
		for _, f := range t.Fields.List {
			typ := expr(fset, f.Type)
			if len(f.Names) == 0 { // embedded: named by its type
				n := strings.TrimPrefix(typ, "*")
				if i := strings.LastIndex(n, "."); i >= 0 {
					n = n[i+1:]
				}
				if ast.IsExported(n) {
					add(s.Name.Name+"."+n, "field", "embedded "+typ)
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					add(s.Name.Name+"."+n.Name, "field", typ)
				}
			}
		}
	case *ast.InterfaceType:
		add(s.Name.Name, "type", tparams+"interface")
		for _, m := range t.Methods.List {
			if len(m.Names) == 0 {
				add(s.Name.Name+"."+expr(fset, m.Type), "embedded", "")
				continue
			}
			if ft, ok := m.Type.(*ast.FuncType); ok && m.Names[0].IsExported() {
				add(s.Name.Name+"."+m.Names[0].Name, "method", funcSig(fset, ft))
			}
		}
	default:
		add(s.Name.Name, "type", tparams+expr(fset, s.Type))
	}
}

// funcSig prints a function type without its parameter names.
func funcSig(fset *token.FileSet, ft *ast.FuncType) string {
	var b strings.Builder
	b.WriteString("func")
	if ft.TypeParams != nil {
		b.WriteString("[" + fields(fset, ft.TypeParams, ", ") + "]")
	}
	b.WriteString("(" + types(fset, ft.Params) + ")")
	if r := types(fset, ft.Results); r != "" {
		if ft.Results.NumFields() > 1 {
			r = "(" + r + ")"
		}
		b.WriteString(" " + r)
	}
	return b.String()
}

// types lists the types of fl, one per name, without the names.
func types(fset *token.FileSet, fl *ast.FieldList) string {
	if fl == nil {
		return ""
	}
	var out []string
	for _, f := range fl.List {
		n := max(len(f.Names), 1)
		for range n {
			out = append(out, expr(fset, f.Type))
		}
	}
	return strings.Join(out, ", ")
}

// fields prints fl with its names (type parameters keep theirs: a
// constraint refers to them).
func fields(fset *token.FileSet, fl *ast.FieldList, sep string) string {
	var out []string
	for _, f := range fl.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		out = append(out, strings.TrimSpace(strings.Join(names, ", ")+" "+expr(fset, f.Type)))
	}
	return strings.Join(out, sep)
}

// expr prints an expression on one line, function types without their
// parameter names.
func expr(fset *token.FileSet, e ast.Expr) string {
	if ft, ok := e.(*ast.FuncType); ok {
		return funcSig(fset, ft)
	}
	e = stripNames(e)
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, e); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// stripNames returns e with the parameter names of the function types
// inside it removed, so that renaming a parameter is not an API change.
func stripNames(e ast.Expr) ast.Expr {
	switch t := e.(type) {
	case *ast.FuncType:
		return &ast.FuncType{Params: unnamed(t.Params), Results: unnamed(t.Results)}
	case *ast.StarExpr:
		return &ast.StarExpr{X: stripNames(t.X)}
	case *ast.ArrayType:
		return &ast.ArrayType{Len: t.Len, Elt: stripNames(t.Elt)}
	case *ast.MapType:
		return &ast.MapType{Key: stripNames(t.Key), Value: stripNames(t.Value)}
	case *ast.ChanType:
		return &ast.ChanType{Dir: t.Dir, Value: stripNames(t.Value)}
	}
	return e
}

func unnamed(fl *ast.FieldList) *ast.FieldList {
	if fl == nil {
		return nil
	}
	out := &ast.FieldList{}
	for _, f := range fl.List {
		for range max(len(f.Names), 1) {
			out.List = append(out.List, &ast.Field{Type: stripNames(f.Type)})
		}
	}
	return out
}

func TestMentioned(t *testing.T) {
	text := "- `exec.Argv` and `Positional.Place` are gone; `toolset.Toolset` is two types.\n"
	tests := []struct {
		name string
		want bool
	}{
		{"exec.Argv", true},
		{"exec.ArgvNoParse", false}, // a longer name is another name
		{"exec.Positional.Place", true},
		{"exec.Positional.Args", false},
		{"toolset.Toolset.View", true}, // its type is named
		{"toolset.Tool", false},
		{"xexec.Argv", false},
	}
	for _, tt := range tests {
		if got := mentioned(text, tt.name); got != tt.want {
			t.Errorf("mentioned(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
