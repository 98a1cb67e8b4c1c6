package gui

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// listingServer lists models (GET /v1/models, each name in the JSON as
// given) and hands chat requests to the harness's scripted model.
func listingServer(t *testing.T, models ...string) (url string, target *atomic.Pointer[string], lists *atomic.Int32) {
	target, lists = &atomic.Pointer[string]{}, &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			lists.Add(1)
			var data []map[string]string
			for _, m := range models {
				data = append(data, map[string]string{"id": m})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
			return
		}
		body, _ := io.ReadAll(r.Body)
		resp, err := http.Post(*target.Load()+"/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", target, lists
}

// pickerHarness is a window whose model server lists models.
func pickerHarness(t *testing.T, o harnessOptions, models ...string) (*harness, *atomic.Int32) {
	url, target, lists := listingServer(t, models...)
	inner := o.cfg
	o.cfg = func(c *config.Config) {
		c.Model.BaseURL = url
		if inner != nil {
			inner(c)
		}
	}
	h := newHarness(t, o)
	u := h.model.URL
	target.Store(&u)
	return h, lists
}

// modelOfRequest is the "model" of a request the model server received.
func modelOfRequest(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var req struct{ Model string }
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	return req.Model
}

// The picker lists the configured model, the server's (cleaned: a name
// with an escape sequence is left out) and Other…; a choice applies to the
// current conversation from its next message (the request, the status
// line), and a new chat starts with the configured model. The list is
// asked once, not at every switch.
func TestModelPickerChoosesTheConversationsModel(t *testing.T) {
	h, lists := pickerHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("From big.")}, {Body: testutil.TextChunks("From scripted.")}, {Body: testutil.TextChunks("Big again.")},
	}}, "big", "evil\x1b[2J", "scripted", "small")
	p := h.ui.comp
	h.until("the server's models", func() bool { return slices.Contains(p.Picker.Options, "big") })
	if want := []string{"scripted", "big", "small", "Other…"}; !slices.Equal(p.Picker.Options, want) {
		t.Errorf("options = %q, want %q", p.Picker.Options, want)
	}
	if p.Picker.Selected != "scripted" {
		t.Errorf("a new chat's model = %q", p.Picker.Selected)
	}
	p.Picker.SetSelected("big")
	h.until("the status line", func() bool { return strings.HasPrefix(h.ui.status.Text, "big") })
	h.say("first")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "From big.") && !h.ui.running })
	first := h.ui.conv
	if got := modelOfRequest(t, h.model.Requests()[0]); got != "big" {
		t.Errorf("the request asked %q, want big", got)
	}

	h.ui.tell(&uiNewChat{})
	h.until("a new chat with the configured model", func() bool {
		return h.ui.conv != first && p.Conv == h.ui.conv && p.Picker.Selected == "scripted" && strings.HasPrefix(h.ui.status.Text, "scripted")
	})
	h.say("second")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "From scripted.") && !h.ui.running })
	if got := modelOfRequest(t, h.model.Requests()[1]); got != "scripted" {
		t.Errorf("a new chat asked %q", got)
	}

	h.ui.tell(&uiOpenSession{id: first})
	h.until("the first chat, with big", func() bool { return h.ui.conv == first && p.Picker.Selected == "big" })
	h.say("third")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Big again.") && !h.ui.running })
	if got := modelOfRequest(t, h.model.Requests()[2]); got != "big" {
		t.Errorf("back in the first chat the request asked %q", got)
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("the models were listed %d times", n)
	}
}

// Other… asks for a name, which the next message uses; a server that
// lists no models leaves the configured one and Other….
func TestModelPickerOther(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Typed.")}}})
	p := h.ui.comp
	h.until("the listing to fail", func() bool { return p.ListedOf != "" })
	if want := []string{"scripted", "Other…"}; !slices.Equal(p.Picker.Options, want) {
		t.Errorf("options = %q, want %q", p.Picker.Options, want)
	}
	p.Picker.SetSelected("Other…")
	var entry *widget.Entry
	for _, o := range h.ui.win.Canvas().Overlays().List() {
		guitest.Walk(o, func(o fyne.CanvasObject) {
			if e, ok := o.(entryOf); ok {
				entry = e.EntryWidget()
			}
		})
	}
	if entry == nil {
		t.Fatal("no entry for the name")
	}
	entry.SetText("  my-model:latest\t")
	h.tap(h.ui.win, "Use")
	h.until("the typed model", func() bool {
		return p.Picker.Selected == "my-model:latest" && strings.HasPrefix(h.ui.status.Text, "my-model:latest")
	})
	h.say("hi")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Typed.") && !h.ui.running })
	if got := modelOfRequest(t, h.model.Requests()[0]); got != "my-model:latest" {
		t.Errorf("the request asked %q", got)
	}
}

