package gui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors"
	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/gui/dialogs"
	"deckhand/gui/guitest"
	"deckhand/notify"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// harness runs the window on Fyne's test driver against real actors: a
// scripted model server, an in-process MCP server ("t", with echo, add,
// slow, fail) and, when asked, a SQLite log. The test goroutine plays the
// UI goroutine: the bridge's frames queue up until the test drains them.
type harness struct {
	t     *testing.T
	app   fyne.App
	ui    *UI
	sys   *actors.System
	model *testutil.ModelServer
	db    *store.DB
	cfg   *config.Config
	queue guitest.Queue
	notes *noteRecorder // the desktop notifications sent
	// primary stands in for the desktop's primary selection.
	primary *primaryRecorder
}

// primaryRecorder stands in for the desktop's primary selection (X11's
// PRIMARY): the real one is driven in cmd/deckhand's
// TestWindowPrimarySelection. It is touched on the UI goroutine only,
// which the test goroutine plays.
type primaryRecorder struct {
	sets []string // every Set, in order
	text string   // what Get gives: the last Set, or another program's
}

func (r *primaryRecorder) Set(text string) { r.sets = append(r.sets, text); r.text = text }
func (r *primaryRecorder) Get() string     { return r.text }

// noteRecorder stands in for the session's notification server: the real
// one (dunst, on a real bus) is driven in cmd/deckhand's
// TestWindowApprovalNotification and in package notify.
type noteRecorder struct {
	mu        sync.Mutex
	sent      []notify.Notification
	ids       []uint32
	withdrawn map[uint32]bool
}

func (r *noteRecorder) Actions() bool { return true }
func (r *noteRecorder) Close()        {}
func (r *noteRecorder) Send(n notify.Notification) (uint32, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, n)
	r.ids = append(r.ids, uint32(len(r.sent)))
	return uint32(len(r.sent)), nil
}
func (r *noteRecorder) Withdraw(id uint32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.withdrawn == nil {
		r.withdrawn = map[uint32]bool{}
	}
	r.withdrawn[id] = true
}

// shown is the notifications sent and not withdrawn, and all sent.
func (r *noteRecorder) shown() (live, all []notify.Notification) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, n := range r.sent {
		if !r.withdrawn[r.ids[i]] {
			live = append(live, n)
		}
	}
	return live, slices.Clone(r.sent)
}

type harnessOptions struct {
	responses []testutil.ModelResponse
	fallback  func(req map[string]any) testutil.ModelResponse
	cfg       func(*config.Config)
	log       bool   // record sessions in a SQLite file
	dbPath    string // record them in this one
	noModel   bool
	probe     func(*harness) []llm.Endpoint
	inProcess map[string]*sdk.Server // more in-process servers, beside "t"
	notLoaded map[string]func() []tools.Rejected
	app       func(fyne.App) fyne.App // wraps the test app (to see it quit)
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	h := &harness{t: t, app: guitest.NewApp(t), queue: guitest.NewQueue(), primary: &primaryRecorder{}}
	if o.app != nil {
		h.app = o.app(h.app)
	}
	h.model = testutil.NewModelServer(t, o.responses...)
	h.model.Fallback = o.fallback
	cfg := &config.Config{Path: filepath.Join(t.TempDir(), "config.toml")}
	if !o.noModel {
		cfg.Model = config.Model{BaseURL: h.model.URL, Name: "scripted"}
		// The window reloads the file after changing it.
		if err := os.WriteFile(cfg.Path, []byte("[model]\nbase_url = \""+h.model.URL+"\"\nname = \"scripted\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if o.cfg != nil {
		o.cfg(cfg)
	}
	cfg.ApplyDefaults()
	h.cfg = cfg
	if o.log && o.dbPath == "" {
		o.dbPath = filepath.Join(t.TempDir(), "deckhand.db")
	}
	if o.dbPath != "" {
		db, err := store.Open(t.Context(), o.dbPath)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		h.db = db
	}
	inProcess := map[string]*sdk.Server{"t": testutil.NewServer("t")}
	maps.Copy(inProcess, o.inProcess)
	h.sys = actors.Start(actors.Options{
		Config:    cfg,
		Log:       h.db,
		InProcess: inProcess,
		NotLoaded: o.notLoaded,
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h.sys.Shutdown(ctx)
	})
	h.ui = New(Deps{
		App: h.app, System: h.sys, Config: cfg, Log: h.db,
		Probe: func(context.Context) []llm.Endpoint {
			if o.probe == nil {
				return nil
			}
			return o.probe(h)
		},
		LookupEnv: func(string) (string, bool) { return "", false },
		Post:      h.queue.Post,
		Primary:   h.primary,
	})
	h.notes = &noteRecorder{}
	h.ui.dialogs.SetNotifier(func() (dialogs.Notifier, error) { return h.notes, nil })
	h.ui.Start()
	t.Cleanup(h.ui.Stop)
	// The in-process server's tools are in the catalog before the test
	// says anything: on a loaded machine the model's call could otherwise
	// reach the conversation before its tool did.
	// A miss says where the server got to (the last CI's failure said
	// only that the tools never came).
	var last error
	testutil.Eventually(t, 60*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		cat, err := h.sys.Catalog(ctx)
		if last = err; err == nil && len(cat.Server("t")) == 0 {
			last = errors.New("the catalog holds no tool of t")
		}
		return last == nil
	}, "the in-process server's tools never reached the catalog: %v", lazy(func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st, err := h.sys.ServerStatuses(ctx, false)
		return fmt.Sprintf("%v; the servers: %+v (%v); %d goroutines", last, st, err, runtime.NumGoroutine())
	}))
	return h
}

