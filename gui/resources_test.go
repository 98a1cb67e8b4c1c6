package gui

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/config"
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
	chips := h.ui.comp.resourceChips()
	if len(chips) != n {
		return false
	}
	for _, r := range chips {
		if !r.read {
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
	row := sw.rows["ev"]
	if row == nil || !row.resources.Visible() {
		t.Fatal("no Resources button for a ready server")
	}
	test.Tap(row.resources)
	rw := h.ui.comp.browser
	h.until("the listing", func() bool { return rw.loaded })
	if !strings.Contains(rw.status.Text, "protocol 2025-11-25") || !strings.Contains(rw.status.Text, "kept up to date") {
		t.Errorf("status = %q", rw.status.Text)
	}
	doc := slices.IndexFunc(rw.items, func(it resItem) bool {
		return it.res != nil && strings.HasPrefix(it.res.URI, "demo://resource/static/document/")
	})
	tmpl := slices.IndexFunc(rw.items, func(it resItem) bool {
		return it.tmpl != nil && it.tmpl.URITemplate == "demo://resource/dynamic/text/{resourceId}"
	})
	if doc < 0 || tmpl < 0 {
		t.Fatalf("items = %+v", rw.items)
	}
	docURI := rw.items[doc].res.URI

	rw.list.Select(tmpl)
	if rw.vars["resourceId"] == nil {
		t.Fatalf("the template asks for %v", rw.vars)
	}
	test.Tap(rw.attach) // no value yet
	if !strings.Contains(rw.status.Text, "resourceId needs a value") || len(h.ui.comp.files) != 0 {
		t.Errorf("attached without its variable: %q", rw.status.Text)
	}
	rw.vars["resourceId"].SetText("9")
	test.Tap(rw.attach)
	rw.list.Select(doc)
	test.Tap(rw.attach)
	test.Tap(rw.attach) // twice: still one chip
	h.until("both read", func() bool { return h.chipsRead(2) })
	rw.win.Close() // hidden, kept for next time: the chat is back, with its chips
	if !h.shows(h.ui.win, "demo://resource/dynamic/text/9  ·  ") {
		t.Errorf("no chip for the template's resource:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	if h.ui.comp.browser != rw {
		t.Error("the window was not kept")
	}

	h.say("what are these?")
	h.until("the answer", func() bool { return len(h.model.Requests()) == 1 && len(h.ui.comp.files) == 0 })
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
	h.ui.comp.attachResource("ev", "demo://resource/dynamic/text/1")
	h.until("read and watched", func() bool { return h.chipsRead(1) && h.ui.comp.resourceChips()[0].watched })
	// The subscription is made in the background: toggle until an update
	// comes (server-everything sends one at once, then every 5 s).
	ctx, cancel := context.WithTimeout(t.Context(), 30*1e9)
	defer cancel()
	if res, err := h.sys.CallTool(ctx, "ev.toggle-subscriber-updates", json.RawMessage(`{}`), nil); err != nil || res.Err != nil {
		t.Fatalf("toggle: %v %v", err, res.Err)
	}
	h.until("the update", func() bool { return h.ui.comp.resourceChips()[0].updates > 0 })
	if !h.shows(h.ui.win, "·  updated") {
		t.Errorf("the chip does not say updated:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.sys.CallTool(ctx, "ev.toggle-subscriber-updates", json.RawMessage(`{}`), nil)

	h.say("links please")
	h.until("the links", func() bool {
		c := h.card("ev.get-resource-links")
		return c != nil && c.row.Media != nil && len(c.row.Media.Links) == 2 && len(h.ui.comp.files) == 0
	})
	if got := h.lastUserMessage(); !strings.Contains(got, "Resource 1: This is a plaintext resource") {
		t.Errorf("the updated resource did not go: %s", got)
	}
	var attach []*widget.Button
	walk(h.card("ev.get-resource-links").tool().media.links, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Attach" {
			attach = append(attach, b)
		}
	})
	if len(attach) != 2 {
		t.Fatalf("%d Attach buttons, want 2:\n%s", len(attach), strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(attach[1])
	h.until("the link's resource", func() bool { return h.chipsRead(1) })
	if uri := h.ui.comp.resourceChips()[0].uri; !strings.HasPrefix(uri, "demo://resource/dynamic/") {
		t.Errorf("attached %q", uri)
	}
}

func TestExpandTemplate(t *testing.T) {
	for _, tc := range []struct {
		tmpl string
		vals map[string]string
		want string
	}{
		{"demo://a/{id}", map[string]string{"id": "a b"}, "demo://a/a%20b"},
		{"file:///{+path}", map[string]string{"path": "x/y z"}, "file:///x/y%20z"},
		{"x://s{?q,n}", map[string]string{"q": "a&b", "n": "2"}, "x://s?q=a%26b&n=2"},
		{"x://s{/a,b}", map[string]string{"a": "1", "b": "2"}, "x://s/1/2"},
		// What the hand-written expander got wrong: a prefix, path
		// parameters, a fragment's spaces, a form continuation's name.
		{"x://s/{id:3}", map[string]string{"id": "abcdef"}, "x://s/abc"},
		{"x://s{;a,b}", map[string]string{"a": "1", "b": "2"}, "x://s;a=1;b=2"},
		{"x://s{#f}", map[string]string{"f": "a b/c"}, "x://s#a%20b/c"},
		{"x://s?x=1{&q}", map[string]string{"q": "a b"}, "x://s?x=1&q=a%20b"},
		// Beyond ASCII, as UTF-8 (uritemplate alone would say %E9).
		{"x://s/{a}{/b}", map[string]string{"a": "é", "b": "a/b"}, "x://s/%C3%A9/a%2Fb"},
		{"x://s{?q}{#f}", map[string]string{"q": "café 😀", "f": "Zq"}, "x://s?q=caf%C3%A9%20%F0%9F%98%80#Zq"},
	} {
		got, err := expandTemplate(tc.tmpl, tc.vals)
		if err != nil || got != tc.want {
			t.Errorf("expandTemplate(%q) = %q, %v; want %q", tc.tmpl, got, err, tc.want)
		}
	}
	if _, err := expandTemplate("x://{a}", nil); err == nil {
		t.Error("a missing value expanded")
	}
	if _, err := expandTemplate("x://{a:2}", map[string]string{"a": "éé"}); err == nil {
		t.Error("a prefix of a value beyond ASCII expanded")
	}
	if _, err := expandTemplate("x://{a", map[string]string{"a": "1"}); err == nil {
		t.Error("an unclosed expression expanded")
	}
	if got := templateVars("x://{a}/{+b}{?c,d}"); strings.Join(got, ",") != "a,b,c,d" {
		t.Errorf("templateVars = %v", got)
	}
}

// A server's template and the person's values never panic the expander,
// and what it makes of text beyond ASCII is that text, in UTF-8.
func FuzzExpandTemplate(f *testing.F) {
	f.Add("demo://a/{id}", "a b")
	f.Add("x://s{?q,n}{#f}", "café")
	f.Add("x://{+p}{/q*}{;r:3}", "Zq1Zq")
	f.Fuzz(func(t *testing.T, tmpl, v string) {
		got, err := expandTemplate(tmpl, map[string]string{"id": v, "q": v, "n": v, "f": v, "p": v, "r": v})
		if err != nil || !utf8.ValidString(v) || !utf8.ValidString(tmpl) || strings.Contains(tmpl, "%") {
			return // the template's own escapes are the server's
		}
		if u, err := url.PathUnescape(got); err == nil && !utf8.ValidString(u) {
			t.Errorf("expandTemplate(%q, %q) = %q: not UTF-8 once decoded", tmpl, v, got)
		}
	})
}
