package composer

import (
	"context"
	"fmt"
	"slices"
	"time"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/gui/widgets"
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
	alias, URI string
	parts      []conversation.Attachment // once read
	Read       bool
	Watched    bool // subscribed: tell the server when it goes
	Updates    int  // times read again after a change
	rereading  bool // a read after a change is under way
	again      bool // another change came meanwhile
}

func (r *resourceRef) chipText(name string) string {
	if !r.Read {
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
	if r.Updates > 0 {
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

// AttachResource attaches a server's resource to the next message.
func (p *Composer) AttachResource(alias, uri string) {
	if i := slices.IndexFunc(p.Files, func(f *attachedFile) bool {
		return f.res != nil && f.res.alias == alias && f.res.URI == uri
	}); i >= 0 {
		return // attached already (and kept up to date)
	}
	if len(p.Files) >= maxAttachments {
		p.host.ShowError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	f := &attachedFile{name: conversation.ResourceName(uri), res: &resourceRef{alias: alias, URI: uri}}
	p.Files = append(p.Files, f)
	p.refreshChips()
	p.readResource(f)
}

// attachParts attaches what a prompt gave (already read): one chip.
func (p *Composer) attachParts(name string, parts []conversation.Attachment) {
	if len(parts) == 0 {
		return
	}
	if len(p.Files) >= maxAttachments {
		p.host.ShowError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	if p.textBytes()+textSize(parts) > maxTextTotal {
		p.host.ShowError(fmt.Sprintf("%s does not fit: the text attachments of one message can be at most %s together", name, tools.Size(maxTextTotal)))
		return
	}
	p.Files = append(p.Files, &attachedFile{name: name, res: &resourceRef{parts: parts, Read: true}})
	p.refreshChips()
}

// readResource reads a resource chip's contents in the background.
// The first time, its name comes from the server's list of resources.
func (p *Composer) readResource(f *attachedFile) {
	sys := p.host
	alias, uri, first := f.res.alias, f.res.URI, !f.res.Read
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		name := ""
		if first {
			name = resourceName(ctx, sys, alias, uri)
		}
		read, err := sys.ReadResource(ctx, alias, uri)
		var parts []conversation.Attachment
		if err == nil {
			parts, err = conversation.ResourceAttachments(read.URI, read.Contents)
		}
		p.host.Post(func() {
			if name != "" {
				f.name = name
			}
			p.resourceRead(f, parts, err)
		})
	}()
}

// resourceName is the name (or title) the server lists resource uri of
// alias under, cleaned and cut; "" when it lists none. A chip showed
// "demo://resource/static/do…" for architecture.md.
func resourceName(ctx context.Context, sys Host, alias, uri string) string {
	l, err := sys.Resources(ctx, alias)
	if err != nil || l == nil {
		return ""
	}
	for _, r := range l.Resources {
		if r.URI == uri {
			return widgets.Shorten(clean.Line(servers.Label(r.Name, r.Title)), 80)
		}
	}
	return ""
}

// resourceRead is a resource read (or read again) in the background.
func (p *Composer) resourceRead(f *attachedFile, parts []conversation.Attachment, err error) {
	if !slices.Contains(p.Files, f) {
		return // removed or sent meanwhile
	}
	r := f.res
	first := !r.Read
	if first {
		if len(parts) == 0 {
			p.remove(f)
			p.host.ShowError(fmt.Sprintf("%s cannot be attached: %v", f.name, err))
			return
		}
		others := p.textBytes() - textSize(r.parts)
		if others+textSize(parts) > maxTextTotal {
			p.remove(f)
			p.host.ShowError(fmt.Sprintf("%s does not fit: the text attachments of one message can be at most %s together", f.name, tools.Size(maxTextTotal)))
			return
		}
		r.parts, r.Read = parts, true
		if err != nil {
			p.host.ShowError(fmt.Sprintf("Part of %s was left out: %v", f.name, err))
		}
		p.watch(f)
		p.refreshChips()
		return
	}
	r.rereading = false
	if len(parts) > 0 && p.textBytes()-textSize(r.parts)+textSize(parts) <= maxTextTotal {
		r.parts = parts
		r.Updates++
	} else {
		p.log.Warn("a resource changed and could not be read again: the message keeps what was read before", "uri", r.URI, "err", err)
	}
	if r.again {
		r.again = false
		p.reread(f)
	}
	p.refreshChips()
}

// watch subscribes to a resource chip's changes, where its server offers
// it; the bridge hears of them, and the window hands them on
// (ResourceUpdated).
func (p *Composer) watch(f *attachedFile) {
	if f.res.alias == "" {
		return
	}
	f.res.Watched = true
	sys, alias, uri, log := p.host, f.res.alias, f.res.URI, p.log
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := sys.Subscribe(ctx, alias, uri, false); err != nil {
			log.Debug("not watching an attached resource", "uri", uri, "err", err)
		}
	}()
}

// unwatch ends a chip's subscription.
func (p *Composer) unwatch(f *attachedFile) {
	if f.res == nil || !f.res.Watched {
		return
	}
	f.res.Watched = false
	sys, alias, uri := p.host, f.res.alias, f.res.URI
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sys.Subscribe(ctx, alias, uri, true)
	}()
}

// ResourceUpdated is a server saying an attached resource changed: it is
// read again.
func (p *Composer) ResourceUpdated(alias, uri string) {
	for _, f := range p.Files {
		if f.res != nil && f.res.Watched && f.res.alias == alias && f.res.URI == uri {
			p.reread(f)
		}
	}
}

func (p *Composer) reread(f *attachedFile) {
	if f.res.rereading {
		f.res.again = true
		return
	}
	f.res.rereading = true
	p.readResource(f)
}

// ResourceChips are the resource chips, for tests.
func (p *Composer) ResourceChips() []*resourceRef {
	var out []*resourceRef
	for _, f := range p.Files {
		if f.res != nil {
			out = append(out, f.res)
		}
	}
	return out
}
