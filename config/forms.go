package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The window's forms are read here: the text a person typed becomes config
// values, or an error that names the field.

// ServerFromForm checks the connect form and makes a server of it.
func ServerFromForm(kind, target, alias, authEnv, transport string) (Server, string, error) {
	var srv Server
	target = strings.TrimSpace(target)
	if target == "" {
		return srv, "", errors.New("give a URL or a command")
	}
	if kind == "URL" {
		u, err := url.Parse(target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return srv, "", fmt.Errorf("%q is not an http or https URL", target)
		}
		srv.URL = target
		srv.AuthEnv = strings.TrimSpace(authEnv)
		if transport != "auto" {
			srv.Transport = transport
		}
	} else {
		words, err := SplitCommand(target)
		if err != nil {
			return srv, "", err
		}
		srv.Command, srv.Args = words[0], words[1:]
	}
	alias = strings.TrimSpace(alias)
	if alias == "" {
		alias = DeriveAlias(srv)
	}
	if err := CheckServer(alias, srv); err != nil {
		return srv, "", err
	}
	return srv, alias, nil
}

// SplitCommand splits a command line into words, with single and double
// quotes and backslash escapes as in a POSIX shell (no expansion: the
// command is not run by a shell).
func SplitCommand(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote in %q", quote, line)
	}
	if escaped {
		return nil, fmt.Errorf("a trailing backslash in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("give a URL or a command")
	}
	return words, nil
}

// FormatRules writes auto_approve rules for the settings box, a rule a
// line.
func FormatRules(rules map[string]bool) string {
	keys := make([]string, 0, len(rules))
	for k := range rules {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		if rules[k] {
			fmt.Fprintln(&b, k)
		} else {
			fmt.Fprintf(&b, "%s = false\n", k)
		}
	}
	return b.String()
}

// ParseRules reads the auto-approve box: a rule a line, "alias.tool" or
// "alias.*", optionally "= true" or "= false".
func ParseRules(text string) (map[string]any, error) {
	out := map[string]any{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, hasVal := strings.Cut(line, "=")
		key = strings.Trim(strings.TrimSpace(key), `"`)
		allow := true
		if hasVal {
			b, err := strconv.ParseBool(strings.TrimSpace(val))
			if err != nil {
				return nil, fmt.Errorf("line %d: %q: the value must be true or false", i+1, line)
			}
			allow = b
		}
		if err := ValidRule(key); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if key == "local.exec" && allow {
			return nil, fmt.Errorf("line %d: %s", i+1, ExecRuleProblem)
		}
		out[key] = allow
	}
	return out, nil
}

// SettingsForm is what the settings form holds, as typed.
type SettingsForm struct {
	BaseURL, Model, APIKeyEnv string
	// Provider is the wire format the service chosen speaks (model.provider:
	// openai or anthropic; "" is openai). It is written only where
	// base_url does not imply it, and with base_url whenever either
	// changes: an Anthropic service at a local address kept no provider
	// and was spoken to in OpenAI's format.
	Provider        string
	ContextBudget   string // tokens
	ApprovalTimeout string // a duration: 90s, 2m
	AutoApprove     string // ParseRules' text
	SystemPrompt    string // the person's instructions, any number of lines
	Temperature     string // 0 to 2; "": the model's default
	MaxOutputTokens string // "" or 0: the model's default
	UI              UI     // how the window looks
	// PriceIn and PriceOut are the price of Model in US dollars per
	// million tokens, input and output ("": unknown), written as its
	// entry in model.prices (see PriceEdits).
	PriceIn, PriceOut string
}

// PriceEdits reads a price per million tokens, input and output, typed for
// the model named: its entry in model.prices (an empty field removes its
// key), or an error naming the field. Every model keeps its own: a price
// typed for one is not charged for another chosen later.
func PriceEdits(model, in, out string) ([]Edit, error) {
	var vals [2]any
	for i, f := range []struct{ name, text string }{{"input", in}, {"output", out}} {
		t := strings.TrimSpace(f.text)
		if t == "" {
			continue
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%s price: %q is not a number of dollars per million tokens, 0 or more", f.name, f.text)
		}
		vals[i] = v
	}
	model = strings.TrimSpace(model)
	if model == "" {
		if vals[0] == nil && vals[1] == nil {
			return nil, nil
		}
		return nil, errors.New("input and output price: choose a model first: the price is that model's")
	}
	table := "model.prices." + quoteKey(model)
	return []Edit{{Table: table, Key: "input_per_mtok", Value: vals[0]}, {Table: table, Key: "output_per_mtok", Value: vals[1]}}, nil
}

