package appview

import (
	"context"
	"net/url"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/apps"
	"deckhand/gui/guitest"
	"deckhand/tools"
)

// confirmHost is a window and its UI goroutine, played by the test: what
// is posted waits in posts, what is told in told.
type confirmHost struct {
	win   fyne.Window
	posts chan func()
	told  chan any
	shown int // ShowMain's calls, on the UI goroutine
}

func (h *confirmHost) App() fyne.App       { return fyne.CurrentApp() }
func (h *confirmHost) Window() fyne.Window { return h.win }
func (h *confirmHost) Post(f func())       { h.posts <- f }

// asked runs, as the UI goroutine, the question a view's host posted, and
// returns the window's canvas with the question's dialog on top.
func (h *confirmHost) asked(t *testing.T) fyne.Canvas {
	t.Helper()
	select {
	case f := <-h.posts:
		f()
	case <-time.After(10 * time.Second):
		t.Fatal("the question was never asked")
	}
	c := h.win.Canvas()
	if c.Overlays().Top() == nil {
		t.Fatal("no dialog shown")
	}
	return c
}
func (h *confirmHost) ShowMain()               { h.shown++ }
func (h *confirmHost) Tell(msg any)            { h.told <- msg }
func (h *confirmHost) OpenURL(*url.URL) error  { return nil }
func (h *confirmHost) Catalog() *tools.Catalog { return nil }
func (h *confirmHost) ReadResource(context.Context, string, string) ([]*sdk.ResourceContents, error) {
	return nil, nil
}

// TestViewQuestionsTakeTheKeys: what a tool's view asks (send this
// message? open this link?) closes with Enter and with Escape, both
// answering no: the view asks when it likes, maybe as Enter is pressed
// in the message box, and a yes takes a click. The window's own keys
// (Escape stops an answer) do not see them. The dialog took neither key,
// and both went to the window behind it.
func TestViewQuestionsTakeTheKeys(t *testing.T) {
	test.NewTempApp(t)
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		t.Run(string(key), func(t *testing.T) {
			h := &confirmHost{win: test.NewWindow(nil), posts: make(chan func(), 8), told: make(chan any, 8)}
			t.Cleanup(h.win.Close)
			h.win.Resize(fyne.NewSize(800, 600))
			var behind []fyne.KeyName
			h.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { behind = append(behind, k.Name) })
			vh := &viewHost{v: New(h, nil), conv: "c", view: "s.tool"}
			answer := make(chan bool, 1)
			go func() {
				ok, _ := vh.Propose(t.Context(), "rm -rf ~")
				answer <- ok
			}()
			c := h.asked(t)
			if h.shown != 1 {
				t.Errorf("the main window was brought in front %d times with the question, want 1", h.shown)
			}
			c.OnTypedKey()(&fyne.KeyEvent{Name: key})
			if c.Overlays().Top() != nil {
				t.Errorf("%s left the dialog open", key)
				c.Overlays().Top().Hide()
			}
			select {
			case ok := <-answer:
				if ok {
					t.Errorf("%s answered yes", key)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s gave no answer", key)
			}
			if len(behind) > 0 {
				t.Errorf("the window behind the dialog got %v", behind)
			}
			select {
			case m := <-h.told:
				t.Errorf("the view's message was sent: %+v", m)
			default:
			}
		})
	}
}

// Once the person answers what a view asked (send this message? open
// this link?) in the main window, which came in front to ask, the view
// comes back in front: they go on in it. It stayed behind the main
// window after every answer. A link opened is the exception: the browser
// comes in front with the page, which the view would cover.
func TestViewQuestionAnsweredBringsViewBack(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		name   string
		link   bool         // Open this link?, else Send this message?
		key    fyne.KeyName // the answer by key, else a click on yes
		raised bool
	}{
		{name: "send, Enter", key: fyne.KeyReturn, raised: true},
		{name: "send, Escape", key: fyne.KeyEscape, raised: true},
		{name: "send, Send", raised: true},
		{name: "link, Escape", link: true, key: fyne.KeyEscape, raised: true},
		{name: "link, Open", link: true, raised: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &confirmHost{win: test.NewWindow(nil), posts: make(chan func(), 8), told: make(chan any, 8)}
			t.Cleanup(h.win.Close)
			h.win.Resize(fyne.NewSize(800, 600))
			v := New(h, nil)
			win := &toldWindow{done: make(chan struct{})}
			other := &toldWindow{done: make(chan struct{})}
			v.open.Add(apps.Card{Conversation: "c", Run: "r", Call: "x", Tool: "s.tool"}, win)
			v.open.Add(apps.Card{Conversation: "c", Run: "r", Call: "y", Tool: "s.other"}, other)
			vh := &viewHost{v: v, conv: "c", view: "s.tool"}
			answered := make(chan struct{})
			go func() {
				defer close(answered)
				if tt.link {
					vh.OpenLink(t.Context(), "https://example.com/")
				} else {
					vh.Propose(t.Context(), "hello")
				}
			}()
			c := h.asked(t)
			if tt.key != "" {
				c.OnTypedKey()(&fyne.KeyEvent{Name: tt.key})
			} else {
				yes := "Send"
				if tt.link {
					yes = "Open"
				}
				var b *widget.Button
				guitest.Walk(c.Overlays().Top(), func(o fyne.CanvasObject) {
					if x, ok := o.(*widget.Button); ok && x.Text == yes {
						b = x
					}
				})
				if b == nil {
					t.Fatalf("the dialog has no %s", yes)
				}
				test.Tap(b)
			}
			select {
			case <-answered:
			case <-time.After(10 * time.Second):
				t.Fatal("no answer")
			}
			raised := slices.Contains(win.got(), "raised")
			if raised != tt.raised {
				t.Errorf("after the answer the view was brought back in front: %v, want %v (told %q)", raised, tt.raised, win.got())
			}
			if slices.Contains(other.got(), "raised") {
				t.Errorf("another tool's view was brought in front")
			}
		})
	}
}
