package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A Form is what a server asks the person to fill in (MCP elicitation,
// form mode): flat fields of strings, numbers, booleans and enums, from the
// requested schema. The window's dialog and the terminal's questions are
// both built from it, and check the answers with it.
type Form struct {
	Fields []Field
}

// FieldKind is what a field holds.
type FieldKind string

const (
	FieldString  FieldKind = "string"
	FieldNumber  FieldKind = "number"
	FieldInteger FieldKind = "integer"
	FieldBoolean FieldKind = "boolean"
	FieldEnum    FieldKind = "enum"  // one of Options
	FieldMulti   FieldKind = "multi" // any of Options (an array of strings)
)

// Field is one question of a form.
type Field struct {
	Name        string // the property's name, the key of the answer
	Title       string // what to call it; Name when the schema gives none
	Description string
	Kind        FieldKind
	Required    bool
	Default     any      // the schema's default, typed (nil when none)
	Options     []string // enum values
	Labels      []string // the options' titles (same length as Options)
	Format      string   // email, uri, date, date-time
	Min, Max    *float64 // bounds of numbers
	MinLen      *int     // bounds of strings' lengths
	MaxLen      *int
}

// sensitiveWords are the words of a field that asks for a secret, in its
// name, title or description, once split into lowercase words.
var sensitiveWords = regexp.MustCompile(`\b(password|passwd|passphrase|passcode|pwd|pin|token|secret|api ?key|private key|secret key|access key|credentials?|otp|one time code)\b`)

// Sensitive reports whether the field asks for a password, a token, a key
// or another secret: by its format ("password"), or by a word of its name,
// title or description. The MCP spec forbids servers to ask for these
// through a form, so such a form is marked for the person.
func (f Field) Sensitive() bool {
	if strings.EqualFold(f.Format, "password") {
		return true
	}
	for _, s := range []string{f.Name, f.Title} {
		if sensitiveWords.MatchString(words(s)) {
			return true
		}
	}
	// A description is prose: "Enter your PIN" asks for one, "do not give
	// us your phone number, pin, or other sensitive info" does not.
	for _, sentence := range sentenceRE.Split(f.Description, -1) {
		w := words(sentence)
		if sensitiveWords.MatchString(w) && !negation.MatchString(w) {
			return true
		}
	}
	return false
}

var (
	sentenceRE = regexp.MustCompile(`[.!?;:()\n]+`)
	negation   = regexp.MustCompile(`\b(not|never|no|don't|do not|without)\b`)
)

// Sensitive lists the titles of the form's fields that ask for a secret
// (nil for a nil form).
func (f *Form) Sensitive() []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, fl := range f.Fields {
		if fl.Sensitive() {
			out = append(out, fl.Title)
		}
	}
	return out
}

// words splits identifiers and text into lowercase words: "apiKey",
// "api_key" and "API-Key" are all "api key".
func words(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.':
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteRune(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return b.String()
}

// Label is the option's title, or the option itself.
func (f Field) Label(i int) string {
	if i < len(f.Labels) && f.Labels[i] != "" {
		return f.Labels[i]
	}
	return f.Options[i]
}

type elicitProp struct {
	Type        any           `json:"type"`
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Default     any           `json:"default"`
	Enum        []any         `json:"enum"`
	EnumNames   []string      `json:"enumNames"`
	OneOf       []elicitConst `json:"oneOf"`
	AnyOf       []elicitConst `json:"anyOf"`
	Items       *elicitProp   `json:"items"`
	Format      string        `json:"format"`
	Minimum     *float64      `json:"minimum"`
	Maximum     *float64      `json:"maximum"`
	MinLength   *int          `json:"minLength"`
	MaxLength   *int          `json:"maxLength"`
}

type elicitConst struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// ParseForm reads a requested schema (any JSON-marshalable value) into a
// form. Fields come in the schema's order.
func ParseForm(schema any) (*Form, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the requested schema is not an object: %w", err)
	}
	names, err := objectKeys(s.Properties)
	if err != nil {
		return nil, err
	}
	var props map[string]elicitProp
	if len(s.Properties) > 0 {
		if err := json.Unmarshal(s.Properties, &props); err != nil {
			return nil, fmt.Errorf("the requested schema's properties: %w", err)
		}
	}
	f := &Form{}
	seen := map[string]bool{}
	for _, name := range names {
		// A key given twice is one field (with the last definition, as
		// JSON decoding keeps), where it first came.
		if seen[name] {
			continue
		}
		seen[name] = true
		p := props[name]
		fl := Field{
			Name: name, Title: p.Title, Description: p.Description, Required: slices.Contains(s.Required, name),
			Format: p.Format, Min: p.Minimum, Max: p.Maximum, MinLen: p.MinLength, MaxLen: p.MaxLength,
		}
		if fl.Title == "" {
			fl.Title = name
		}
		typ, _ := p.Type.(string)
		switch {
		case typ == "array":
			fl.Kind = FieldMulti
			if p.Items != nil {
				fl.Options, fl.Labels = options(p.Items.Enum, p.Items.EnumNames, append(p.Items.AnyOf, p.Items.OneOf...))
			}
		case len(p.Enum) > 0 || len(p.OneOf) > 0 || len(p.AnyOf) > 0:
			fl.Kind = FieldEnum
			fl.Options, fl.Labels = options(p.Enum, p.EnumNames, append(p.OneOf, p.AnyOf...))
		case typ == "number", typ == "integer", typ == "boolean", typ == "string":
			fl.Kind = FieldKind(typ)
		default:
			return nil, fmt.Errorf("field %q: unsupported type %v", name, p.Type)
		}
		if p.Default != nil {
			if v, err := fl.convert(p.Default); err == nil {
				fl.Default = v
			}
		}
		f.Fields = append(f.Fields, fl)
	}
	return f, nil
}

