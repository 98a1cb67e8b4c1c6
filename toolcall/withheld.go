package toolcall

import (
	"fmt"
	"regexp"
	"strings"

	"deckhand/clean"
	"deckhand/config"
	"deckhand/tools"
)

// Held is why Deckhand keeps a tool it knows from the model.
type Held int

const (
	// Quarantined: its definition has a high-risk flag the person has not
	// reviewed (servers.Pins.Quarantined).
	Quarantined Held = iota + 1
	// Unchecked: the person unchecked it on its server's Tools page
	// (disabled_tools in the config).
	Unchecked
	// ServerOff: its server is turned off (disabled in the config), so
	// none of its tools is listed.
	ServerOff
	// BadName: its name breaks the MCP rules for tool names, so the
	// catalog left it out (tools.Rejected).
	BadName
	// NotLoaded: its server left it out itself and said why (Deckhand's
	// built-in tools: a mistake in its definition, a program not
	// installed, a setting; tools.Rejected.NotLoaded).
	NotLoaded
)

// Withheld is a call of a tool Deckhand knows but keeps from the model,
// and why. Refusal is what the model is told, Why what the person is
// shown; both are Deckhand's words about the tool's name and server only,
// never the server's description or other text of the tool (a quarantined
// definition is untrusted), with NotLoaded's Reason, which Deckhand's
// built-in server writes, the one exception.
type Withheld struct {
	Held   Held
	Server string // the server's alias
	Tool   string // the server's name for the tool; "" for BadName (the name is what breaks the rules)
	Reason string // NotLoaded's: the server's reason, one line
	// Called is NotLoaded's: the name the model called the tool by, which
	// its refusal says as it was (alias__tool or alias.tool).
	Called string
}

// Display is the tool's name for people (alias.tool), or the server's
// alias alone when the tool's name is not said.
func (w Withheld) Display() string {
	if w.Tool == "" {
		return w.Server
	}
	return w.Server + "." + w.Tool
}

// withheldText is what the model is told (model) and the person is shown
// (person) of each kind of withheld tool: %[1]s is the tool's display
// name, %[2]s the server's alias, %[3]s the reason, %[4]s the name as
// called. WithheldIn reads the model's text back, so each begins
// differently and says its values where they cannot run into the words
// around them (%[3]s last).
var withheldText = map[Held]struct{ model, person string }{
	Quarantined: {
		model:  "Refused (not run): %[1]s is quarantined: its definition has not been reviewed by the person, so it is not offered to you. Do not retry it; tell the person they can review it in Servers ▸ %[2]s ▸ Tools (or with `deckhand mcp review %[1]s`) if it is needed.",
		person: "%[1]s is quarantined (its definition has high-risk flags you have not reviewed); review it in Servers ▸ %[2]s ▸ Tools to offer it to the model",
	},
	Unchecked: {
		model:  "Refused (not run): %[1]s is turned off by the person (unchecked in Servers ▸ %[2]s ▸ Tools), so it is not offered to you. Do not retry it; tell the person they can check it there if it is needed.",
		person: "%[1]s is unchecked in Servers ▸ %[2]s ▸ Tools; check it there to offer it to the model",
	},
	ServerOff: {
		model:  "Refused (not run): the server %[2]s is turned off by the person, so none of its tools is offered to you. Do not retry it; tell the person they can turn %[2]s on in Servers if it is needed.",
		person: "the server %[2]s is turned off; turn it on in Servers to offer its tools to the model",
	},
	BadName: {
		model:  "Refused (not run): the server %[2]s has a tool of that name, but its name breaks the MCP rules for tool names (1 to 128 letters, digits, _, - or .), so it is left out and not offered to you. Do not retry it.",
		person: "the server %[2]s's tool of this name is left out, as its name breaks the MCP rules for tool names (Servers ▸ %[2]s says how)",
	},
	NotLoaded: {
		model:  "Error: %[4]s is not loaded: %[3]s", // as before there was Withheld
		person: "%[1]s is not loaded: %[3]s",
	},
}