// lazy is text made when printed.
type lazy func() string

func (l lazy) String() string { return l() }

// until runs the window's queued work until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	h.queue.Until(h.t, h.ui.win, what, cond)
}

// type sends text from the message box, as a person would: typed, then
// Enter.
func (h *harness) say(text string) {
	h.t.Helper()
	h.ui.win.Canvas().Focus(h.ui.input)
	test.Type(h.ui.input, text)
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

// quickSay asks text in the quick prompt, as a person would: typed, then
// Enter.
func (h *harness) quickSay(text string) {
	h.t.Helper()
	test.Type(h.ui.quick.Entry, text)
	h.ui.quick.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

// texts is what a window shows: the text of every visible label, rich text
// and button, its overlays (dialogs) included (guitest.Texts).
func (h *harness) texts(w fyne.Window) []string { return guitest.Texts(w) }

func (h *harness) shows(w fyne.Window, text string) bool { return guitest.Shows(w, text) }

// visibleRows are the transcript rows that have widgets on screen.
func (h *harness) visibleRows() []*chat.RowView { return guitest.All[*chat.RowView](h.ui.chat.List) }

// card is the on-screen card of a tool call, or nil.
func (h *harness) card(tool string) *chat.RowView {
	for _, r := range h.visibleRows() {
		if r.Row.Kind == transcript.Tool && r.Row.Tool == tool {
			return r
		}
	}
	return nil
}

// toolThenText answers a request with a call of the tool, and the request
// carrying its result with text.
func toolThenText(call testutil.ToolCallSpec, text string) func(map[string]any) testutil.ModelResponse {
	return func(req map[string]any) testutil.ModelResponse {
		msgs, _ := req["messages"].([]any)
		if len(msgs) > 0 {
			if last, _ := msgs[len(msgs)-1].(map[string]any); last["role"] == "tool" {
				return testutil.ModelResponse{Body: testutil.TextChunks(text)}
			}
		}
		return testutil.ModelResponse{Body: testutil.ToolCallChunks(call)}
	}
}

// lastToolResult is the content of the last tool message the model got.
func (h *harness) lastToolResult() string {
	reqs := h.model.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		json.Unmarshal(reqs[i], &req)
		for j := len(req.Messages) - 1; j >= 0; j-- {
			if m := req.Messages[j]; m.Role == "tool" {
				b, _ := json.Marshal(m.Content)
				return string(b)
			}
		}
	}
	return ""
}
