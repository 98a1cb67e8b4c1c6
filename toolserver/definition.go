package toolserver

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaJSON is the JSON Schema of a tool definition file (MTDF), as
// shipped: `deckhand tools schema` prints it.
//
//go:embed mtdf.schema.json
var SchemaJSON []byte

// Definition is one definition file: a program as tools.
type Definition struct {
	Node
	Command string `json:"command,omitempty"`
	Shell   bool   `json:"shell,omitempty"`
	Schema  string `json:"$schema,omitempty"`
}

// Node is the top of a definition or one of its subcommands.
type Node struct {
	Name                string            `json:"name"`
	Title               string            `json:"title,omitempty"`
	Description         string            `json:"description"`
	Command             string            `json:"command,omitempty"` // subcommands only (the top level's is Definition.Command)
	Args                []string          `json:"args,omitempty"`
	Enabled             *bool             `json:"enabled,omitempty"`
	Synchronous         *bool             `json:"synchronous,omitempty"`
	TimeoutSeconds      int               `json:"timeout_seconds,omitempty"`
	Annotations         *Annotations      `json:"annotations,omitempty"`
	AvailabilityCheck   *Check            `json:"availability_check,omitempty"`
	InstallInstructions string            `json:"install_instructions,omitempty"`
	Env                 map[string]string `json:"env,omitempty"`
	SandboxRead         []string          `json:"sandbox_read,omitempty"`
	EndOfOptions        bool              `json:"end_of_options,omitempty"`
	Options             []Param           `json:"options,omitempty"`
	Positional          []Param           `json:"positional_args,omitempty"`
	Subcommands         []*Node           `json:"subcommands,omitempty"`
	Sequence            []Step            `json:"sequence,omitempty"`
	StepDelayMS         int               `json:"step_delay_ms,omitempty"`
	Fallback            *Node             `json:"fallback,omitempty"`

	// MTDFSubcommand is MTDF's spelling of Subcommands ("subcommand", as
	// Ahma's documents write it); Parse moves it into Subcommands.
	MTDFSubcommand []*Node `json:"subcommand,omitempty"`
	subKey         string  // the key its subcommands were written under
}

// Annotations are a definition's honest hints.
type Annotations struct {
	ReadOnly    *bool `json:"read_only,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
	Idempotent  *bool `json:"idempotent,omitempty"`
	OpenWorld   *bool `json:"open_world,omitempty"`
}

// Check is an availability check.
type Check struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
}

// UnmarshalJSON reads a check as an object, or in MTDF's form as one
// command line ("which cargo-nextest"), split at spaces: never given to a
// shell (Parse has refused shell syntax in it).
func (c *Check) UnmarshalJSON(data []byte) error {
	var line string
	if json.Unmarshal(data, &line) == nil {
		f := strings.Fields(line)
		if len(f) == 0 {
			return errors.New("an empty availability check")
		}
		*c = Check{Command: f[0], Args: f[1:]}
		return nil
	}
	type check Check
	return json.Unmarshal(data, (*check)(c))
}

// Param is an option or a positional argument.
type Param struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Enum        []any           `json:"enum,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Format      string          `json:"format,omitempty"`
	Items       *Items          `json:"items,omitempty"`
	MinItems    *int            `json:"min_items,omitempty"`
	MaxItems    *int            `json:"max_items,omitempty"`
	AllowDash   bool            `json:"allow_dash,omitempty"`
	Stdin       bool            `json:"stdin,omitempty"`
	EndOfOpts   bool            `json:"end_of_options,omitempty"`
	Flag        string          `json:"flag,omitempty"`
	Joined      bool            `json:"joined,omitempty"`
}

// Items is the element type of an array parameter.
type Items struct {
	Type   string `json:"type,omitempty"`
	Format string `json:"format,omitempty"`
	Enum   []any  `json:"enum,omitempty"`
}

// Step is one call of a sequence.
type Step struct {
	Tool string `json:"tool"`
	// Subcommand (MTDF) makes the step's tool {Tool}_{Subcommand}; Parse
	// joins them into Tool.
	Subcommand  string         `json:"subcommand,omitempty"`
	Args        map[string]any `json:"args,omitempty"`
	Description string         `json:"description,omitempty"`
}