func options(enum []any, names []string, consts []elicitConst) (opts, labels []string) {
	for i, v := range enum {
		opts = append(opts, fmt.Sprint(v))
		l := ""
		if i < len(names) {
			l = names[i]
		}
		labels = append(labels, l)
	}
	for _, c := range consts {
		opts = append(opts, fmt.Sprint(c.Const))
		labels = append(labels, c.Title)
	}
	return opts, labels
}

// objectKeys lists a JSON object's keys in their order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("the requested schema's properties are not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Names lists the form's field names, in order (nil for a nil form).
func (f *Form) Names() []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, fl := range f.Fields {
		out = append(out, fl.Name)
	}
	return slices.Clip(out)
}

// Defaults are the answer a form starts with: each field's default.
func (f *Form) Defaults() map[string]any {
	out := map[string]any{}
	for _, fl := range f.Fields {
		if fl.Default != nil {
			out[fl.Name] = fl.Default
		}
	}
	return out
}

// Field returns the field named name, or nil.
func (f *Form) Field(name string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Name == name {
			return &f.Fields[i]
		}
	}
	return nil
}

// Parse reads what a person typed for field into its value: "" is no
// answer (nil); a boolean takes y/yes/true/1 and n/no/false/0; a multi
// field takes its options separated by commas.
func (fl Field) Parse(text string) (any, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	switch fl.Kind {
	case FieldBoolean:
		switch strings.ToLower(text) {
		case "y", "yes", "true", "1", "on":
			return true, nil
		case "n", "no", "false", "0", "off":
			return false, nil
		}
		return nil, errors.New("answer yes or no")
	case FieldMulti:
		var vals []any
		for _, part := range strings.Split(text, ",") {
			if part = strings.TrimSpace(part); part != "" {
				vals = append(vals, part)
			}
		}
		return fl.convert(vals)
	}
	return fl.convert(text)
}

// convert checks v against the field and returns it typed: a number from
// text or JSON, an option by its value or its title.
func (fl Field) convert(v any) (any, error) {
	switch fl.Kind {
	case FieldString:
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("not text")
		}
		n := len([]rune(s))
		if fl.MinLen != nil && n < *fl.MinLen {
			return nil, fmt.Errorf("at least %d characters", *fl.MinLen)
		}
		if fl.MaxLen != nil && n > *fl.MaxLen {
			return nil, fmt.Errorf("at most %d characters", *fl.MaxLen)
		}
		return s, nil
	case FieldNumber, FieldInteger:
		var x float64
		switch n := v.(type) {
		case float64:
			x = n
		case int:
			x = float64(n)
		case int64:
			x = float64(n)
		case float32:
			x = float64(n)
		case json.Number:
			f, err := n.Float64()
			if err != nil {
				return nil, err
			}
			x = f
		case string:
			// ParseFloat takes "NaN" and "Inf", and rounds "1e400" up to
			// infinity: none is a number JSON can carry.
			f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, errors.New("not a number")
			}
			x = f
		default:
			return nil, errors.New("not a number")
		}
		if fl.Kind == FieldInteger && x != math.Trunc(x) {
			return nil, errors.New("not a whole number")
		}
		if fl.Kind == FieldInteger && (x < math.MinInt64 || x >= math.MaxInt64) {
			// int64(x) would be some other number.
			return nil, errors.New("too large a number")
		}
		if fl.Min != nil && x < *fl.Min {
			return nil, fmt.Errorf("at least %v", *fl.Min)
		}
		if fl.Max != nil && x > *fl.Max {
			return nil, fmt.Errorf("at most %v", *fl.Max)
		}
		if fl.Kind == FieldInteger {
			return int64(x), nil
		}
		return x, nil
	case FieldBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, errors.New("not yes or no")
		}
		return b, nil
	case FieldEnum:
		s := fmt.Sprint(v)
		for i, o := range fl.Options {
			if s == o || strings.EqualFold(s, fl.Label(i)) {
				return o, nil
			}
		}
		return nil, fmt.Errorf("one of %s", strings.Join(fl.Options, ", "))
	case FieldMulti:
		list, ok := v.([]any)
		if !ok {
			return nil, errors.New("not a list")
		}
		out := []any{}
		for _, x := range list {
			s := fmt.Sprint(x)
			i := slices.IndexFunc(fl.Options, func(o string) bool { return o == s })
			if i < 0 {
				i = slices.IndexFunc(fl.Options, func(o string) bool { return strings.EqualFold(s, o) })
			}
			if i < 0 {
				for j := range fl.Options {
					if strings.EqualFold(s, fl.Label(j)) {
						i = j
					}
				}
			}
			if i < 0 {
				return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(fl.Options, ", "))
			}
			out = append(out, fl.Options[i])
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported field kind %q", fl.Kind)
}

// Check validates an answer: every required field present, every value of
// its field's type. It returns the answer with values typed.
func (f *Form) Check(content map[string]any) (map[string]any, error) {
	out := map[string]any{}
	for _, fl := range f.Fields {
		v, ok := content[fl.Name]
		if !ok || v == nil {
			if fl.Required {
				return nil, fmt.Errorf("%s is required", fl.Title)
			}
			continue
		}
		typed, err := fl.convert(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fl.Title, err)
		}
		out[fl.Name] = typed
	}
	return out, nil
}
