package transcript

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"deckhand/store"
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

// A chat read back from the log reads only the images it keeps: the last
// ones, up to MaxMediaBytes by their logged sizes; the earlier are named
// "no longer kept" without their files being read (every file was read at
// open, and all but the last 48 MiB dropped).
func TestReadBackReadsOnlyKeptImages(t *testing.T) {
	const n, size = 12, 10 << 20 // 120 MiB logged, 48 MiB kept: the last 4
	t0 := time.UnixMilli(1_700_000_000_000)
	var events []store.Event
	add := func(kind, data string) {
		events = append(events, store.Event{RunID: "r1", Kind: kind, Data: json.RawMessage(data), Time: t0.Add(time.Duration(len(events)))})
	}
	add(store.KindRunStarted, `{"text":"shots"}`)
	for i := range n {
		add(store.KindAssistantMessage, fmt.Sprintf(`{"text":"","tool_calls":[{"id":"c%d","name":"m__shot","arguments":"{}"}]}`, i))
		add(store.KindToolRequested, fmt.Sprintf(`{"call":"c%d","tool":"m.shot","arguments":{}}`, i))
		add(store.KindToolInvoked, fmt.Sprintf(`{"call":"c%d","tool":"m.shot"}`, i))
		add(store.KindToolSucceeded, fmt.Sprintf(`{"call":"c%d","tool":"m.shot","output":"img","images":[{"mime":"image/png","size":%d,"sha256":"%064x"}]}`, i, size, i))
	}
	add(store.KindRunSucceeded, `{}`)
	var read []string
	tr := FromEventsImages(events, func(sum string) []byte {
		read = append(read, sum)
		return make([]byte, size)
	})
	want := []string{fmt.Sprintf("%064x", 11), fmt.Sprintf("%064x", 10), fmt.Sprintf("%064x", 9), fmt.Sprintf("%064x", 8)}
	slices.Sort(want)
	slices.Sort(read)
	if diff := cmp.Diff(want, read); diff != "" {
		t.Errorf("image files read (-want +got):\n%s", diff)
	}
	var shown, refused int
	for _, r := range rows(tr) {
		if r.Media == nil {
			continue
		}
		for _, img := range r.Media.Images {
			switch {
			case img.Data != nil:
				shown++
			case img.Refused == noLongerKept:
				refused++
			default:
				t.Errorf("an image neither shown nor no longer kept: %+v", img)
			}
		}
	}
	if shown != 4 || refused != n-4 {
		t.Errorf("%d images shown, %d no longer kept; want 4 and %d", shown, refused, n-4)
	}
}