// Meta parameters every command tool takes; never passed to the program.
const (
	MetaDir     = "working_directory"
	MetaTimeout = "timeout_seconds"
	// MetaMode is MTDF's execution_mode: ModeSync waits for the command
	// however long it takes (up to its timeout), ModeAsync answers at
	// once with an operation id; unset, the definition's "synchronous"
	// decides (`tools serve --sync` overrides it all).
	MetaMode  = "execution_mode"
	ModeSync  = "sync"
	ModeAsync = "async"
)

// DefaultTimeout is a command's longest run when its definition names
// none; MaxTimeout is the longest a call may ask for.
const (
	DefaultTimeout = 120 * time.Second
	MaxTimeout     = time.Hour
)

// Problem is one reason a definition file is rejected.
type Problem struct {
	File   string `json:"file"`
	Path   string `json:"path"` // JSON path in the file: $.subcommands[1].options[0].default
	Reason string `json:"reason"`
}

func (p Problem) String() string { return fmt.Sprintf("%s: %s: %s", p.File, p.Path, p.Reason) }

// DefError is a rejected definition file.
type DefError struct{ Problems []Problem }

func (e *DefError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Tool is one tool a definition makes: a leaf of its subcommand tree.
type Tool struct {
	Name        string // the MCP tool's name
	File        string // the definition file
	Definition  string // the definition's name
	Title       string
	Description string
	Command     string   // the program
	Args        []string // fixed arguments: the path of subcommand names and their args
	Shell       bool
	Sync        bool
	Timeout     time.Duration
	Annotations Annotations
	Check       *Check
	Install     string
	Env         []string // KEY=value, sorted
	SandboxRead []string // as written (~/ expanded at run time)
	EndOfOpts   bool
	Options     []Param
	Positional  []Param
	Sequence    []Step
	StepDelay   time.Duration // between a sequence's steps (MTDF's step_delay_ms)
	Fallback    *Tool
	Schema      *jsonschema.Schema // the input schema, with the meta parameters
	resolved    *jsonschema.Resolved
	seqMarker   bool // the command was MTDF's "sequence": no program
}

var (
	schemaOnce sync.Once
	mtdf       *resolvedSchema
	schemaErr  error
)

// resolvedSchema is the MTDF schema's resolved forms: the whole file,
// resolved at the first Parse, and each of its definitions, resolved when
// a document fails and Parse looks for where. Each resolved definition is
// a whole copy of the schema (its $defs with it): resolving the thirteen
// at once held 4 MB for the life of every process that loads a tool
// (the window's), to be used only on a bad file.
type resolvedSchema struct {
	root map[string]any
	mu   sync.Mutex
	defs map[string]*jsonschema.Resolved // "" : the whole file; else a $defs entry
}

// compiled is the MTDF schema, its whole file resolved.
func compiled() (*resolvedSchema, error) {
	schemaOnce.Do(func() { mtdf, schemaErr = newSchema() })
	return mtdf, schemaErr
}

// newSchema parses the MTDF schema and resolves its whole file.
func newSchema() (*resolvedSchema, error) {
	rs := &resolvedSchema{defs: map[string]*jsonschema.Resolved{}}
	if err := json.Unmarshal(SchemaJSON, &rs.root); err != nil {
		return nil, err
	}
	if _, err := rs.def(""); err != nil {
		return nil, err
	}
	return rs, nil
}

// def is the resolved schema of the definition name ("": the whole file),
// resolved at its first use.
func (rs *resolvedSchema) def(name string) (*jsonschema.Resolved, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r, ok := rs.defs[name]; ok {
		return r, nil
	}
	doc := rs.root
	if name != "" {
		doc = map[string]any{"$schema": rs.root["$schema"], "$ref": "#/$defs/" + name, "$defs": rs.root["$defs"]}
	}
	data, _ := json.Marshal(doc)
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the MTDF schema: %w", err)
	}
	rs.defs[name] = r
	return r, nil
}

// validate checks v against the definition name ("": the whole file).
func (rs *resolvedSchema) validate(name string, v any) error {
	r, err := rs.def(name)
	if err != nil {
		return err
	}
	return r.Validate(v)
}