// TestModelPickerOtherFocus: once Other… is used, the keyboard is in the
// message box, where the next message is typed (it stayed on the picker);
// Cancel gives it back to the picker, where it was.
func TestModelPickerOtherFocus(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	p := h.ui.comp
	h.until("the listing to fail", func() bool { return p.ListedOf != "" })
	other := func() *widget.Entry {
		h.ui.win.Canvas().Focus(p.Picker)
		p.Picker.SetSelected("Other…")
		e, ok := h.ui.win.Canvas().Focused().(entryOf)
		if !ok {
			t.Fatal("Other… gave no field the keyboard")
		}
		return e.EntryWidget()
	}
	other()
	h.tap(h.ui.win, "Cancel")
	if got := h.ui.win.Canvas().Focused(); got != p.Picker {
		t.Errorf("after Cancel the keyboard is on %T, want the picker", got)
	}
	other().SetText("my-model")
	h.tap(h.ui.win, "Use")
	h.until("the typed model", func() bool { return p.Picker.Selected == "my-model" })
	if got := h.ui.win.Canvas().Focused(); got != p.Entry {
		t.Errorf("after Use the keyboard is on %T, want the message box", got)
	}
}

// A session reopened from the log gets the model of its last run when the
// server still offers it.
func TestModelPickerReopenedSession(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h, _ := pickerHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("From big.")}}}, "big", "scripted")
	p := h.ui.comp
	h.until("the server's models", func() bool { return slices.Contains(p.Picker.Options, "big") })
	p.Picker.SetSelected("big")
	h.say("remember big")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "From big.") && !h.ui.running })
	session := h.ui.conv
	ctx, cancel := context.WithTimeout(context.Background(), 10e9)
	defer cancel()
	if err := h.sys.SyncLog(ctx); err != nil {
		t.Fatal(err)
	}

	h2, _ := pickerHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Big after reopening.")}}}, "big", "scripted")
	p2 := h2.ui.comp
	h2.until("the sessions", func() bool { return len(h2.ui.side.Items) > 0 })
	h2.ui.tell(&uiOpenSession{id: session})
	h2.until("the reopened session with big", func() bool { return h2.ui.conv == session && p2.Picker.Selected == "big" })
	h2.say("again")
	h2.until("the answer", func() bool { return h2.shows(h2.ui.win, "Big after reopening.") && !h2.ui.running })
	if got := modelOfRequest(t, h2.model.Requests()[0]); got != "big" {
		t.Errorf("the reopened session asked %q", got)
	}
}

