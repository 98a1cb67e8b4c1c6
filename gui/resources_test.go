package gui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/guitest"
	serverspanel "deckhand/gui/servers"
	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// everythingHarness is a window with server-everything (over stdio) as
// server "ev", ready.
func everythingHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	p := testutil.RequirePeers(t)
	inner := o.cfg
	o.cfg = func(c *config.Config) {
		c.MCP.Servers = map[string]config.Server{"ev": {Command: p.Node, Args: []string{p.Everything, "stdio"}}}
		c.MCP.AutoApprove = map[string]bool{"ev.get-resource-links": true}
		if inner != nil {
			inner(c)
		}
	}
	h := newHarness(t, o)
	h.until("ev to be ready", func() bool {
		return slices.ContainsFunc(h.ui.servers, func(st servers.ServerStatus) bool { return st.Alias == "ev" && st.State == servers.StateReady })
	})
	// The window hears "ready" from the server while the registry may
	// still be reading its tools (their flags, slow under -race): a
	// message sent now could be answered with an older catalog. Asking
	// the registry waits until it has taken them, and the conversation
	// hears of the new catalog before the message that follows.
	if _, err := h.sys.Catalog(t.Context()); err != nil {
		t.Fatal(err)
	}
	return h
}

// lastUserMessage is the content of the last person's message the model
// got, as JSON text.
func (h *harness) lastUserMessage() string {
	reqs := h.model.Requests()
	if len(reqs) == 0 {
		return ""
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(reqs[len(reqs)-1], &req)
	for j := len(req.Messages) - 1; j >= 0; j-- {
		if m := req.Messages[j]; m.Role == "user" {
			b, _ := json.Marshal(m.Content)
			return string(b)
		}
	}
	return ""
}

// chipsRead reports whether every resource chip has been read.
func (h *harness) chipsRead(n int) bool {
	chips := h.ui.comp.ResourceChips()
	if len(chips) != n {
		return false
	}
	for _, r := range chips {
		if !r.Read {
			return false
		}
	}
	return true
}

// The servers panel's Resources opens server-everything's resources and
// templates; a static document and a template filled in are attached, and
// the model gets both, fenced and named with their URIs.
func TestResourcesBrowseAndAttach(t *testing.T) {
	h := everythingHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Two resources, read.")}}})
	h.ui.showServers()
	sw := h.ui.serversW
	row := sw.Rows["ev"]
	if row == nil || !row.Resources.Visible() {
		t.Fatal("no Resources button for a ready server")
	}
	test.Tap(row.Resources)
	rw := h.ui.serversW.Resources
	h.until("the listing", func() bool { return rw.Loaded })
	if !strings.Contains(rw.Status.Text, "protocol 2025-11-25") || !strings.Contains(rw.Status.Text, "kept up to date") {
		t.Errorf("status = %q", rw.Status.Text)
	}
	doc := slices.IndexFunc(rw.Items, func(it serverspanel.ResourceItem) bool {
		return it.Resource != nil && strings.HasPrefix(it.Resource.URI, "demo://resource/static/document/")
	})
	tmpl := slices.IndexFunc(rw.Items, func(it serverspanel.ResourceItem) bool {
		return it.Template != nil && it.Template.URITemplate == "demo://resource/dynamic/text/{resourceId}"
	})
	if doc < 0 || tmpl < 0 {
		t.Fatalf("items = %+v", rw.Items)
	}
	docURI := rw.Items[doc].Resource.URI

	rw.List.Select(tmpl)
	if rw.Vars["resourceId"] == nil {
		t.Fatalf("the template asks for %v", rw.Vars)
	}
	test.Tap(rw.Attach) // no value yet
	if !strings.Contains(rw.Status.Text, "resourceId needs a value") || len(h.ui.comp.Files) != 0 {
		t.Errorf("attached without its variable: %q", rw.Status.Text)
	}
	rw.Vars["resourceId"].SetText("9")
	test.Tap(rw.Attach)
	rw.List.Select(doc)
	test.Tap(rw.Attach)
	test.Tap(rw.Attach) // twice: still one chip
	h.until("both read", func() bool { return h.chipsRead(2) })
	rw.Win.Close() // hidden, kept for next time: the chat is back, with its chips
	if !h.shows(h.ui.win, "demo://resource/dynamic/text/9  ·  ") {
		t.Errorf("no chip for the template's resource:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	// The listed one shows its name, not its address.
	if name := rw.Items[doc].Resource.Name; !h.shows(h.ui.win, name+"  ·  ") || h.shows(h.ui.win, docURI+"  ·  ") {
		t.Errorf("the document's chip does not show its name %q:\n%s", name, strings.Join(h.texts(h.ui.win), "\n"))
	}
	// Its × names its address.
	tips := map[string]bool{}
	guitest.Walk(h.ui.comp.Chips, func(o fyne.CanvasObject) {
		if b, ok := o.(*widgets.TipButton); ok {
			tips[b.Tip] = true
		}
	})
	if !tips["Remove "+docURI] {
		t.Errorf("no chip's × names %q: %v", docURI, tips)
	}
	if h.ui.serversW.Resources != rw {
		t.Error("the window was not kept")
	}

	h.say("what are these?")
	h.until("the answer", func() bool { return len(h.model.Requests()) == 1 && len(h.ui.comp.Files) == 0 })
	got := h.lastUserMessage()
	for _, want := range []string{`what are these?`, `[Attached file \"demo://resource/dynamic/text/9\"`, "Resource 9: This is a plaintext resource", `[Attached file \"` + docURI + `\"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the model's message lacks %q: %s", want, got)
		}
	}
}

// An attached resource of a server that offers subscriptions is read again
// when the server says it changed; the chip says so, and the message
// carries the new contents. A resource link in a tool's result attaches.
func TestResourceUpdatesAndLinks(t *testing.T) {
	h := everythingHarness(t, harnessOptions{fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "ev__get-resource-links", Arguments: `{"count": 2}`}, "Here are two links.")})
	h.ui.comp.AttachResource("ev", "demo://resource/dynamic/text/1")
	h.until("read and watched", func() bool { return h.chipsRead(1) && h.ui.comp.ResourceChips()[0].Watched })
	// The subscription is made in the background: toggle until an update
	// comes (server-everything sends one at once, then every 5 s).
	ctx, cancel := context.WithTimeout(t.Context(), 30*1e9)
	defer cancel()
	if res, err := h.sys.CallTool(ctx, "ev.toggle-subscriber-updates", json.RawMessage(`{}`), nil); err != nil || res.Err != nil {
		t.Fatalf("toggle: %v %v", err, res.Err)
	}
	h.until("the update", func() bool { return h.ui.comp.ResourceChips()[0].Updates > 0 })
	if !h.shows(h.ui.win, "·  updated") {
		t.Errorf("the chip does not say updated:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.sys.CallTool(ctx, "ev.toggle-subscriber-updates", json.RawMessage(`{}`), nil)

	h.say("links please")
	h.until("the links", func() bool {
		c := h.card("ev.get-resource-links")
		return c != nil && c.Row.Media != nil && len(c.Row.Media.Links) == 2 && len(h.ui.comp.Files) == 0
	})
	if got := h.lastUserMessage(); !strings.Contains(got, "Resource 1: This is a plaintext resource") {
		t.Errorf("the updated resource did not go: %s", got)
	}
	var attach []*widget.Button
	guitest.Walk(h.card("ev.get-resource-links").Tool().Media.Links, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Attach" {
			attach = append(attach, b)
		}
	})
	if len(attach) != 2 {
		t.Fatalf("%d Attach buttons, want 2:\n%s", len(attach), strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(attach[1])
	h.until("the link's resource", func() bool { return h.chipsRead(1) })
	if uri := h.ui.comp.ResourceChips()[0].URI; !strings.HasPrefix(uri, "demo://resource/dynamic/") {
		t.Errorf("attached %q", uri)
	}
}
