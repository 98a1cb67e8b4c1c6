package setup

import (
	"context"
	"errors"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"deckhand/config"
	"deckhand/transport/llm"
)

// fakeHost records what the first-run panel asks of the window; Post
// queues, as fyne.Do does, for the test to run.
type fakeHost struct {
	win     fyne.Window
	found   []llm.Endpoint
	writeTo error
	edits   [][]config.Edit
	chosen  int
	posted  chan func()
}

func (h *fakeHost) Window() fyne.Window                  { return h.win }
func (h *fakeHost) Probe(context.Context) []llm.Endpoint { return h.found }
func (h *fakeHost) ShowSettings()                        {}
func (h *fakeHost) Chosen()                              { h.chosen++ }
func (h *fakeHost) Post(f func())                        { h.posted <- f }
func (h *fakeHost) WriteConfig(edits []config.Edit) error {
	h.edits = append(h.edits, edits)
	return h.writeTo
}

// button is the panel's button labelled label, or nil.
func button(o fyne.CanvasObject, label string) *widget.Button {
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Button:
			if x.Text == label && found == nil {
				found = x
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return found
}

// Use this writes the server found and the model picked to the config and
// hands the keyboard to the message box; a server with no model loaded,
// or a config that cannot be written, says so and chooses nothing.
func TestUseThis(t *testing.T) {
	local := llm.Endpoint{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"llama3.2", "qwen3"}}
	for _, tt := range []struct {
		name      string
		found     llm.Endpoint
		writeTo   error
		wantEdits [][]config.Edit
		chosen    int
	}{
		{name: "a model", found: local, chosen: 1, wantEdits: [][]config.Edit{{
			{Table: "model", Key: "base_url", Value: local.BaseURL}, {Table: "model", Key: "name", Value: "llama3.2"},
		}}},
		{name: "no model loaded", found: llm.Endpoint{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"}},
		{name: "the config not written", found: local, writeTo: errors.New("disk full"), wantEdits: [][]config.Edit{{
			{Table: "model", Key: "base_url", Value: local.BaseURL}, {Table: "model", Key: "name", Value: "llama3.2"},
		}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			h := &fakeHost{found: []llm.Endpoint{tt.found}, writeTo: tt.writeTo, posted: make(chan func(), 1)}
			h.win = test.NewWindow(nil)
			t.Cleanup(h.win.Close)
			p := New(h)
			h.win.SetContent(p.Content())
			p.Probe()
			select {
			case f := <-h.posted:
				f()
			case <-time.After(10 * time.Second):
				t.Fatal("the probe never answered")
			}
			use := button(p.Content(), "Use this")
			if use == nil {
				t.Fatal("no Use this for the server found")
			}
			test.Tap(use)
			if diff := cmp.Diff(tt.wantEdits, h.edits); diff != "" {
				t.Errorf("the config edits (-want +got):\n%s", diff)
			}
			if h.chosen != tt.chosen {
				t.Errorf("Chosen called %d times, want %d", h.chosen, tt.chosen)
			}
			if tt.chosen == 0 && len(h.win.Canvas().Overlays().List()) == 0 {
				t.Error("nothing said why no model was chosen")
			}
		})
	}
}
