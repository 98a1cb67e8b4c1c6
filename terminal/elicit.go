package terminal

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/transport/mcp"
)

// elicitState is the server question being asked in the terminal (MCP
// elicitation), one at a time like approvals: a form's fields one by one,
// then whether to send them; or whether to open a page.
type elicitState struct {
	queue   []*servers.ElicitationRequested
	field   int            // the form's field being asked; len(Fields): the confirmation
	content map[string]any // answers so far
}

func (t *chat) elicitEvent(c actor.Context, msg any) {
	switch m := msg.(type) {
	case *servers.ElicitationRequested:
		if !t.interactive {
			c.Send(t.sys.Servers, &servers.ElicitationAnswer{ID: m.ID, Action: servers.ElicitDecline})
			t.note(fmt.Sprintf("(%s asked a question; declined: no terminal to ask it)", m.Server))
			return
		}
		t.elicit.queue = append(t.elicit.queue, m)
		if len(t.elicit.queue) == 1 {
			t.askElicitation()
		}
	case *servers.ElicitationClosed:
		i := slices.IndexFunc(t.elicit.queue, func(r *servers.ElicitationRequested) bool { return r.ID == m.ID })
		if i < 0 {
			return
		}
		t.elicit.queue = slices.Delete(t.elicit.queue, i, i+1)
		if !m.Reason.IsAnswered() {
			t.note(fmt.Sprintf("(%s's question closed: %s)", m.Server, m.Reason))
		}
		if i == 0 && len(t.elicit.queue) > 0 {
			t.askElicitation()
		} else if i == 0 && !t.running {
			t.prompt()
		}
	}
}

// askElicitation shows the first question of the queue.
func (t *chat) askElicitation() {
	m := t.elicit.queue[0]
	t.elicit.field, t.elicit.content = 0, map[string]any{}
	t.endLine()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", t.paint(bold, fmt.Sprintf("%s asks:", m.Server)))
	if secret := m.Form.Sensitive(); m.Mode != "url" && len(secret) > 0 {
		// Before anything the server says: the MCP spec forbids asking for
		// these through a form.
		for i, s := range secret {
			secret[i] = strconv.Quote(clean.Line(s))
		}
		fmt.Fprintf(&b, "%s\n", t.paint(red, fmt.Sprintf("  Warning: this form asks for a password, token or key (%s), which the MCP specification forbids servers to ask through a form. Type one only if you are sure where it goes (:decline otherwise).", strings.Join(secret, ", "))))
	}
	if m.Message != "" {
		fmt.Fprintf(&b, "%s\n", Indent(clean.Text(m.Message), "  "))
	}
	left := time.Until(m.Deadline).Round(time.Second)
	if m.Mode == "url" {
		fmt.Fprintf(&b, "  It asks you to open this page (on %s):\n    %s\n", clean.Line(m.Host), clean.Line(m.URL))
		fmt.Fprintf(&b, "Open it in your browser? [y]es / [N]o / [c]ancel / [s]top asking (%v left): ", left)
		fmt.Fprint(t.info, b.String())
		return
	}
	fmt.Fprintf(&b, "  (type :decline or :cancel to any question, :stop to refuse every question of %s for this session; no answer within %v declines)\n", m.Server, left)
	fmt.Fprint(t.info, b.String())
	t.askField()
}

// askField asks the current field, or whether to send the answers.
func (t *chat) askField() {
	m := t.elicit.queue[0]
	if t.elicit.field >= len(m.Form.Fields) {
		var b strings.Builder
		for _, fl := range m.Form.Fields {
			if v, ok := t.elicit.content[fl.Name]; ok {
				if fl.Sensitive() {
					v = "(not shown)" // a secret stays off the screen
				}
				fmt.Fprintf(&b, "  %s: %v\n", clean.Line(fl.Title), v)
			}
		}
		fmt.Fprintf(&b, "Send this to %s? [y]es / [n]o (decline) / [c]ancel: ", m.Server)
		fmt.Fprint(t.info, b.String())
		return
	}
	fl := m.Form.Fields[t.elicit.field]
	var hint []string
	switch fl.Kind {
	case mcp.FieldEnum:
		opts := make([]string, len(fl.Options))
		for i := range fl.Options {
			opts[i] = fl.Label(i)
		}
		hint = append(hint, "one of: "+strings.Join(opts, ", "))
	case mcp.FieldMulti:
		hint = append(hint, "any of, separated by commas: "+strings.Join(fl.Options, ", "))
	case mcp.FieldBoolean:
		hint = append(hint, "yes or no")
	default:
		hint = append(hint, string(fl.Kind))
	}
	if fl.Required {
		hint = append(hint, "required")
	}
	if fl.Default != nil {
		hint = append(hint, fmt.Sprintf("Enter for %v", fl.Default))
	}
	line := "  " + clean.Line(fl.Title)
	if fl.Description != "" {
		line += " — " + clean.Line(Shorten(fl.Description, 120))
	}
	fmt.Fprintf(t.info, "%s (%s): ", line, strings.Join(hint, "; "))
}

// elicitInput takes a typed line for the question being asked; it reports
// whether there was one.
func (t *chat) elicitInput(c actor.Context, text string) bool {
	if len(t.elicit.queue) == 0 {
		return false
	}
	m := t.elicit.queue[0]
	text = strings.TrimSpace(text)
	answer := func(action string, content map[string]any) {
		c.Send(t.sys.Servers, &servers.ElicitationAnswer{ID: m.ID, Action: action, Content: content})
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  → "+action))
	}
	stop := strings.ToLower(text) == ":stop" || (m.Mode == "url" && strings.ToLower(text) == "s")
	if stop {
		c.Send(t.sys.Servers, &servers.ElicitationAnswer{ID: m.ID, Action: servers.ElicitDecline, Stop: true})
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("  → declined; %s's questions are refused for the rest of this session", m.Server)))
		return true
	}
	switch strings.ToLower(text) {
	case ":decline":
		answer(servers.ElicitDecline, nil)
		return true
	case ":cancel":
		answer(servers.ElicitCancel, nil)
		return true
	}
	if m.Mode == "url" {
		switch strings.ToLower(text) {
		case "y", "yes":
			go servers.OpenBrowser(context.Background(), m.URL) // not in Receive: it starts a process
			answer(servers.ElicitAccept, nil)
		case "c", "cancel":
			answer(servers.ElicitCancel, nil)
		default:
			answer(servers.ElicitDecline, nil)
		}
		return true
	}
	if t.elicit.field >= len(m.Form.Fields) {
		switch strings.ToLower(text) {
		case "y", "yes":
			answer(servers.ElicitAccept, t.elicit.content)
		case "c", "cancel":
			answer(servers.ElicitCancel, nil)
		default:
			answer(servers.ElicitDecline, nil)
		}
		return true
	}
	fl := m.Form.Fields[t.elicit.field]
	v, err := fl.Parse(text)
	switch {
	case err != nil:
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, "  ! "+err.Error()))
	case v == nil && fl.Default != nil:
		t.elicit.content[fl.Name] = fl.Default
		t.elicit.field++
	case v == nil && fl.Required:
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, "  ! an answer is required (or :decline)"))
	default:
		if v != nil {
			t.elicit.content[fl.Name] = v
		}
		t.elicit.field++
	}
	t.askField()
	return true
}
