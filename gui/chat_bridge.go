package gui

import (
	"context"
	"errors"
	"net/url"
	"slices"

	"fyne.io/fyne/v2"
	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/gui/appview"
	"deckhand/gui/chat"
	"deckhand/tools"
)

// The bridge's half of the chat view (package chat): what its messages
// ask of the transcripts and the conversations, and how the transcript
// follows a run removed or a version chosen.

// findElsewhere looks in the log, off the bridge, for the find bar's
// words (together, as typed) in the other versions of the chat's messages (the log keeps them
// all; the chat shows one version of each), and tells the bar which run
// holds them.
func (b *bridge) findElsewhere(c actor.Context, m *chat.FindElsewhere) {
	db, sys, ui := b.db, b.sys, b.ui
	if db == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
		defer cancel()
		sys.SyncLog(ctx)
		// The words together, as the find bar looks for them: the
		// search's words apart chose a version holding them so, where
		// the bar then found nothing, or only "a".
		run, err := db.PhraseRun(ctx, m.Conv, m.Query, m.Shown)
		if err != nil || run == "" {
			return
		}
		ui.post(func() { ui.chat.Find.Elsewhere(m.Conv, m.Query, run) })
	}()
}

// chatMessage handles a message from the chat view.
func (b *bridge) chatMessage(c actor.Context, msg any) {
	switch m := msg.(type) {
	case *chat.Expand:
		if cs := b.convs[m.Conv]; cs != nil {
			cs.tr.Expand(m.Row, m.Expanded)
		}
	case *chat.Collapse:
		if cs := b.convs[m.Conv]; cs != nil {
			cs.tr.Collapse(m.Row, m.Collapsed)
		}
	case *chat.RunAction:
		b.runAction(c, m)
	case *appview.ViewCall:
		cs := b.convs[m.Conv]
		if cs == nil || cs.pid == nil {
			m.Reply <- conversation.ViewCallResult{Err: errors.New("its conversation is closed")}
			return
		}
		c.Send(cs.pid, &conversation.CallFromView{View: m.View, Tool: m.Tool, Args: m.Args, Reply: m.Reply})
	case *appview.ReadCard:
		var read appview.CardRead
		if cs := b.convs[m.Conv]; cs != nil {
			read.Row, read.Found = cs.tr.Card(m.Run, m.Call)
		}
		m.Reply <- read
	case *appview.Propose:
		b.send(c, m.Conv, m.Text)
	case *appview.Notice:
		b.notices = append(b.notices, m.Text)
	}
}

// runAction asks the current conversation to act on one of its runs.
func (b *bridge) runAction(c actor.Context, m *chat.RunAction) {
	cs := b.convs[b.current]
	if cs == nil || cs.pid == nil {
		return
	}
	switch m.Action {
	case chat.Retry:
		c.Send(cs.pid, &conversation.NewVersion{Run: m.Run})
	case chat.Edit:
		c.Send(cs.pid, &conversation.NewVersion{Run: m.Run, Text: m.Text})
	case chat.Choose:
		c.Send(cs.pid, &conversation.ChooseVersion{Run: m.Run})
	case chat.Remove:
		c.Send(cs.pid, &conversation.RemoveRun{Run: m.Run})
	case chat.Continue:
		c.Send(cs.pid, &conversation.ContinueRun{})
	case chat.RetryNow:
		// For that run of this chat alone, and the try its notice
		// announced: the conversation drops it when the run is over or no
		// longer waits for that try.
		c.Send(cs.pid, &conversation.RetryNow{Conversation: cs.id, Run: m.Run, Try: m.Try})
	}
}

// versionChosen shows the branch the conversation now holds.
func (b *bridge) versionChosen(cs *convState, m *conversation.VersionChosen) {
	cs.tr.Show(m.Path, m.Versions)
	if cs.id == b.current {
		b.reset = true
	}
}

// runRemoved takes a removed run out of the transcript.
func (b *bridge) runRemoved(cs *convState, m *conversation.RunRemoved) {
	if cs.tr.RemoveRun(m.Run) && cs.id == b.current {
		b.reset = true
	}
}

// chatHost is the window as the chat view's host, and the tools' views'.
type chatHost struct{ u *UI }

var (
	_ chat.Host    = chatHost{}
	_ appview.Host = chatHost{}
)

func (h chatHost) App() fyne.App               { return h.u.app }
func (h chatHost) Window() fyne.Window         { return h.u.win }
func (h chatHost) Post(f func())               { h.u.post(f) }
func (h chatHost) ShowMain()                   { h.u.showMain() }
func (h chatHost) Tell(msg any)                { h.u.tell(msg) }
func (h chatHost) ShowError(msg string)        { h.u.showError(msg) }
func (h chatHost) ShowInfo(msg string)         { h.u.showInfo(msg) }
func (h chatHost) OpenURL(link *url.URL) error { return h.u.openURL(link) }
func (h chatHost) KeepFocus() func()           { return h.u.keepFocus() }
func (h chatHost) FocusInput()                 { h.u.focusInput() }
func (h chatHost) ShowKeySettings()            { h.u.showKeySettings() }
func (h chatHost) ShowModelSettings(at string) { h.u.showModelSettings(at) }
func (h chatHost) Catalog() *tools.Catalog     { return h.u.catalog }
func (h chatHost) Shortcut(key fyne.KeyName) func() {
	return h.u.input.Shortcuts[key]
}
func (h chatHost) ServerReady(alias string) bool {
	return slices.ContainsFunc(h.u.servers, func(st servers.ServerStatus) bool {
		return st.Alias == alias && st.State == servers.StateReady
	})
}
func (h chatHost) AttachResource(alias, uri string) { h.u.comp.AttachResource(alias, uri) }

// ResultFile is where the log keeps a cut result whole (store.KeepResult).
func (h chatHost) ResultFile(conv, run, call string) string {
	if h.u.d.Log == nil {
		return ""
	}
	return h.u.d.Log.ResultPath(conv, run, call)
}
func (h chatHost) ReadResource(ctx context.Context, server, uri string) ([]*sdk.ResourceContents, error) {
	r, err := h.u.d.System.ReadResource(ctx, server, uri)
	if err != nil {
		return nil, err
	}
	return r.Contents, nil
}
