package appview

import (
	"context"
	"net/url"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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

func (h *confirmHost) App() fyne.App           { return fyne.CurrentApp() }
func (h *confirmHost) Window() fyne.Window     { return h.win }
func (h *confirmHost) Post(f func())           { h.posts <- f }
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