// Edits reads the settings form into edits of the config file (an empty
// field removes its key) and the auto_approve table, or says which field
// is wrong.
func (f SettingsForm) Edits() ([]Edit, map[string]map[string]any, error) {
	budget, err := strconv.Atoi(strings.TrimSpace(f.ContextBudget))
	if err != nil || budget < 0 {
		return nil, nil, fmt.Errorf("context budget: %q is not a number of tokens", f.ContextBudget)
	}
	timeout, err := time.ParseDuration(strings.TrimSpace(f.ApprovalTimeout))
	if err != nil || timeout < 0 {
		return nil, nil, fmt.Errorf("approval timeout: %q is not a duration such as 90s or 2m", f.ApprovalTimeout)
	}
	rules, err := ParseRules(f.AutoApprove)
	if err != nil {
		return nil, nil, fmt.Errorf("auto-approve: %w", err)
	}
	temperature, err := ParseTemperature(f.Temperature)
	if err != nil {
		return nil, nil, err
	}
	var temp, maxOut any
	if temperature != nil {
		temp = *temperature
	}
	if t := strings.TrimSpace(f.MaxOutputTokens); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return nil, nil, fmt.Errorf("longest answer: %q is not a number of tokens", f.MaxOutputTokens)
		}
		if n > 0 {
			maxOut = n
		}
	}
	if err := f.UI.check(); err != nil {
		return nil, nil, err
	}
	orNil := func(s string) any {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
		return nil
	}
	provider := strings.TrimSpace(f.Provider)
	if provider == "" {
		provider = "openai"
	}
	if provider != "openai" && provider != "anthropic" {
		return nil, nil, fmt.Errorf("API format: %q is neither openai nor anthropic", f.Provider)
	}
	var prov any
	if provider != ImpliedProvider(f.BaseURL) {
		prov = provider
	}
	edits := []Edit{
		{Table: "model", Key: "provider", Value: prov},
		{Table: "model", Key: "base_url", Value: orNil(f.BaseURL)},
		{Table: "model", Key: "name", Value: orNil(f.Model)},
		{Table: "model", Key: "api_key_env", Value: orNil(f.APIKeyEnv)},
		{Table: "model", Key: "max_context_tokens", Value: budget},
		{Table: "model", Key: "max_output_tokens", Value: maxOut},
		{Table: "model", Key: "temperature", Value: temp},
		{Table: "model", Key: "system_prompt", Value: orNil(strings.ReplaceAll(f.SystemPrompt, "\r\n", "\n"))},
		{Table: "mcp", Key: "approval_timeout", Value: timeout},
	}
	edits = append(edits, f.UI.Edits()...)
	prices, err := PriceEdits(f.Model, f.PriceIn, f.PriceOut)
	if err != nil {
		return nil, nil, err
	}
	edits = append(edits, prices...)
	return edits, map[string]map[string]any{"mcp.auto_approve": rules}, nil
}

// EditsSince is Edits, keeping only what differs from the form as it was
// (was: the form as it opened): saving the settings writes what the person
// changed, and leaves the rest of the file, defaults included, as it is.
func (f SettingsForm) EditsSince(was SettingsForm) ([]Edit, map[string]map[string]any, error) {
	edits, tables, err := f.Edits()
	if err != nil {
		return nil, nil, err
	}
	before, beforeTables, err := was.Edits()
	if err != nil {
		// What was there does not read as a form (a hand-written value
		// out of range): everything is written, as before.
		return edits, tables, nil
	}
	old := map[string]any{}
	for _, e := range before {
		old[e.Table+"\x00"+e.Key] = e.Value
	}
	differs := func(e Edit) bool {
		v, ok := old[e.Table+"\x00"+e.Key]
		return !ok || !reflect.DeepEqual(v, e.Value)
	}
	// The provider and the address are one choice: where either changed,
	// both are written. The file may say provider = "anthropic" where
	// the address implies it, and a move to OpenAI's address, the form's
	// provider now implied by it, would else leave that line in place.
	service := false
	for _, e := range edits {
		if e.Table == "model" && (e.Key == "provider" || e.Key == "base_url") && differs(e) {
			service = true
		}
	}
	// A price is written when it was typed, not because the model
	// changed: the price shown was the model's as the settings opened,
	// and another model's own price is not to be overwritten with it.
	samePrice := f.PriceIn == was.PriceIn && f.PriceOut == was.PriceOut
	changed := edits[:0:0]
	for _, e := range edits {
		if strings.HasPrefix(e.Table, "model.prices.") && samePrice {
			continue
		}
		if differs(e) || service && e.Table == "model" && (e.Key == "provider" || e.Key == "base_url") {
			changed = append(changed, e)
		}
	}
	for name, t := range tables {
		if reflect.DeepEqual(t, beforeTables[name]) {
			delete(tables, name)
		}
	}
	return changed, tables, nil
}
