package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Error lists everything wrong with one config file. Each problem names the
// key path (mcp.servers.fs.url) and, where the TOML parser knows it, the line.
type Error struct {
	File     string
	Problems []Problem
}

// Problem is one thing wrong at one key.
type Problem struct {
	Key  string // dotted key path, "" for the file as a whole
	Line int    // 1-based, 0 when unknown
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		var where []string
		if e.File != "" {
			loc := e.File
			if p.Line > 0 {
				loc += fmt.Sprintf(":%d", p.Line)
			}
			where = append(where, loc)
		}
		if p.Key != "" {
			where = append(where, p.Key)
		}
		b.WriteString(strings.Join(append(where, p.Msg), ": "))
	}
	return b.String()
}

// Load reads the config at path. An empty path means [DefaultPath]; a missing
// file there is the zero config, while a missing file named explicitly is an
// error. Defaults are applied to the result.
func Load(path string) (*Config, error) {
	return load(path, path != "")
}

// LoadForUpdate is Load for commands that add to the config: a missing file,
// named or not, is the zero config, and will be created on write.
func LoadForUpdate(path string) (*Config, error) {
	return load(path, false)
}

func load(path string, explicit bool) (*Config, error) {
	if path == "" {
		p, err := DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("finding the config directory: %w", err)
		}
		path = p
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		c := &Config{Path: path}
		c.ApplyDefaults()
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	c, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	c.Path = path
	return c, nil
}

// Parse decodes and validates TOML text; name is used in errors. Defaults are
// applied to the result.
func Parse(name string, data []byte) (*Config, error) {
	if p := checkShape(data); p != nil {
		return nil, &Error{File: name, Problems: []Problem{*p}}
	}
	var c Config
	md, err := toml.NewDecoder(strings.NewReader(string(data))).Decode(&c)
	if err != nil {
		p := decodeProblem(err)
		if tp := typeProblems(md, data); len(tp) > 0 {
			p = tp[0] // say it plainly, rather than the decoder's type names
		}
		return nil, &Error{File: name, Problems: []Problem{p}}
	}
	problems := typeProblems(md, data)
	for _, k := range md.Undecoded() {
		problems = append(problems, Problem{Key: keyString(k), Msg: "unknown key"})
	}
	problems = append(problems, validate(&c)...)
	for i := range problems {
		if problems[i].Line == 0 && problems[i].Key != "" {
			problems[i].Line = lineOfKey(data, problems[i].Key)
		}
	}
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool { return problems[i].Key < problems[j].Key })
		return nil, &Error{File: name, Problems: problems}
	}
	c.ApplyDefaults()
	return &c, nil
}

// lastKeyRE pulls the key out of BurntSushi/toml's plain error strings, which
// look like `toml: line 3 (last key "mcp.x"): incompatible types: …`.
var lastKeyRE = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): `)

func decodeProblem(err error) Problem {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return Problem{Key: pe.LastKey, Line: pe.Position.Line, Msg: pe.Message}
	}
	msg := err.Error()
	if m := lastKeyRE.FindStringSubmatch(msg); m != nil {
		line := 0
		fmt.Sscan(m[1], &line)
		return Problem{Key: m[2], Line: line, Msg: msg[len(m[0]):]}
	}
	return Problem{Msg: strings.TrimPrefix(msg, "toml: ")}
}

// lineOfKey is the line (1-based) where key is set in the TOML text, or where
// the nearest table holding it begins; 0 when it cannot be told. The
// decoder keeps no positions for keys it decoded.
func lineOfKey(data []byte, key string) int {
	table, best := "", 0
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			name := strings.Trim(strings.SplitN(line, "#", 2)[0], "[] \t")
			table = normKey(name)
			if table == key || strings.HasPrefix(key, table+".") {
				best = i + 1
			}
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		full := normKey(strings.TrimSpace(name))
		if table != "" {
			full = table + "." + full
		}
		if full == key || strings.HasPrefix(key, full+".") {
			return i + 1
		}
	}
	return best
}

// normKey writes a TOML key path as keyString does: parts quoted only
// when they must be.
func normKey(k string) string {
	var parts []string
	for _, p := range strings.Split(k, ".") {
		p = strings.TrimSpace(p)
		p = strings.Trim(p, `"'`)
		parts = append(parts, quoteKey(p))
	}
	return strings.Join(parts, ".")
}

// keyString renders a key path, quoting parts that are not bare keys.
func keyString(k toml.Key) string {
	parts := make([]string, len(k))
	for i, p := range k {
		parts[i] = quoteKey(p)
	}
	return strings.Join(parts, ".")
}

var bareKeyRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func quoteKey(k string) string {
	if bareKeyRE.MatchString(k) {
		return k
	}
	return jsonString(k)
}