// Refusal is what the model is told of the call.
func (w Withheld) Refusal() string {
	return fmt.Sprintf(withheldText[w.Held].model, w.Display(), w.Server, w.Reason, w.Called)
}

// Why is what the person is shown of the call, after "not run: ".
func (w Withheld) Why() string {
	return fmt.Sprintf(withheldText[w.Held].person, w.Display(), w.Server, w.Reason, w.Called)
}

// withheldRead reads each kind's model text back: the verbs of its format
// become groups (a name or an alias holds no space; the reason, last, is
// the rest of the line).
var withheldRead = func() map[Held]*regexp.Regexp {
	out := map[Held]*regexp.Regexp{}
	verbs := strings.NewReplacer(
		regexp.QuoteMeta("%[1]s"), `(?P<tool>\S+)`,
		regexp.QuoteMeta("%[2]s"), `(?P<server>[^\s.]+)`,
		regexp.QuoteMeta("%[3]s"), `(?P<reason>.*)`,
		regexp.QuoteMeta("%[4]s"), `(?P<called>\S+)`)
	for held, text := range withheldText {
		out[held] = regexp.MustCompile("^" + verbs.Replace(regexp.QuoteMeta(text.model)) + "$")
	}
	return out
}()

// WithheldIn reads a refusal made by Withheld.Refusal back from what the
// model was told (a call's output, live or from the log): how a tool card,
// or the export, says why in the person's words.
func WithheldIn(output string) (Withheld, bool) {
	for held, re := range withheldRead {
		m := re.FindStringSubmatch(output)
		if m == nil {
			continue
		}
		got, agree := map[string]string{}, true
		for i, name := range re.SubexpNames() {
			if v, seen := got[name]; seen && v != m[i] {
				agree = false // a name said twice, differently
			}
			got[name] = m[i]
		}
		w := Withheld{Held: held, Server: got["server"], Reason: got["reason"], Called: got["called"]}
		if w.Called != "" {
			server, tool, split := tools.SplitName(w.Called)
			w.Server, w.Tool = server, tool
			agree = agree && split && server != "" && tool != ""
		}
		if display, ok := got["tool"]; ok {
			server, tool, split := strings.Cut(display, ".")
			if _, said := got["server"]; !said {
				w.Server = server
			}
			w.Tool = tool
			agree = agree && split && server == w.Server && tool != ""
		}
		if !agree {
			return Withheld{}, false
		}
		return w, true
	}
	return Withheld{}, false
}

// Off says why the model may not call name (alias__tool or alias.tool) by
// the person's config alone: its server is turned off. Such a server is
// not started, so no catalog knows its tools; ok is false for any other.
func Off(servers map[string]config.Server, name string) (Withheld, bool) {
	alias, _, ok := tools.SplitName(name)
	if srv, configured := servers[alias]; !ok || !configured || !srv.Disabled {
		return Withheld{}, false
	}
	return Withheld{Held: ServerOff, Server: alias}, true
}

// LeftOut says why the catalog has no tool name though its server listed
// one of that name: the server left it out itself, saying why (NotLoaded),
// or the catalog did, for its name (BadName). The model is told, and can
// tell the person, rather than hunt for another name.
func LeftOut(cat *tools.Catalog, name string) (Withheld, bool) {
	r, ok := cat.LeftOut(name)
	if !ok {
		return Withheld{}, false
	}
	if !r.NotLoaded {
		return Withheld{Held: BadName, Server: r.Server}, true
	}
	_, tool, _ := tools.SplitName(name)
	if clean.Name(tool) != nil {
		// The model's, as it sent it, shown safely (the card says it
		// generically: WithheldIn reads no name with a space).
		tool, name = clean.Quote(tool), clean.Quote(name)
	}
	return Withheld{Held: NotLoaded, Server: r.Server, Tool: tool, Reason: r.Reason, Called: name}, true
}
