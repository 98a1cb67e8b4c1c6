package gui

import (
	"context"
	"fmt"
	"slices"
	"time"

	"deckhand/actors/conversation"
	"deckhand/tools"
)

// Resources attached to the next message, beside files. A resource chip
// shows at once and is read in the background (through the server's actor);
// its contents are judged like a file's (conversation.ResourceAttachments: text
// fenced and named with its URI, images as image parts, the same limits).
//
// Updates: while a resource waits in the message box, Deckhand subscribes
// to it (where its server offers subscriptions); when the server says it
// changed, it is read again and the chip says "updated": the message then
// carries the new contents. Once the message is sent (or the chip removed)
// the subscription ends; the transcript keeps what was sent.

// resourceRef is a resource (or a prompt's parts) in the message box.
type resourceRef struct {
	alias, uri string
	parts      []conversation.Attachment // once read
	read       bool
	watched    bool // subscribed: tell the server when it goes
	updates    int  // times read again after a change
	rereading  bool // a read after a change is under way
	again      bool // another change came meanwhile
}

func (r *resourceRef) chipText(name string) string {
	if !r.read {
		return name + "  ·  reading…"
	}
	size := 0
	for _, at := range r.parts {
		size += len(at.Data)
	}
	text := name + "  ·  " + tools.Size(size)
	if len(r.parts) > 1 {
		text += fmt.Sprintf(" in %d parts", len(r.parts))
	}
	if r.updates > 0 {
		text += "  ·  updated"
	}
	return text
}

// textSize is the size of the text among parts.
func textSize(parts []conversation.Attachment) int {
	n := 0
	for _, at := range parts {
		if !at.Image() {
			n += len(at.Data)
		}
	}
	return n
}

// attachResource attaches a server's resource to the next message.
func (p *composer) attachResource(alias, uri string) {
	if i := slices.IndexFunc(p.files, func(f *attachedFile) bool {
		return f.res != nil && f.res.alias == alias && f.res.uri == uri
	}); i >= 0 {
		return // attached already (and kept up to date)
	}
	if len(p.files) >= maxAttachments {
		p.u.showError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	f := &attachedFile{name: conversation.ResourceName(uri), res: &resourceRef{alias: alias, uri: uri}}
	p.files = append(p.files, f)
	p.refreshChips()
	p.readResource(f)
}

// attachParts attaches what a prompt gave (already read): one chip.
func (p *composer) attachParts(name string, parts []conversation.Attachment) {
	if len(parts) == 0 {
		return
	}
	if len(p.files) >= maxAttachments {
		p.u.showError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	if p.textBytes()+textSize(parts) > maxTextTotal {
		p.u.showError(fmt.Sprintf("%s does not fit: the text attachments of one message can be at most %s together", name, tools.Size(maxTextTotal)))
		return
	}
	p.files = append(p.files, &attachedFile{name: name, res: &resourceRef{parts: parts, read: true}})
	p.refreshChips()
}

// readResource reads a resource chip's contents in the background.
func (p *composer) readResource(f *attachedFile) {
	sys := p.u.d.System
	if sys == nil {
		return
	}
	alias, uri := f.res.alias, f.res.uri
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		read, err := sys.ReadResource(ctx, alias, uri)
		var parts []conversation.Attachment
		if err == nil {
			parts, err = conversation.ResourceAttachments(read.URI, read.Contents)
		}
		p.u.post(func() { p.resourceRead(f, parts, err) })
	}()
}

// resourceRead is a resource read (or read again) in the background.
func (p *composer) resourceRead(f *attachedFile, parts []conversation.Attachment, err error) {
	if !slices.Contains(p.files, f) {
		return // removed or sent meanwhile
	}
	r := f.res
	first := !r.read
	if first {
		if len(parts) == 0 {
			p.remove(f)
			p.u.showError(fmt.Sprintf("%s cannot be attached: %v", f.name, err))
			return
		}
		others := p.textBytes() - textSize(r.parts)
		if others+textSize(parts) > maxTextTotal {
			p.remove(f)
			p.u.showError(fmt.Sprintf("%s does not fit: the text attachments of one message can be at most %s together", f.name, tools.Size(maxTextTotal)))
			return
		}
		r.parts, r.read = parts, true
		if err != nil {
			p.u.showError(fmt.Sprintf("Part of %s was left out: %v", f.name, err))
		}
		p.watch(f)
		p.refreshChips()
		return
	}
	r.rereading = false
	if len(parts) > 0 && p.textBytes()-textSize(r.parts)+textSize(parts) <= maxTextTotal {
		r.parts = parts
		r.updates++
	} else {
		p.u.log.Warn("a resource changed and could not be read again: the message keeps what was read before", "uri", r.uri, "err", err)
	}
	if r.again {
		r.again = false
		p.reread(f)
	}
	p.refreshChips()
}

// watch subscribes to a resource chip's changes, where its server offers
// it; the bridge hears of them (ResourceUpdated, resources_bridge.go).
func (p *composer) watch(f *attachedFile) {
	sys, to := p.u.d.System, p.u.bridge
	if sys == nil || to == nil || f.res.alias == "" {
		return
	}
	f.res.watched = true
	alias, uri, log := f.res.alias, f.res.uri, p.u.log
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := sys.Subscribe(ctx, alias, uri, to, false); err != nil {
			log.Debug("not watching an attached resource", "uri", uri, "err", err)
		}
	}()
}

// unwatch ends a chip's subscription.
func (p *composer) unwatch(f *attachedFile) {
	if f.res == nil || !f.res.watched {
		return
	}
	f.res.watched = false
	sys, to := p.u.d.System, p.u.bridge
	alias, uri := f.res.alias, f.res.uri
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sys.Subscribe(ctx, alias, uri, to, true)
	}()
}

// resourceUpdated is a server saying an attached resource changed: it is
// read again.
func (p *composer) resourceUpdated(alias, uri string) {
	for _, f := range p.files {
		if f.res != nil && f.res.watched && f.res.alias == alias && f.res.uri == uri {
			p.reread(f)
		}
	}
}

func (p *composer) reread(f *attachedFile) {
	if f.res.rereading {
		f.res.again = true
		return
	}
	f.res.rereading = true
	p.readResource(f)
}

// resourceChips are the resource chips, for tests.
func (p *composer) resourceChips() []*resourceRef {
	var out []*resourceRef
	for _, f := range p.files {
		if f.res != nil {
			out = append(out, f.res)
		}
	}
	return out
}