// children are, for each schema definition, where its instances hold
// instances of other definitions (for locating a failure).
var children = map[string][]struct{ key, def string }{
	"": {{"subcommands", "subcommand"}, {"subcommand", "subcommand"}, {"options", "option"}, {"positional_args", "positional"}, {"sequence", "step"},
		{"fallback", "subcommand"}, {"annotations", "annotations"}, {"availability_check", "availability_check"}},
	"subcommand": {{"subcommands", "subcommand"}, {"subcommand", "subcommand"}, {"options", "option"}, {"positional_args", "positional"}, {"sequence", "step"},
		{"fallback", "subcommand"}, {"annotations", "annotations"}, {"availability_check", "availability_check"}},
	"option":     {{"items", ""}},
	"positional": {{"items", ""}},
}

// locate finds the deepest part of v (at path, an instance of def) that
// fails its schema, and why.
func locate(rs *resolvedSchema, v any, def, path string) (string, string) {
	err := rs.validate(def, v)
	if err == nil {
		return "", ""
	}
	if obj, ok := v.(map[string]any); ok {
		for _, c := range children[def] {
			if c.def == "" {
				continue
			}
			switch child := obj[c.key].(type) {
			case []any:
				for i, e := range child {
					if p, why := locate(rs, e, c.def, fmt.Sprintf("%s.%s[%d]", path, c.key, i)); p != "" {
						return p, why
					}
				}
			case map[string]any:
				if p, why := locate(rs, child, c.def, path+"."+c.key); p != "" {
					return p, why
				}
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		if unknown := unknownKeys(obj, def); len(unknown) > 0 {
			return path, fmt.Sprintf("unknown key %s (a %s has: %s)", strings.Join(unknown, ", "), defNoun(def), strings.Join(knownKeys(def), ", "))
		}
	}
	return path, schemaReason(err)
}

// knownKeys are the keys an instance of a schema definition may have.
func knownKeys(def string) []string {
	var root map[string]any
	json.Unmarshal(SchemaJSON, &root)
	defs := root["$defs"].(map[string]any)
	props := func(m any) []string {
		var out []string
		if obj, ok := m.(map[string]any); ok {
			if p, ok := obj["properties"].(map[string]any); ok {
				for k := range p {
					out = append(out, k)
				}
			}
		}
		return out
	}
	var keys []string
	switch def {
	case "":
		keys = append(props(root), props(defs["node"])...)
	case "subcommand":
		keys = props(defs["node"])
	case "option", "positional":
		keys = append(props(defs["param"]), props(defs[def])...)
	default:
		keys = props(defs[def])
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

func unknownKeys(obj map[string]any, def string) []string {
	known := knownKeys(def)
	var out []string
	for k := range obj {
		if !slices.Contains(known, k) {
			out = append(out, strconv.Quote(k))
		}
	}
	slices.Sort(out)
	return out
}

func defNoun(def string) string {
	switch def {
	case "":
		return "definition"
	case "positional":
		return "positional argument"
	}
	return strings.ReplaceAll(def, "_", " ")
}

var validatingPrefix = regexp.MustCompile(`^validating [^ ]*: `)

// schemaReason keeps the innermost reason of a jsonschema-go error.
//
// The argument it is about is named (`argument "mode": enum: …`), from the
// last schema path the validator gives (/properties/a/items/properties/b
// is a[].b).
func schemaReason(err error) string {
	msg := err.Error()
	where := ""
	for {
		m := validatingPrefix.FindString(msg)
		if m == "" {
			break
		}
		where = strings.TrimSuffix(strings.TrimPrefix(m, "validating "), ": ")
		msg = msg[len(m):]
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	var arg strings.Builder
	if segs := strings.Split(strings.TrimPrefix(where, "/"), "/"); strings.HasPrefix(where, "/") {
		for i := 0; i < len(segs); i++ {
			switch {
			case segs[i] == "properties" && i+1 < len(segs):
				if arg.Len() > 0 {
					arg.WriteByte('.')
				}
				arg.WriteString(segs[i+1])
				i++
			case segs[i] == "items":
				arg.WriteString("[]")
			}
		}
	}
	if arg.Len() > 0 {
		return fmt.Sprintf("argument %q: %s", arg.String(), msg)
	}
	return msg
}

// maxFileSize bounds a definition file.
const maxFileSize = 1 << 20

// Parse reads one definition file's bytes: checked against the MTDF schema
// and then for what a schema cannot say. file names it in problems.
func Parse(file string, data []byte) (*Definition, []*Tool, error) {
	bad := func(path, format string, args ...any) error {
		return &DefError{Problems: []Problem{{File: file, Path: path, Reason: fmt.Sprintf(format, args...)}}}
	}
	if len(data) > maxFileSize {
		return nil, nil, bad("$", "the file is %d bytes; a definition is at most %d", len(data), maxFileSize)
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, bad("$", "not JSON: %s", jsonError(data, err))
	}
	if dec.More() {
		return nil, nil, bad("$", "more than one JSON value in the file")
	}
	rs, err := compiled()
	if err != nil {
		return nil, nil, err
	}
	var plain any // jsonschema-go validates float64, not json.Number
	if err := json.Unmarshal(data, &plain); err != nil {
		return nil, nil, bad("$", "not JSON: %s", jsonError(data, err))
	}
	// What MTDF writes its own way, said plainly before the schema's
	// terser reasons.
	if problems := mtdfProblems(file, plain); len(problems) > 0 {
		return nil, nil, &DefError{Problems: problems}
	}
	if err := rs.validate("", plain); err != nil {
		path, why := locate(rs, plain, "", "$")
		if path == "" {
			path, why = "$", schemaReason(err)
		}
		return nil, nil, bad(path, "%s", why)
	}
	var def Definition
	if err := json.Unmarshal(data, &def); err != nil {
		return nil, nil, bad("$", "%v", err)
	}
	// json.Unmarshal puts "command" in Definition.Command; Node.Command is
	// the subcommands'.
	def.Node.Command = ""
	normalize(&def.Node)
	var problems []Problem
	report := func(path, format string, args ...any) {
		problems = append(problems, Problem{File: file, Path: path, Reason: fmt.Sprintf(format, args...)})
	}
	if isShell(def.Command) && !def.Shell {
		report("$.command", "%s is a shell: say \"shell\": true to offer a tool that runs the model's scripts", def.Command)
	}
	if def.Shell && !isShell(def.Command) {
		report("$.shell", "\"shell\": true but the command %q is not a shell", def.Command)
	}
	var tools []*Tool
	base := &Tool{File: file, Definition: def.Name, Command: def.Command, Shell: def.Shell, Timeout: DefaultTimeout}
	if def.Command == seqCommand {
		base.Command, base.seqMarker = "", true
	}
	flatten(&def.Node, base, "$", def.Name, true, report, &tools)
	seen := map[string]bool{}
	for _, t := range tools {
		if seen[t.Name] {
			report("$", "two subcommands make the tool %q", t.Name)
		}
		seen[t.Name] = true
	}
	if len(problems) > 0 {
		return nil, nil, &DefError{Problems: problems}
	}
	return &def, tools, nil
}

// jsonError places a decoding error in the file.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"}

func isShell(command string) bool { return slices.Contains(shells, filepath.Base(command)) }

// toolName is an MCP tool name (the spec's characters, and short).
var toolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// flatten makes the tools of n (at path, named name), inheriting from
// parent, checking what the schema cannot.
func flatten(n *Node, parent *Tool, path, name string, top bool, report func(string, string, ...any), out *[]*Tool) {
	t := *parent
	t.Args = slices.Clone(parent.Args)
	if !top && n.Name != "default" {
		t.Args = append(t.Args, n.Name)
	}
	if n.Command == seqCommand {
		t.Command, t.Args, t.seqMarker = "", nil, true
	} else if n.Command != "" {
		if isShell(n.Command) && !t.Shell {
			report(path+".command", "%s is a shell: only a definition marked \"shell\": true runs one", n.Command)
		}
		t.Command, t.Args, t.seqMarker = n.Command, nil, false
	}
	t.Args = append(t.Args, n.Args...)
	if n.Enabled != nil && !*n.Enabled {
		return
	}
	if n.Synchronous != nil {
		t.Sync = *n.Synchronous
	}
	if n.TimeoutSeconds > 0 {
		t.Timeout = time.Duration(n.TimeoutSeconds) * time.Second
	}
	if n.StepDelayMS > 0 {
		t.StepDelay = time.Duration(n.StepDelayMS) * time.Millisecond
	}
	if n.Annotations != nil {
		t.Annotations = mergeAnnotations(t.Annotations, *n.Annotations)
	}
	if n.AvailabilityCheck != nil {
		t.Check, t.Install = n.AvailabilityCheck, n.InstallInstructions
	} else if n.InstallInstructions != "" {
		t.Install = n.InstallInstructions
	}
	if len(n.Env) > 0 {
		env := map[string]string{}
		for _, kv := range t.Env {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		for k, v := range n.Env {
			if strings.HasPrefix(k, "DECKHAND_") || k == "LD_PRELOAD" || k == "LD_LIBRARY_PATH" {
				report(path+".env."+k, "%s may not be set by a definition", k)
			}
			env[k] = v
		}
		t.Env = nil
		for k, v := range env {
			t.Env = append(t.Env, k+"="+v)
		}
		slices.Sort(t.Env)
	}
	for i, p := range n.SandboxRead {
		if why := badSandboxRead(p); why != "" {
			report(fmt.Sprintf("%s.sandbox_read[%d]", path, i), "%s", why)
		}
	}
	t.SandboxRead = append(slices.Clone(t.SandboxRead), n.SandboxRead...)
	t.EndOfOpts = t.EndOfOpts || n.EndOfOptions
	if n.Title != "" {
		t.Title = n.Title
	}
	t.Description = n.Description
	if len(n.Subcommands) > 0 {
		if len(n.Options)+len(n.Positional) > 0 || len(n.Sequence) > 0 {
			report(path, "a node with subcommands is not a tool itself: move its options, positional_args or sequence into a subcommand (a subcommand named \"default\" is its parent's tool)")
		}
		if n.Fallback != nil {
			report(path+".fallback", "only a tool (a node without subcommands) has a fallback")
		}
		key := n.subKey
		if key == "" {
			key = "subcommands"
		}
		for i, sub := range n.Subcommands {
			subName := name + "_" + sub.Name
			if sub.Name == "default" {
				subName = name
			}
			flatten(sub, &t, fmt.Sprintf("%s.%s[%d]", path, key, i), subName, false, report, out)
		}
		return
	}
	t.Name = strings.ReplaceAll(name, "-", "_")
	if !toolName.MatchString(t.Name) {
		report(path+".name", "the tool name %q is longer than 64 characters", t.Name)
	}
	if slices.Contains(reservedTools, t.Name) {
		report(path+".name", "%q is one of the server's own tools", t.Name)
	}
	switch {
	case t.seqMarker && len(n.Sequence) == 0:
		report(path, "\"command\": \"sequence\" makes a sequence tool, but there is no \"sequence\" of steps here")
	case t.Command == "" && len(n.Sequence) == 0:
		report(path, "no command to run: set command (here or above) or a sequence")
	case n.StepDelayMS > 0 && len(n.Sequence) == 0:
		report(path+".step_delay_ms", "step_delay_ms is for a sequence (a pause between its steps)")
	}
	if len(n.Sequence) > 0 {
		if len(n.Options)+len(n.Positional) > 0 {
			report(path, "a sequence takes no options or positional_args: its steps carry their arguments")
		}
		t.Sequence = n.Sequence
	}
	t.Options, t.Positional = n.Options, n.Positional
	checkParams(&t, path, report)
	if t.Shell {
		if len(t.Positional) != 1 || t.Positional[0].Type != "string" || !t.Positional[0].Required {
			report(path+".positional_args", "a shell tool takes its script as its one required string positional argument")
		}
		if len(t.Options) > 0 {
			report(path+".options", "a shell tool has no options: its script is all")
		}
		if !slices.Contains(t.Args, "-c") {
			report(path+".args", "a shell tool runs its script with -c: add \"-c\" to args")
		}
	}
	schema, err := inputSchema(&t)
	if err != nil {
		report(path, "the input schema: %v", err)
		return
	}
	t.Schema = schema
	if n.Fallback != nil {
		var fb []*Tool
		fbPath := path + ".fallback"
		if n.Fallback.Name != n.Name {
			report(fbPath+".name", "a fallback has its tool's name (%q)", n.Name)
		}
		if len(n.Fallback.Subcommands) > 0 || n.Fallback.Fallback != nil {
			report(fbPath, "a fallback is one tool: no subcommands, no fallback of its own")
		} else {
			parentCopy := *parent
			flatten(n.Fallback, &parentCopy, fbPath, name, top, report, &fb)
		}
		if len(fb) == 1 {
			if !sameParams(&t, fb[0]) {
				report(fbPath, "a fallback takes the same parameters (names and types) as its tool")
			}
			t.Fallback = fb[0]
		}
	}
	*out = append(*out, &t)
}

// reservedTools are the server's own tools.
var reservedTools = []string{"await", "status", "cancel"}

func mergeAnnotations(a, b Annotations) Annotations {
	if b.ReadOnly != nil {
		a.ReadOnly = b.ReadOnly
	}
	if b.Destructive != nil {
		a.Destructive = b.Destructive
	}
	if b.Idempotent != nil {
		a.Idempotent = b.Idempotent
	}
	if b.OpenWorld != nil {
		a.OpenWorld = b.OpenWorld
	}
	return a
}

// badSandboxRead says why p may not be opened to a tool's reads.
func badSandboxRead(p string) string {
	if !strings.HasPrefix(p, "~/") && !filepath.IsAbs(p) {
		return "a path to read is absolute or starts with ~/"
	}
	clean := filepath.Clean(strings.TrimPrefix(p, "~"))
	if strings.HasPrefix(p, "~/") {
		rel := strings.TrimPrefix(clean, "/")
		for _, s := range []string{".ssh", ".gnupg", ".aws", ".config", ".local", ".local/share", ".local/state", ".cache", ".", "deckhand"} {
			if rel == s || strings.HasPrefix(rel, ".ssh/") || strings.HasPrefix(rel, ".gnupg/") || strings.HasPrefix(rel, ".aws/") ||
				strings.HasPrefix(rel, ".config/deckhand") || strings.HasPrefix(rel, ".local/share/deckhand") || strings.HasPrefix(rel, ".local/state/deckhand") {
				return fmt.Sprintf("%s holds secrets or everyone's settings: name the one file or folder the tool needs", p)
			}
		}
		return ""
	}
	if clean == "/" || clean == "/home" || clean == "/root" {
		return fmt.Sprintf("%s is too wide: name the one file or folder the tool needs", p)
	}
	return ""
}

// checkParams checks a tool's parameters: unique names, the meta names
// left free, defaults and enums of the parameter's type.
func checkParams(t *Tool, path string, report func(string, string, ...any)) {
	seen := map[string]bool{}
	stdin := 0
	check := func(kind string, i int, p Param) {
		at := fmt.Sprintf("%s.%s[%d]", path, kind, i)
		switch {
		case p.Name == MetaDir || p.Name == MetaTimeout || p.Name == MetaMode:
			report(at+".name", "%q is a meta parameter every tool takes; it is never passed to the program", p.Name)
		case seen[p.Name]:
			report(at+".name", "two parameters are named %q", p.Name)
		}
		seen[p.Name] = true
		if p.Type == "array" && p.Items == nil {
			p.Items = &Items{Type: "string"}
		}
		if p.Type != "array" && (p.Items != nil || p.MinItems != nil || p.MaxItems != nil) {
			report(at, "items, min_items and max_items are for type array")
		}
		if p.Format == "path" && p.Type != "string" && !(p.Type == "array" && p.Items.Type == "string") {
			report(at+".format", "format \"path\" is for a string (or an array of strings)")
		}
		if p.Items != nil && p.Items.Format == "path" && p.Items.Type != "" && p.Items.Type != "string" {
			report(at+".items.format", "format \"path\" is for strings")
		}
		if p.Type == "boolean" && kind == "positional_args" {
			report(at+".type", "a boolean is an option (a flag), not a positional argument")
		}
		if p.Type == "boolean" && (p.Enum != nil || p.Joined) {
			report(at, "a boolean option is a flag: no enum, not joined")
		}
		if p.EndOfOpts && kind != "positional_args" {
			report(at+".end_of_options", "end_of_options is for a positional argument")
		}
		if p.Stdin {
			stdin++
			if p.Type != "string" || kind != "positional_args" {
				report(at+".stdin", "only a string positional argument can be the standard input")
			}
		}
		elem := p.Type
		if p.Type == "array" {
			elem = p.Items.Type
			if elem == "" {
				elem = "string"
			}
			for j, e := range p.Items.Enum {
				if !ofType(e, elem) {
					report(fmt.Sprintf("%s.items.enum[%d]", at, j), "%v is not of type %s", e, elem)
				}
			}
		}
		for j, e := range p.Enum {
			if p.Type == "array" || !ofType(e, elem) {
				report(fmt.Sprintf("%s.enum[%d]", at, j), "%v is not of type %s", e, p.Type)
			}
		}
		if len(p.Default) > 0 {
			var d any
			if err := json.Unmarshal(p.Default, &d); err != nil || !defaultOK(p, d) {
				report(at+".default", "the default %s does not fit the parameter (type %s%s)", string(p.Default), p.Type, enumNote(p))
			}
			if p.Required {
				report(at+".default", "a required parameter has no default (the call always gives it)")
			}
		}
	}
	for i, p := range t.Options {
		check("options", i, p)
	}
	for i, p := range t.Positional {
		check("positional_args", i, p)
		if p.Type == "array" && i != len(t.Positional)-1 {
			report(fmt.Sprintf("%s.positional_args[%d]", path, i), "only the last positional argument can be an array")
		}
	}
	if stdin > 1 {
		report(path+".positional_args", "only one parameter can be the standard input")
	}
}

// ofType reports whether the JSON value v (decoded into any) is of the
// MTDF scalar type typ.
func ofType(v any, typ string) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f) && math.Abs(f) < 1<<53
	case "number":
		_, ok := v.(float64)
		return ok
	}
	return false
}

func defaultOK(p Param, d any) bool {
	if p.Type == "array" {
		list, ok := d.([]any)
		if !ok {
			return false
		}
		elem := "string"
		if p.Items != nil && p.Items.Type != "" {
			elem = p.Items.Type
		}
		for _, e := range list {
			if !ofType(e, elem) || p.Items != nil && len(p.Items.Enum) > 0 && !inEnum(e, p.Items.Enum) {
				return false
			}
		}
		return true
	}
	return ofType(d, p.Type) && (len(p.Enum) == 0 || inEnum(d, p.Enum))
}

func enumNote(p Param) string {
	if len(p.Enum) > 0 {
		return ", one of its enum"
	}
	return ""
}

func inEnum(v any, enum []any) bool {
	for _, e := range enum {
		if fmt.Sprint(e) == fmt.Sprint(v) {
			return true
		}
	}
	return false
}

// sameParams reports whether two tools take the same parameters.
func sameParams(a, b *Tool) bool {
	sig := func(t *Tool) []string {
		var out []string
		for _, p := range slices.Concat(t.Options, t.Positional) {
			out = append(out, p.Name+":"+p.Type+":"+strconv.FormatBool(p.Required))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(sig(a), sig(b))
}

// inputSchema is the tool's input schema: its parameters, and the meta
// parameters for a command.
func inputSchema(t *Tool) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, p := range slices.Concat(t.Options, t.Positional) {
		ps := &jsonschema.Schema{Type: p.Type, Description: p.Description, Format: p.Format}
		if p.Format == "path" && ps.Description == "" {
			ps.Description = "A path inside the scope, relative to the working directory."
		}
		if p.Type == "array" {
			it := &jsonschema.Schema{Type: "string"}
			if p.Items != nil {
				if p.Items.Type != "" {
					it.Type = p.Items.Type
				}
				it.Format, it.Enum = p.Items.Format, p.Items.Enum
			}
			if p.Format == "path" {
				it.Format = "path"
				ps.Format = ""
			}
			ps.Items = it
			if p.MinItems != nil {
				ps.MinItems = jsonschema.Ptr(*p.MinItems)
			}
			if p.MaxItems != nil {
				ps.MaxItems = jsonschema.Ptr(*p.MaxItems)
			}
		}
		ps.Enum = p.Enum
		if len(p.Default) > 0 {
			ps.Default = p.Default
		}
		s.Properties[p.Name] = ps
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	if len(t.Sequence) == 0 {
		s.Properties[MetaDir] = &jsonschema.Schema{Type: "string", Format: "path",
			Description: "The folder to run in, inside the sandbox scope, relative to it (default: the scope's root). Not passed to the program."}
	}
	s.Properties[MetaMode] = &jsonschema.Schema{Type: "string", Enum: []any{ModeSync, ModeAsync},
		Description: "sync: wait for the result however long it takes (up to the timeout); async: answer at once with an operation id to await later. Default: this tool's own. Not passed to the program."}
	s.Properties[MetaTimeout] = &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(MaxTimeout.Seconds()),
		Description: fmt.Sprintf("The longest the command may run, in seconds (default %d). Not passed to the program.", int(t.Timeout.Seconds()))}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	t.resolved = rs
	return s, nil
}

// MTDF, as Ahma's documents write it, spells a few things its own way:
// Parse accepts them as written.
const (
	// seqCommand as a command is no program: it marks a sequence tool.
	seqCommand = "sequence"
	// shellSyntax are the characters a shell would give meaning to.
	shellSyntax = "|&;<>()$`\\\"'*?[]{}~#!"
	// maxCheckArgs is the most arguments an availability check takes.
	maxCheckArgs = 16
)

var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// mtdfProblems are the problems of the document as written (decoded into
// any) that concern MTDF's own spellings: "subcommand" beside
// "subcommands", and an availability check written as a command line that
// needs a shell.
func mtdfProblems(file string, doc any) []Problem {
	var out []Problem
	var walk func(v any, path string)
	walk = func(v any, path string) {
		n, ok := v.(map[string]any)
		if !ok {
			return
		}
		_, mtdf := n["subcommand"]
		_, ours := n["subcommands"]
		if mtdf && ours {
			out = append(out, Problem{File: file, Path: path,
				Reason: `both "subcommand" (MTDF's spelling) and "subcommands" are given: they are one key, keep one`})
		}
		if line, ok := n["availability_check"].(string); ok {
			if why := checkLineProblem(line); why != "" {
				out = append(out, Problem{File: file, Path: path + ".availability_check", Reason: why})
			}
		}
		for _, key := range []string{"subcommand", "subcommands"} {
			if list, ok := n[key].([]any); ok {
				for i, e := range list {
					walk(e, fmt.Sprintf("%s.%s[%d]", path, key, i))
				}
			}
		}
		walk(n["fallback"], path+".fallback")
	}
	walk(doc, "$")
	return out
}

// checkLineProblem says why an availability check written as one command
// line cannot run as a program with its arguments, or "".
func checkLineProblem(line string) string {
	const how = `Deckhand runs a check as a program with its arguments, never through a shell: write {"command": "...", "args": [...]} without shell syntax`
	for _, r := range line {
		if r < 0x20 || r == 0x7f {
			return fmt.Sprintf("the availability check %q holds a control character", line)
		}
	}
	if i := strings.IndexAny(line, shellSyntax); i >= 0 {
		return fmt.Sprintf("the availability check %q needs a shell (%s): %s", line, line[i:i+1], how)
	}
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return "the availability check is empty: give the command that must succeed for the tool to be offered"
	case envAssignment.MatchString(f[0]):
		return fmt.Sprintf("the availability check %q sets a variable (%s), which only a shell does: %s", line, f[0], how)
	case len(f)-1 > maxCheckArgs:
		return fmt.Sprintf("the availability check %q has %d arguments; at most %d", line, len(f)-1, maxCheckArgs)
	}
	return ""
}

// normalize moves MTDF's spellings into Deckhand's, through the tree of
// nodes: "subcommand" into Subcommands (remembering the key, for problems'
// paths), a step's tool and subcommand into the tool's name.
func normalize(n *Node) {
	if n == nil {
		return
	}
	if len(n.MTDFSubcommand) > 0 {
		n.Subcommands, n.MTDFSubcommand, n.subKey = n.MTDFSubcommand, nil, "subcommand"
	}
	for _, sub := range n.Subcommands {
		normalize(sub)
	}
	normalize(n.Fallback)
	for i := range n.Sequence {
		st := &n.Sequence[i]
		if st.Subcommand == "" {
			continue
		}
		if st.Subcommand != "default" {
			st.Tool += "_" + st.Subcommand
		}
		st.Tool, st.Subcommand = strings.ReplaceAll(st.Tool, "-", "_"), ""
	}
}
