package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"deckhand/tools"
)

func TestToolMediaCleanedAndBounded(t *testing.T) {
	tr := New()
	tr.ToolRequested("c1", "m.shot", json.RawMessage(`{}`))
	tr.ToolFinished("c1", "m.shot", nil, "[image: image/png, 10 B]", false, false, time.Millisecond)
	tr.Changes()
	tr.ToolMedia("c1", &tools.Media{
		Images: []tools.Image{{MIME: "image/png", Data: []byte("0123456789")}},
		Links:  []tools.Link{{Name: "evil\x1b[31m\u202ename", URI: "https://example.com/\x07a"}},
	})
	_, changed := tr.Changes()
	r, ok := changed[0]
	if !ok || r.Media == nil {
		t.Fatalf("the card did not get its media: %+v", changed)
	}
	if l := r.Media.Links[0]; strings.ContainsAny(l.Name+l.URI, "\x1b\x07\u202e") {
		t.Errorf("the link is not cleaned: %q %q", l.Name, l.URI)
	}
	tr.ToolMedia("nope", &tools.Media{}) // an unknown call: nothing
	if _, changed := tr.Changes(); len(changed) != 0 {
		t.Errorf("media for an unknown call changed rows: %v", changed)
	}

	// Past the budget, the oldest cards lose their bytes, not their place.
	big := make([]byte, MaxMediaBytes/3+1)
	for i, id := range []string{"a", "b", "c"} {
		tr.ToolRequested(id, "m.shot", nil)
		tr.ToolFinished(id, "m.shot", nil, "img", false, false, 0)
		tr.ToolMedia(id, &tools.Media{Images: []tools.Image{{MIME: "image/png", Data: big}}})
		if i < 2 && tr.mediaBytes > MaxMediaBytes {
			t.Fatalf("over budget after %d images", i+1)
		}
	}
	if tr.mediaBytes > MaxMediaBytes {
		t.Errorf("the transcript keeps %d image bytes, over %d", tr.mediaBytes, MaxMediaBytes)
	}
	first, last := tr.Row(0).Media.Images[0], tr.Row(tr.Len() - 1).Media.Images[0]
	if first.Data != nil || first.Refused == "" || last.Data == nil {
		t.Errorf("oldest image: %d bytes (%q); newest: %d bytes", len(first.Data), first.Refused, len(last.Data))
	}
}

func TestLongRunCollapses(t *testing.T) {
	tr := New()
	tr.User("go", time.Now())
	for i := range CollapseRun {
		id := string(rune('a' + i))
		tr.ToolRequested(id, "t.echo", nil)
		tr.ToolFinished(id, "t.echo", nil, "ok", false, false, 0)
	}
	tr.Assistant("done", time.Now())
	tr.Calls()
	for i := range tr.Len() {
		if r := tr.Row(i); r.Kind == Tool && !r.Collapsed {
			t.Errorf("card %d of a long run is not collapsed after it", i)
		}
	}
	tr.Expand(2, true)
	if r := tr.Row(2); r.Collapsed || !r.Expanded {
		t.Errorf("Show all on a card: collapsed %v, expanded %v", r.Collapsed, r.Expanded)
	}
	tr.Collapse(2, true)
	if !tr.Row(2).Collapsed {
		t.Error("Collapse did not collapse")
	}

	// A short run stays open.
	tr.User("again", time.Now())
	tr.ToolRequested("x", "t.echo", nil)
	tr.ToolFinished("x", "t.echo", nil, "ok", false, false, 0)
	tr.Calls()
	if tr.Row(tr.Len() - 1).Collapsed {
		t.Error("the card of a one-call run collapsed")
	}
}

func TestReadableArgs(t *testing.T) {
	for in, want := range map[string]string{
		`{"command":"ls \u003e out \u0026\u0026 cat \u003cin"}`: `"command": "ls > out && cat <in"`,
		`{"a":"\\u003e"}`:         `"a": "\\u003e"`, // an escaped backslash, then text
		`{"a":"\"\u003e\""}`:      `"a": "\">\""`,
		`{"a":"\u0007\u00e9"}`:    `"a": "\u0007\u00e9"`,
		`{"\u003c":1}`:            `"<": 1`,
		`not json \u003e`:         `not json \u003e`,
		`{"a":"unterminated \u00`: `unterminated \u00`,
	} {
		tr := New()
		tr.ToolRequested("c", "local.exec", json.RawMessage(in))
		if got := tr.Row(0).Args; !strings.Contains(got, want) {
			t.Errorf("args %s shown as %q, want it to contain %q", in, got, want)
		}
	}
}
