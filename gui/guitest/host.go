package guitest

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

// Host is a window of Fyne's test app as the host of what a test shows in
// it (a chat view, tool cards, a tool's view): the Host methods of the
// packages chat, toolcard and appview that tests answer alike. The work
// posted for the UI goroutine waits in Queue; what the person is told, and
// the messages to the bridge, are kept for Told.
type Host struct {
	FyneApp fyne.App
	Win     fyne.Window
	Queue   Queue
	Tools   *tools.Catalog       // Catalog's answer
	Browser func(*url.URL) error // OpenURL's; nil is no browser
	Ready   map[string]bool      // the servers connected
	// Results is ResultFile's answer: the folder of kept results, a
	// file per call named conv-run-call.txt; "" is no log.
	Results string

	mu   sync.Mutex
	told []any
}

// NewHost is a Host with a window titled title, not shown yet.
func NewHost(t testing.TB, title string) *Host {
	t.Helper()
	h := &Host{FyneApp: NewApp(t), Queue: NewQueue(), Ready: map[string]bool{}}
	h.Win = h.FyneApp.NewWindow(title)
	return h
}

func (h *Host) App() fyne.App       { return h.FyneApp }
func (h *Host) Window() fyne.Window { return h.Win }
func (h *Host) Post(f func())       { h.Queue.Post(f) }

// ShowMain shows the window in front.
func (h *Host) ShowMain() { h.Win.Show(); h.Win.RequestFocus() }

// Tell keeps msg for Told.
func (h *Host) Tell(msg any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.told = append(h.told, msg)
}

// Told is what the host was told so far, in order: the messages to the
// bridge, ShowError's and ShowInfo's text, AttachResource's [2]string{alias, uri}.
func (h *Host) Told() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.told)
}

func (h *Host) ShowError(msg string) { h.Tell(msg) }
func (h *Host) ShowInfo(msg string)  { h.Tell(msg) }

func (h *Host) OpenURL(link *url.URL) error {
	if h.Browser == nil {
		return errors.New("no browser in tests")
	}
	return h.Browser(link)
}

func (h *Host) Catalog() *tools.Catalog { return h.Tools }

// ResultFile is a file of Results, or "".
func (h *Host) ResultFile(conv, run, call string) string {
	if h.Results == "" {
		return ""
	}
	return filepath.Join(h.Results, conv+"-"+run+"-"+call+".txt")
}
func (h *Host) ServerReady(alias string) bool    { return h.Ready[alias] }
func (h *Host) AttachResource(alias, uri string) { h.Tell([2]string{alias, uri}) }

// AnswerCall keeps AnswerCall{conv, call} for Told.
func (h *Host) AnswerCall(conv, call string) { h.Tell(AnswerCall{conv, call}) }

// AnswerCall is a card's Approve or deny…, as Told keeps it.
type AnswerCall struct{ Conv, Call string }

func (h *Host) ReadResource(context.Context, string, string) ([]*sdk.ResourceContents, error) {
	return nil, errors.New("no servers in tests")
}
