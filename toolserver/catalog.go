package toolserver

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"deckhand/config"
)

//go:embed builtin/*.json
var builtinFS embed.FS

// File is one parsed definition file.
type File struct {
	Path  string // "builtin/git.json" for the embedded ones
	Def   *Definition
	Tools []*Tool
}

// ParseFile reads and parses the definition file at path.
func ParseFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &DefError{Problems: []Problem{{File: path, Path: "$", Reason: err.Error()}}}
	}
	defer f.Close()
	data := make([]byte, maxFileSize+1)
	n, _ := ioReadFull(f, data)
	def, tools, err := Parse(path, data[:n])
	if err != nil {
		return nil, err
	}
	return &File{Path: path, Def: def, Tools: tools}, nil
}

func ioReadFull(f *os.File, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Builtin parses the embedded definitions (a broken one is a bug, and
// reported like any other).
func Builtin() ([]*File, []Problem) {
	entries, _ := fs.ReadDir(builtinFS, "builtin")
	var files []*File
	var problems []Problem
	for _, e := range entries {
		name := "builtin/" + e.Name()
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			problems = append(problems, Problem{File: name, Path: "$", Reason: err.Error()})
			continue
		}
		def, tools, err := Parse(name, data)
		if err != nil {
			problems = append(problems, problemsOf(name, err)...)
			continue
		}
		files = append(files, &File{Path: name, Def: def, Tools: tools})
	}
	return files, problems
}

// DefaultDir is where a person's definitions live:
// $XDG_CONFIG_HOME/deckhand/tools (beside config.toml).
func DefaultDir() (string, error) {
	p, err := config.DefaultPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "tools"), nil
}

// ReadDir parses the *.json files of dir (not its subfolders). A missing
// folder holds no definitions.
func ReadDir(dir string) ([]*File, []Problem) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{{File: dir, Path: "$", Reason: err.Error()}}
	}
	var files []*File
	var problems []Problem
	for _, e := range entries {
		if e.IsDir() || !IsDefinitionFile(e.Name()) {
			continue
		}
		f, err := ParseFile(filepath.Join(dir, e.Name()))
		if err != nil {
			problems = append(problems, problemsOf(filepath.Join(dir, e.Name()), err)...)
			continue
		}
		files = append(files, f)
	}
	return files, problems
}

// IsDefinitionFile reports whether a file name is a definition's: *.json,
// not hidden (editors' temporary files are).
func IsDefinitionFile(name string) bool {
	return strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".")
}

func problemsOf(file string, err error) []Problem {
	var de *DefError
	if errors.As(err, &de) {
		return de.Problems
	}
	return []Problem{{File: file, Path: "$", Reason: err.Error()}}
}

// Catalog is the tools of a set of definitions.
type Catalog struct {
	Tools    []*Tool // by name
	Problems []Problem
	// Replaced are built-in definitions a person's file replaced.
	Replaced []string
}

// Assemble merges the built-in definitions and a person's: a file whose
// definition has a built-in's name replaces it; a tool name made twice
// keeps the first (built-in first, then by file name) and rejects the
// other file; a sequence naming a tool that does not exist rejects its
// tool.
func Assemble(builtin, user []*File) *Catalog {
	c := &Catalog{}
	byName := map[string]*File{}
	var order []string
	for _, f := range builtin {
		byName[f.Def.Name] = f
		order = append(order, f.Def.Name)
	}
	user = slices.Clone(user)
	sort.Slice(user, func(i, j int) bool { return user[i].Path < user[j].Path })
	for _, f := range user {
		prev, ok := byName[f.Def.Name]
		switch {
		case ok && strings.HasPrefix(prev.Path, "builtin/"):
			c.Replaced = append(c.Replaced, prev.Path+" by "+f.Path)
		case ok:
			c.Problems = append(c.Problems, Problem{File: f.Path, Path: "$.name", Reason: fmt.Sprintf("%q is also defined in %s, which is kept", f.Def.Name, prev.Path)})
			continue
		default:
			order = append(order, f.Def.Name)
		}
		byName[f.Def.Name] = f
	}
	owner := map[string]string{}
	tools := map[string]*Tool{}
	for _, name := range order {
		f := byName[name]
		clash := ""
		for _, t := range f.Tools {
			if o, ok := owner[t.Name]; ok {
				clash = fmt.Sprintf("the tool %q is already made by %s", t.Name, o)
			}
		}
		if clash != "" {
			c.Problems = append(c.Problems, Problem{File: f.Path, Path: "$", Reason: clash})
			continue
		}
		for _, t := range f.Tools {
			owner[t.Name] = f.Path
			tools[t.Name] = t
		}
	}
	for _, name := range sortedKeys(tools) {
		t := tools[name]
		for i, st := range t.Sequence {
			target, ok := tools[st.Tool]
			switch {
			case !ok:
				c.Problems = append(c.Problems, Problem{File: t.File, Path: fmt.Sprintf("sequence %s, step %d", t.Name, i+1), Reason: fmt.Sprintf("no tool named %q", st.Tool)})
				delete(tools, name)
			case len(target.Sequence) > 0:
				c.Problems = append(c.Problems, Problem{File: t.File, Path: fmt.Sprintf("sequence %s, step %d", t.Name, i+1), Reason: fmt.Sprintf("%q is a sequence itself", st.Tool)})
				delete(tools, name)
			}
		}
	}
	for _, name := range sortedKeys(tools) {
		c.Tools = append(c.Tools, tools[name])
	}
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
