package terminal

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/config"
	"deckhand/tools"
)

// Resources and prompts in `deckhand chat`:
//
//	:attach [ALIAS:]URI   reads a resource now and attaches it to the next
//	                      message (text fenced and named with its URI,
//	                      images as image parts, under the files' limits);
//	                      when the server offers subscriptions, a change
//	                      before the message is sent is read again, and the
//	                      message carries the new contents
//	:resources [ALIAS]    lists resources and templates
//	:prompts [ALIAS]      lists prompts, as they are typed
//	/ALIAS.PROMPT A=V …   fills in a prompt and sends its messages (printed
//	                      first) as the next message: see conversation.PromptMessage

// Messages to the terminal actor, from the background work below.
type (
	// resourceAttached is a resource read for :attach (or read again after
	// an update).
	resourceAttached struct {
		alias, uri string
		ats        []conversation.Attachment
		err        error
		again      bool // a re-read after an update
	}
	// promptReady is a prompt filled in, to send.
	promptReady struct {
		label string
		text  string
		ats   []conversation.Attachment
		notes []string
		err   error
	}
)

// chatResource is a resource attached to the next message.
type chatResource struct {
	alias, uri string
	ats        []conversation.Attachment
	subscribed bool
}

// attachResource is :attach [ALIAS:]URI.
func (t *chat) attachResource(c actor.Context, arg string) {
	root, self, sys := c.ActorSystem().Root, c.Self(), t.sys
	t.commands++
	t.attaching++
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		list, err := sys.ServerStatuses(ctx, false)
		if err != nil {
			root.Send(self, &resourceAttached{uri: arg, err: err})
			return
		}
		alias, uri := servers.SplitResource(arg, list)
		read, err := ReadResource(ctx, sys, alias, uri)
		if err != nil {
			root.Send(self, &resourceAttached{uri: uri, err: err})
			return
		}
		ats, err := conversation.ResourceAttachments(read.URI, read.Contents)
		root.Send(self, &resourceAttached{alias: read.Alias, uri: read.URI, ats: ats, err: err})
	}()
}

// resourceEvent handles the messages of this file; it reports whether msg
// was one.
func (t *chat) resourceEvent(c actor.Context, msg any) bool {
	switch m := msg.(type) {
	case *resourceAttached:
		t.attached(c, m)
		if m.again {
			return true
		}
		t.commands--
		t.resolved(c)
		if !t.maybeQuit() {
			t.prompt()
		}
	case *servers.ResourceUpdated:
		i := slices.IndexFunc(t.resources, func(r *chatResource) bool { return r.alias == m.Alias && r.uri == m.URI })
		if i < 0 {
			return true
		}
		root, self, sys := c.ActorSystem().Root, c.Self(), t.sys
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			read, err := sys.ReadResource(ctx, m.Alias, m.URI)
			var ats []conversation.Attachment
			if err == nil {
				ats, err = conversation.ResourceAttachments(read.URI, read.Contents)
			}
			root.Send(self, &resourceAttached{alias: m.Alias, uri: m.URI, ats: ats, err: err, again: true})
		}()
	case *promptReady:
		t.promptReady(c, m)
		t.resolved(c)
		t.maybeQuit()
	default:
		return false
	}
	return true
}

func (t *chat) attached(c actor.Context, m *resourceAttached) {
	name := conversation.ResourceName(m.uri)
	i := slices.IndexFunc(t.resources, func(r *chatResource) bool { return r.alias == m.alias && r.uri == m.uri })
	if m.again {
		if i < 0 {
			return // sent meanwhile
		}
		if m.err != nil {
			t.note(fmt.Sprintf("(%s changed, and reading it again failed: %v; the next message carries what was read before)", name, m.err))
			return
		}
		t.resources[i].ats = m.ats
		t.note(fmt.Sprintf("(%s changed: the next message carries the new contents)", name))
		return
	}
	if len(m.ats) == 0 {
		t.note(fmt.Sprintf("(not attached: %v)", m.err))
		return
	}
	if m.err != nil {
		t.note(fmt.Sprintf("(part of %s was left out: %v)", name, m.err))
	}
	if t.attachedCount()+len(m.ats) > conversation.MaxAttachments {
		t.note(fmt.Sprintf("(not attached: a message can have at most %d attachments)", conversation.MaxAttachments))
		return
	}
	if t.attachedText()+textBytes(m.ats) > conversation.MaxTextAttachments {
		t.note(fmt.Sprintf("(not attached: the text attachments of one message can be at most %s together)", tools.Size(conversation.MaxTextAttachments)))
		return
	}
	r := &chatResource{alias: m.alias, uri: m.uri, ats: m.ats}
	if i >= 0 {
		t.resources[i] = r
	} else {
		t.resources = append(t.resources, r)
	}
	size := 0
	for _, at := range m.ats {
		size += len(at.Data)
	}
	// Watch it until the message is sent, where the server offers it.
	self, sys, alias, uri := c.Self(), t.sys, m.alias, m.uri
	r.subscribed = true
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sys.Subscribe(ctx, alias, uri, self, false) // refused where not offered: it stays as read
	}()
	t.note(fmt.Sprintf("(attached %s from %s, %s: it goes with your next message)", name, m.alias, tools.Size(size)))
}

