package gui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/apps"
	"deckhand/tools"
	"deckhand/transcript"
)

// The views of tools (MCP Apps, package apps): a tool card whose tool
// names a view offers Open view, which shows it in a window of its own
// (the deckhand-view helper), told the call's arguments and result. What
// the view asks goes to the card's conversation: its tool calls through
// the gate (conversation.CallFromView), the messages it proposes and the
// links it would open to the person first.

// appViews are the views open, one per card; touched on the UI goroutine.
type appViews struct {
	book *apps.Views
	mu   sync.Mutex
	open map[string]*apps.Window // by conversation and card
}

// appViewOf is the tool of display if it has a view (in the catalog the
// window knows), with the view's URI.
func (u *UI) appViewOf(display string) (tools.Tool, string) {
	if u.catalog == nil || display == "" {
		return tools.Tool{}, ""
	}
	t, ok := u.catalog.Lookup(display)
	if !ok {
		return tools.Tool{}, ""
	}
	def := t.Raw
	if def == nil {
		def = t.Def
	}
	return t, apps.ResourceURI(def)
}

// openAppView shows the view of the card's tool, told the card's call.
func (u *UI) openAppView(row transcript.Row) {
	t, uri := u.appViewOf(row.Tool)
	if uri == "" {
		return
	}
	if u.views == nil {
		u.views = &appViews{book: apps.NewViews(), open: map[string]*apps.Window{}}
	}
	conv := u.conv
	// A model may give two calls of two runs one id: the card is its
	// call, tool and arguments.
	key := conv + "\x00" + row.Call + "\x00" + row.Tool + "\x00" + row.Args
	u.views.mu.Lock()
	_, already := u.views.open[key]
	u.views.mu.Unlock()
	if already {
		return
	}
	dark := u.app.Settings().ThemeVariant() == theme.VariantDark
	go u.runAppView(conv, key, t, uri, row, dark)
}

func (u *UI) runAppView(conv, key string, t tools.Tool, uri string, row transcript.Row, dark bool) {
	fail := func(err error) { u.tellNotice(fmt.Sprintf("Could not open the view of %s: %v", t.Display, err)) }
	helper, err := apps.FindHelper()
	if err != nil {
		fail(err)
		return
	}
	ctx := context.Background()
	view, changed, err := u.views.book.Get(ctx, t.Display, t.Hash, uri, func(ctx context.Context, uri string) ([]*sdk.ResourceContents, error) {
		r, err := u.d.System.ReadResource(ctx, t.Server, uri)
		if err != nil {
			return nil, err
		}
		return r.Contents, nil
	})
	if err != nil {
		fail(err)
		return
	}
	if changed && !u.confirm("The view changed", fmt.Sprintf("The view of %s is not the one first shown for this tool (its server sent a new one with a new definition). Open it anyway?", t.Display), "Open") {
		return
	}
	u.views.book.Accept(t.Display, view)
	theme := "light"
	if dark {
		theme = "dark"
	}
	def := t.Raw
	if def == nil {
		def = t.Def
	}
	var input json.RawMessage
	if json.Valid([]byte(row.Args)) {
		input = json.RawMessage(row.Args)
	}
	win, err := apps.Open(ctx, helper, apps.Config{Server: t.Server, Tool: t.Name, Definition: def, View: view, Input: input,
		Context: apps.HostContext{Theme: theme, Locale: locale(), Width: 640, Height: 600}, HostVersion: "", Logger: u.log},
		&viewHost{u: u, conv: conv, view: t.Display}, 0, apps.Sandboxed())
	if err != nil {
		fail(err)
		return
	}
	u.views.mu.Lock()
	u.views.open[key] = win
	u.views.mu.Unlock()
	if res := cardResult(row); res != nil {
		win.SetResult(res)
	}
	<-win.Done()
	u.views.mu.Lock()
	delete(u.views.open, key)
	u.views.mu.Unlock()
	var stopped *apps.StoppedError
	if errors.As(win.Err(), &stopped) {
		u.tellNotice(fmt.Sprintf("Deckhand closed the view of %s: %s. The chat is not affected.", t.Display, stopped.Reason))
	}
}

// cardResult is the card's result as the view is told it: the text the
// card shows (what the model was given) and the result's structured
// content, or nil while the call runs.
func cardResult(row transcript.Row) *sdk.CallToolResult {
	switch row.State {
	case transcript.Succeeded, transcript.Failed, transcript.Denied:
	default:
		return nil
	}
	r := &sdk.CallToolResult{IsError: row.State != transcript.Succeeded, Content: []sdk.Content{&sdk.TextContent{Text: row.Output}}}
	var structured map[string]any
	if json.Unmarshal([]byte(row.Structured), &structured) == nil {
		r.StructuredContent = structured
	}
	return r
}

func locale() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" && v != "C" && v != "POSIX" {
			v, _, _ = strings.Cut(v, ".")
			return strings.ReplaceAll(v, "_", "-")
		}
	}
	return "en-US"
}

// tellNotice shows text as a notice of the window.
func (u *UI) tellNotice(text string) {
	u.tell(bridgeDo(func(b *bridge, c actor.Context) {
		b.notices = append(b.notices, text)
		b.schedule(c)
	}))
}

// confirm asks the person a yes-or-no question in a dialog and waits for
// the answer; called off the UI goroutine.
func (u *UI) confirm(title, text, yes string) bool {
	answer := make(chan bool, 1)
	u.post(func() {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustomConfirm(title, yes, "Cancel", l, func(ok bool) { answer <- ok }, u.win)
		d.Resize(fyne.NewSize(460, 0))
		d.Show()
	})
	return <-answer
}

// viewHost is Deckhand as one view's host (apps.Host).
type viewHost struct {
	u    *UI
	conv string
	view string // server.tool
}

var _ apps.Host = (*viewHost)(nil)

func (h *viewHost) CallTool(ctx context.Context, name string, args json.RawMessage) (*sdk.CallToolResult, error) {
	reply := make(chan conversation.ViewCallResult, 1)
	h.u.tell(bridgeDo(func(b *bridge, c actor.Context) {
		cs := b.convs[h.conv]
		if cs == nil || cs.pid == nil {
			reply <- conversation.ViewCallResult{Err: errors.New("its conversation is closed")}
			return
		}
		c.Send(cs.pid, &conversation.CallFromView{View: h.view, Tool: name, Args: args, Reply: reply})
	}))
	select {
	case r := <-reply:
		return r.Result, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (h *viewHost) Propose(ctx context.Context, text string) (bool, error) {
	if !h.u.confirm("Send this message?", fmt.Sprintf("The view of %s proposes this message for the chat:\n\n%s", h.view, text), "Send") {
		return false, nil
	}
	h.u.tell(bridgeDo(func(b *bridge, c actor.Context) { b.send(c, h.conv, text) }))
	return true, nil
}

func (h *viewHost) OpenLink(ctx context.Context, link string) (bool, error) {
	u, err := url.Parse(link)
	if err != nil {
		return false, err
	}
	if !h.u.confirm("Open this link?", fmt.Sprintf("The view of %s asks to open this link in your browser:\n\n%s", h.view, link), "Open") {
		return false, nil
	}
	return true, h.u.openURL(u)
}