// Attached files show as chips; a binary file, a text file too big and a
// folder are refused with the reason; a chip's × takes its file away. The
// text file reaches the model fenced in the message, the image as an
// image_url part; the transcript names them, and so does the log (with
// sizes and digests, not the image's bytes), read back.
func TestAttachFiles(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("I see them.")}}})
	p := h.ui.comp
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	notes := write("notes.txt", []byte("alpha\n```\nbeta\n"))
	png := testutil.TestPNG(4, 3)
	img := write("picture.dat", png) // an image by its content, not its name
	bin := write("program", []byte("\x7fELF\x00\x01binary"))
	big := write("big.log", bytes.Repeat([]byte("x"), 300<<10))
	gone := write("gone.txt", []byte("take me away"))

	for _, path := range []string{notes, bin, big, dir} {
		p.Add(path)
	}
	p.Dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(img), storage.NewFileURI(gone)})
	h.until("the files read", func() bool {
		_, reading := p.Ready()
		return !reading && len(p.Files) == 3
	})
	for _, want := range []string{"program is not a text file", "big.log is too big to attach (300.0 KiB): a text file can be at most 256.0 KiB", "is a folder"} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("no %q; the window shows:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
		}
	}
	if !h.shows(h.ui.win, "notes.txt  ·  15 B") || !h.shows(h.ui.win, "picture.dat  ·  ") {
		t.Errorf("no chips; the window shows:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.tap(h.ui.win, "OK") // the refusals' notice, which is modal
	// Take gone.txt away with its chip's button.
	var removed bool
	guitest.Walk(p.Chips, func(o fyne.CanvasObject) {
		if c, ok := o.(*fyne.Container); ok && !removed {
			var label string
			var btn *widgets.TipButton
			for _, x := range c.Objects {
				switch x := x.(type) {
				case *widget.Label:
					label = x.Text
				case *widgets.TipButton:
					btn = x
				}
			}
			if strings.HasPrefix(label, "gone.txt") && btn != nil {
				if btn.Tip != "Remove gone.txt" {
					t.Errorf("the chip's × names itself %q", btn.Tip)
				}
				test.Tap(btn)
				removed = true
			}
		}
	})
	if !removed || len(p.Files) != 2 || h.shows(h.ui.win, "gone.txt") {
		t.Fatalf("gone.txt was not taken away (%d files)", len(p.Files))
	}
	if got := h.ui.win.Canvas().Focused(); got != h.ui.input {
		t.Errorf("after a chip's × the focus is on %T, not the message box", got)
	}

	h.say("what are these?")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "I see them.") && !h.ui.running })
	if len(p.Files) != 0 || p.Chips.Visible() {
		t.Error("the chips stay after sending")
	}
	for _, want := range []string{"📎 notes.txt (15 B)", "📎 picture.dat ("} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("the transcript does not show %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
		}
	}
	var req struct{ Messages []llm.Message }
	if err := json.Unmarshal(h.model.Requests()[0], &req); err != nil {
		t.Fatal(err)
	}
	user := req.Messages[len(req.Messages)-1]
	if !strings.HasPrefix(user.Content, "what are these?\n\n[Attached file \"notes.txt\" (15 B)") || !strings.Contains(user.Content, "\n````\nalpha\n```\nbeta\n````") {
		t.Errorf("the model got %q", user.Content)
	}
	if strings.Contains(user.Content, "take me away") {
		t.Error("the removed file was sent")
	}
	if len(user.Parts) != 1 || user.Parts[0].ImageURL == nil || user.Parts[0].ImageURL.URL != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png) {
		t.Errorf("the image parts = %+v", user.Parts)
	}

	h.until("the log", func() bool {
		events, _ := h.db.Events(context.Background(), store.Filter{SessionID: h.ui.conv})
		for _, e := range events {
			if e.Kind == store.KindRunStarted {
				return bytes.Contains(e.Data, []byte(`"name":"picture.dat"`)) && bytes.Contains(e.Data, []byte(`"sha256":"`)) &&
					!bytes.Contains(e.Data, []byte(base64.StdEncoding.EncodeToString(png)))
			}
		}
		return false
	})
	// Reopened, the transcript names them too.
	events, _ := h.db.Events(context.Background(), store.Filter{SessionID: h.ui.conv})
	tr := transcript.FromEvents(events)
	var texts []string
	for i := range tr.Len() {
		texts = append(texts, tr.Row(i).Text)
	}
	if !slices.Contains(texts, "📎 `notes.txt` (15 B)\n\n📎 `picture.dat` (88 B)") {
		t.Errorf("read back from the log, the rows are %q", texts)
	}
}

// Attach opens the file chooser in the workspace.
func TestAttachButtonOpensChooser(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "in-the-workspace.txt"), []byte("x"), 0o600)
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.Policy.Workspace = ws }})
	if got := h.ui.comp.StartDir(); got != ws {
		t.Errorf("the chooser starts in %q, want %q", got, ws)
	}
	test.Tap(h.ui.comp.Attach)
	h.until("the file chooser", func() bool { return h.button(h.ui.win, "Open") != nil })
	if !h.shows(h.ui.win, filepath.Base(ws)) { // the path bar ends in the workspace
		t.Errorf("the chooser does not show the workspace:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
}