func textBytes(ats []conversation.Attachment) int {
	n := 0
	for _, at := range ats {
		if !at.Image() {
			n += len(at.Data)
		}
	}
	return n
}

func (t *chat) attachedCount() int {
	n := 0
	for _, r := range t.resources {
		n += len(r.ats)
	}
	return n
}

func (t *chat) attachedText() int {
	n := 0
	for _, r := range t.resources {
		n += textBytes(r.ats)
	}
	return n
}

// takeAttached returns the attachments for the message being sent, and
// stops watching their resources.
func (t *chat) takeAttached(c actor.Context) []conversation.Attachment {
	var out []conversation.Attachment
	for _, r := range t.resources {
		out = append(out, r.ats...)
		if r.subscribed {
			self, sys, alias, uri := c.Self(), t.sys, r.alias, r.uri
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				sys.Subscribe(ctx, alias, uri, self, true)
			}()
		}
	}
	t.resources = nil
	return out
}

// promptCommand is /ALIAS.PROMPT ARG=VALUE …: the prompt is asked for in
// the background and sent when it comes.
// resolved is an :attach or a prompt read: when none is left, the lines
// typed meanwhile go on, in order (one may attach or ask a prompt again).
func (t *chat) resolved(c actor.Context) {
	if t.attaching--; t.attaching == 0 {
		for len(t.held) > 0 && t.attaching == 0 {
			line := t.held[0]
			t.held = t.held[1:]
			t.input(c, line)
		}
	}
}

func (t *chat) promptCommand(c actor.Context, line string) {
	alias, name, args, err := parsePromptLine(line)
	if err != nil {
		t.promptFailed(err)
		return
	}
	t.sent++      // a message is on its way: the prompt waits for it
	t.attaching++ // lines typed meanwhile wait, to be sent after it
	root, self, sys := c.ActorSystem().Root, c.Self(), t.sys
	label := "/" + alias + "." + name
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		fail := func(err error) { root.Send(self, &promptReady{label: label, err: err}) }
		list, err := sys.Prompts(ctx, alias)
		if err != nil {
			fail(err)
			return
		}
		i := slices.IndexFunc(list.Prompts, func(p servers.Prompt) bool { return p.Name == name })
		if i < 0 {
			fail(fmt.Errorf("server %s has no prompt %q: :prompts %s lists them", alias, clean.Line(name), alias))
			return
		}
		if missing := missingArgs(list.Prompts[i], args); len(missing) > 0 {
			fail(fmt.Errorf("%s needs %s", label, strings.Join(missing, ", ")))
			return
		}
		res, err := sys.GetPrompt(ctx, alias, name, args)
		if err != nil {
			fail(err)
			return
		}
		text, ats, notes := conversation.PromptMessage(res)
		root.Send(self, &promptReady{label: label, text: text, ats: ats, notes: notes})
	}()
}

func (t *chat) promptFailed(err error) {
	t.note("(" + err.Error() + ")")
	if t.oneShot {
		t.quit(err)
		return
	}
	t.prompt()
}

// promptReady sends a prompt's message, printed first so that the person
// sees what they sent.
func (t *chat) promptReady(c actor.Context, m *promptReady) {
	if m.err != nil {
		t.sent--
		t.promptFailed(m.err)
		t.maybeQuit()
		return
	}
	for _, n := range m.notes {
		t.note("(" + n + ")")
	}
	ats := append(t.takeAttached(c), m.ats...)
	if strings.TrimSpace(m.text) == "" && len(ats) == 0 {
		t.sent--
		t.promptFailed(fmt.Errorf("%s gave nothing to send", m.label))
		return
	}
	shown := m.text
	for _, at := range m.ats {
		shown += "\n📎 " + at.Name
	}
	t.note(fmt.Sprintf("(%s sends:)\n%s", m.label, Indent(strings.TrimSpace(shown), "  ")))
	c.Send(t.conv, &conversation.UserMessage{Text: m.text, Attachments: ats})
}

// listResources is :resources [ALIAS].
func (t *chat) listResources(ctx context.Context, args []string) string {
	return readyListing(ctx, t.sys, args, ResourcesOf, PrintResources)
}

// listPrompts is :prompts [ALIAS].
func (t *chat) listPrompts(ctx context.Context, args []string) string {
	return readyListing(ctx, t.sys, args, PromptsOf, PrintPrompts)
}

// isPromptLine reports whether a typed line is a prompt (/alias.prompt …)
// rather than a message that starts with a path.
func isPromptLine(text string) bool {
	head := strings.Fields(text)[0]
	if !strings.HasPrefix(head, "/") || strings.Count(head, "/") != 1 {
		return false
	}
	alias, name, ok := strings.Cut(head[1:], ".")
	return ok && name != "" && config.ValidAlias(alias) == nil
}
