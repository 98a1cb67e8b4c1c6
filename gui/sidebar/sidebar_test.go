package sidebar

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"deckhand/store"
)

// fakeHost records what the sidebar asks of the window.
type fakeHost struct {
	win    fyne.Window
	told   []any
	opened []string
	errors []string
	posted []func()
}

func (h *fakeHost) Window() fyne.Window          { return h.win }
func (h *fakeHost) Tell(msg any)                 { h.told = append(h.told, msg) }
func (h *fakeHost) NewChat()                     {}
func (h *fakeHost) Open(it Item)                 { h.opened = append(h.opened, it.ID) }
func (h *fakeHost) ShowServers()                 {}
func (h *fakeHost) ShowSettings()                {}
func (h *fakeHost) KeepFocus() func()            { return func() {} }
func (h *fakeHost) ShowError(text string)        { h.errors = append(h.errors, text) }
func (h *fakeHost) FocusInput()                  {}
func (h *fakeHost) ClearSelection()              {}
func (h *fakeHost) Shortcut(fyne.KeyName) func() { return nil }
func (h *fakeHost) last() any                    { return h.told[len(h.told)-1] }
func (h *fakeHost) Post(f func())                { h.posted = append(h.posted, f) }

// drain runs what was posted, as the window's loop would after the event.
func (h *fakeHost) drain() {
	for len(h.posted) > 0 {
		f := h.posted[0]
		h.posted = h.posted[1:]
		f()
	}
}

// newFake is a sidebar in a window of its own, its host a recorder.
func newFake(t *testing.T) (*fakeHost, *Sidebar) {
	t.Helper()
	test.NewTempApp(t)
	h := &fakeHost{}
	h.win = test.NewWindow(nil)
	t.Cleanup(h.win.Close)
	s := New(h)
	h.win.SetContent(s.Object())
	h.win.Resize(fyne.NewSize(300, 500))
	return h, s
}

// The list's keys, on their own: the arrows open the next session, F2
// renames the open one (Enter in the dialog asks the bridge), Delete asks
// first, and a session still working is not offered for deleting.
func TestSidebarKeys(t *testing.T) {
	h, s := newFake(t)
	s.Set([]Item{
		{ID: "a", Title: "first", Current: true},
		{ID: "b", Title: "second", Run: store.RunRunning},
	})
	if got := s.List.highlight; got != 0 {
		t.Fatalf("highlight = %d", got)
	}
	h.win.Canvas().Focus(s.List)
	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF2})
	if s.Rename == nil || s.Title.Text != "first" {
		t.Fatalf("F2: no rename dialog holding the title (%v)", s.Rename)
	}
	s.Title.SetText("  renamed\t")
	s.Title.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if diff := cmp.Diff(&Rename{ID: "a", Title: "  renamed\t"}, h.last()); diff != "" {
		t.Errorf("Enter in the rename dialog told (-want +got):\n%s", diff)
	}
	if s.Rename != nil {
		t.Error("the rename dialog stayed")
	}

	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if s.Delete == nil {
		t.Fatal("Delete: no confirmation")
	}
	s.Delete.Confirm()
	if diff := cmp.Diff(&Delete{ID: "a", Title: "first"}, h.last()); diff != "" {
		t.Errorf("the confirmed delete told (-want +got):\n%s", diff)
	}

	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if diff := cmp.Diff([]string{"b"}, h.opened); diff != "" {
		t.Errorf("Down opened (-want +got):\n%s", diff)
	}
	// The bridge says b is the current one now.
	s.Set([]Item{{ID: "a", Title: "first"}, {ID: "b", Title: "second", Run: store.RunRunning, Current: true}})
	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	if s.Delete == nil {
		t.Fatal("deleting a session still working: no Stop and delete offered")
	}
	s.Delete.Confirm()
	if diff := cmp.Diff(&Delete{ID: "b", Title: "second", Stop: true}, h.last()); diff != "" {
		t.Errorf("Stop and delete told (-want +got):\n%s", diff)
	}
}

// A row's menu pins, or unpins a pinned chat; the list marks it.
func TestSidebarPinMenu(t *testing.T) {
	for _, tt := range []struct {
		name   string
		pinned bool
		label  string
		want   *Pin
	}{
		{name: "unpinned", label: "Pin", want: &Pin{ID: "a", Pinned: true}},
		{name: "pinned", pinned: true, label: "Unpin", want: &Pin{ID: "a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, s := newFake(t)
			s.Set([]Item{{ID: "a", Title: "a chat", Pinned: tt.pinned}})
			var row *Row
			for _, r := range s.rows {
				if r.Item().ID == "a" {
					row = r
				}
			}
			if row == nil {
				t.Fatal("no row for the chat")
			}
			if got := strings.HasPrefix(row.Title.Text, PinMark); got != tt.pinned {
				t.Errorf("the row %q marked pinned: %v, want %v", row.Title.Text, got, tt.pinned)
			}
			test.TapSecondary(row)
			if s.Menu == nil || s.MenuItems.Items[0].Label != tt.label {
				t.Fatalf("the menu's first item is not %s", tt.label)
			}
			s.MenuItems.Items[0].Action()
			if diff := cmp.Diff(tt.want, h.last()); diff != "" {
				t.Errorf("%s told (-want +got):\n%s", tt.label, diff)
			}
		})
	}
}

func TestSubtitle(t *testing.T) {
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		item Item
		want string
	}{
		{name: "fresh", item: Item{When: now}, want: "just now"},
		{name: "working", item: Item{When: now.Add(-5 * time.Minute), Run: store.RunRunning}, want: "5 min ago · working…"},
		{name: "interrupted", item: Item{When: now.Add(-3 * time.Hour), Run: store.RunInterrupted}, want: "3 h ago · interrupted"},
		{name: "estimated tokens", item: Item{When: now.Add(-50 * time.Hour), Usage: store.Usage{InputTokens: 1000, OutputTokens: 200, Estimated: true}}, want: "2 days ago · ~" + store.Count(1200) + " tokens"},
		{name: "cost", item: Item{When: now, Usage: store.Usage{InputTokens: 10, CostUSD: 0.0123}}, want: "just now · 10 tokens · $0.0123"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.item.Subtitle(now); got != tt.want {
				t.Errorf("Subtitle = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFileName(t *testing.T) {
	for _, tt := range []struct {
		name, title, want string
	}{
		{name: "plain", title: "Trip planning", want: "Trip planning"},
		{name: "separators", title: `a/b\c: "d"?`, want: "a-b-c- -d--"},
		{name: "spaces and newlines", title: " two\n  lines\t", want: "two lines"},
		{name: "long", title: strings.Repeat("é", 70), want: strings.Repeat("é", 60)},
		{name: "nothing left", title: " ../ ", want: "chat"},
		{name: "empty", title: "", want: "chat"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := fileName(tt.title); got != tt.want {
				t.Errorf("fileName(%q) = %q, want %q", tt.title, got, tt.want)
			}
		})
	}
}

// A snippet's marks are the search's words; a mark out of order or out
// of the snippet (a log from elsewhere) is left unmarked, never a panic.
func TestSnippetSegments(t *testing.T) {
	for _, tt := range []struct {
		name  string
		match store.Match
		want  []string // the segments' texts, a marked one in [ ]
	}{
		{name: "two words", match: store.Match{Snippet: "a red fox ran", Marks: [][2]int{{2, 5}, {10, 13}}}, want: []string{"a ", "[red]", " fox ", "[ran]"}},
		{name: "out of range", match: store.Match{Snippet: "short", Marks: [][2]int{{2, 40}}}, want: []string{"short"}},
		{name: "overlapping", match: store.Match{Snippet: "abcdef", Marks: [][2]int{{0, 3}, {2, 4}}}, want: []string{"[abc]", "def"}},
		{name: "a tool's result", match: store.Match{Snippet: "The sum of 40", Marks: [][2]int{{11, 13}}, Tool: "everything.get-sum"}, want: []string{ResultLabel, "The sum of ", "[40]"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, seg := range snippetSegments(tt.match) {
				ts := seg.(*widget.TextSegment)
				if ts.Style.TextStyle.Bold {
					got = append(got, "["+ts.Text+"]")
				} else {
					got = append(got, ts.Text)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("snippetSegments (-want +got):\n%s", diff)
			}
		})
	}
}

// The Delete dialog is as high as its text: no empty area under it and no
// "?" icon behind its corner (Fyne's confirm dialog measured its height
// with the text wrapped a few words a line).
func TestDeleteDialogFitsItsText(t *testing.T) {
	h, s := newFake(t)
	h.win.Resize(fyne.NewSize(1000, 700))
	s.Set([]Item{{ID: "a", Title: "please add 17 and 25", Current: true}})
	h.win.Canvas().Focus(s.List)
	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if s.Delete == nil {
		t.Fatal("Delete: no confirmation")
	}
	top := h.win.Canvas().Overlays().Top()
	d := fyne.CurrentApp().Driver()
	var text *widget.Label
	var cancel *widget.Button
	var icons int
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *widget.Label:
			if strings.Contains(x.Text, "Delete “please add 17 and 25”?") {
				text = x
			}
		case *widget.Button:
			if x.Text == "Cancel" {
				cancel = x
			}
		case *widget.Icon:
			icons++
		case *canvas.Image:
			if x.Resource != nil && strings.Contains(x.Resource.Name(), "question") {
				icons++
			}
		}
		switch x := o.(type) {
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
	walk(top)
	if text == nil || cancel == nil {
		t.Fatalf("the dialog lacks its text (%v) or Cancel (%v)", text != nil, cancel != nil)
	}
	if icons != 0 {
		t.Errorf("the dialog shows %d icons behind its text", icons)
	}
	bottom := d.AbsolutePositionForObject(text).Y + text.MinSize().Height
	if gap := d.AbsolutePositionForObject(cancel).Y - bottom; gap > 4*theme.Padding() {
		t.Errorf("%.0f px empty between the text and the buttons (text %v high, %v wide)", gap, text.MinSize().Height, text.Size().Width)
	}
	s.Delete.Hide()
}

// The sidebar keeps the rows its list shows, not every row the list made:
// Fyne's list makes a template row at each full refresh, three a Set, and
// the sidebar kept them all (601 after 200 Sets of one chat), with their
// widgets, for the life of the window. Each Set here is a frame of a chat
// being written in: its status changes, and it stays the one open.
func TestSidebarKeepsOnlyShownRows(t *testing.T) {
	for _, tt := range []struct {
		name  string
		items int
	}{
		{name: "one chat", items: 1},
		{name: "three chats", items: 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, s := newFake(t)
			for i := range 200 {
				items := make([]Item, tt.items)
				for j := range items {
					items[j] = Item{ID: fmt.Sprint(j), Title: fmt.Sprintf("chat %d", j), When: time.Now()}
				}
				items[0].Current = true
				if i%2 == 0 {
					items[0].Run = store.RunRunning
				}
				s.Set(items)
			}
			if got := len(s.rows); got != tt.items {
				t.Errorf("after 200 Sets of %d chats, the sidebar keeps %d rows; want %d", tt.items, got, tt.items)
			}
			var titles []string
			for _, r := range s.rows {
				titles = append(titles, r.Title.Text)
			}
			slices.Sort(titles)
			want := []string{"chat 0", "chat 1", "chat 2"}[:tt.items]
			if diff := cmp.Diff(want, titles); diff != "" {
				t.Errorf("the rows kept show (-want +got):\n%s", diff)
			}
		})
	}
}

// shownSnippet is the snippet the row of chat id on screen shows, and the
// words it marks.
func shownSnippet(t *testing.T, s *Sidebar, id string) (row *Row, text string, marked []string) {
	t.Helper()
	for _, r := range s.rows {
		if r.item.ID == id && r.Visible() {
			row = r
		}
	}
	if row == nil {
		t.Fatal("no row on screen")
	}
	var shown strings.Builder
	for _, seg := range row.snip.Segments {
		ts := seg.(*widget.TextSegment)
		shown.WriteString(ts.Text)
		if ts.Style.TextStyle.Bold {
			marked = append(marked, ts.Text)
		}
	}
	return row, shown.String(), marked
}

// A search's snippet in a narrow sidebar (a 640x480 window's, 128% text)
// shows its first word found, after "…" and a little of what comes
// before, its words still marked; the words found anywhere showed. It
// showed the text before the word, cut off before it. A snippet that fits
// is left whole. The empty list of a search says "chats", as the window
// does.
func TestSnippetShowsTheMatch(t *testing.T) {
	h, s := newFake(t)
	snippet := `…tables, and the quotes in code blocks") } ` + "``" + ` a wide table of results`
	at := strings.Index(snippet, "wide")
	m := store.Match{Snippet: snippet, Marks: [][2]int{{at, at + 4}, {at + 5, at + 10}}}
	s.Set([]Item{{ID: "a", Title: "markdown tour please", Match: m, Query: "wide table"}})
	for _, width := range []float32{150, 640} {
		h.win.Resize(fyne.NewSize(width, 400))
		row, text, words := shownSnippet(t, s, "a")
		upTo := text[:strings.Index(text, "wide")+4]
		room := row.Size().Width - 2*theme.InnerPadding()
		if w := fyne.MeasureText(upTo, theme.CaptionTextSize(), fyne.TextStyle{}).Width; w > room {
			t.Errorf("at %v px the snippet shows %q: %.0f px to its first word, in %.0f", width, text, w, room)
		}
		if !slices.Equal(words, []string{"wide", "table"}) {
			t.Errorf("at %v px the words marked are %q", width, words)
		}
		if width == 640 && text != snippet {
			t.Errorf("at 640 px the snippet is %q, want it whole", text)
		}
	}
	s.Searching("wide table")
	if s.hint.Text != "No chats match" {
		t.Errorf("an empty search says %q", s.hint.Text)
	}
}

// TestListHoldsStillUnderThePointer: while the pointer is on the list, a
// chat that gets a message does not come to the top: the rows keep their
// places (their contents kept up to date), so a right-click aimed at a
// row opens that row's menu, whose Delete names it; the order comes when
// the pointer leaves. While the row's menu is open it holds too. With the
// pointer elsewhere the chat comes to the top at once, and what the
// person asks for (a chat pinned, one gone) shows at once. A streaming
// chat moved under the pointer: the menu opened was the other chat's.
func TestListHoldsStillUnderThePointer(t *testing.T) {
	h, s := newFake(t)
	c := h.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	ids := func() []string {
		var out []string
		for _, it := range s.Items {
			out = append(out, it.ID)
		}
		return out
	}
	rowOf := func(id string) *Row {
		for _, r := range s.rows {
			if r.item.ID == id && r.Visible() {
				return r
			}
		}
		t.Fatalf("no row shows %s", id)
		return nil
	}
	center := func(o fyne.CanvasObject) fyne.Position {
		return drv.AbsolutePositionForObject(o).AddXY(o.Size().Width/2, o.Size().Height/2)
	}
	away := func() {
		test.MoveMouse(c, center(s.Search))
		h.drain()
	}
	brief := Item{ID: "brief", Title: "brief tale please"}
	story := Item{ID: "story", Title: "story to the end please", Run: store.RunRunning}
	other := Item{ID: "other", Title: "something else"}
	s.Set([]Item{brief, other, story})

	// The pointer rests on "brief tale please"; the story's answer
	// streams, which brings it to the top.
	at := center(rowOf("brief"))
	test.MoveMouse(c, at)
	h.drain()
	story.Title = "story to the end please, renamed"
	s.Set([]Item{story, brief, other})
	if diff := cmp.Diff([]string{"brief", "other", "story"}, ids()); diff != "" {
		t.Errorf("the list moved under the pointer (-want +got):\n%s", diff)
	}
	if got := rowOf("story").Title.Text; got != story.Title {
		t.Errorf("the held row shows %q, want its new title %q", got, story.Title)
	}
	// The right-click goes to the row under the pointer.
	var under *Row
	for _, r := range s.rows {
		p, size := drv.AbsolutePositionForObject(r), r.Size()
		if r.Visible() && at.X >= p.X && at.Y >= p.Y && at.X < p.X+size.Width && at.Y < p.Y+size.Height {
			under = r
		}
	}
	if under == nil {
		t.Fatal("no row under the pointer")
	}
	test.TapSecondaryAt(under, at.Subtract(drv.AbsolutePositionForObject(under)))
	if s.Menu == nil {
		t.Fatal("no menu")
	}
	// The pointer goes onto the menu; the story streams on.
	test.MoveMouse(c, center(s.Menu))
	h.drain()
	s.Set([]Item{story, brief, other})
	if diff := cmp.Diff([]string{"brief", "other", "story"}, ids()); diff != "" {
		t.Errorf("the list moved under the open menu (-want +got):\n%s", diff)
	}
	s.Menu.Dismiss()                                     // as a tap on an item does, before its action
	s.MenuItems.Items[len(s.MenuItems.Items)-1].Action() // Delete…
	if s.Delete == nil {
		t.Fatal("Delete… asked nothing")
	}
	s.Delete.Confirm()
	if diff := cmp.Diff(&Delete{ID: "brief", Title: "brief tale please"}, h.last()); diff != "" {
		t.Errorf("the menu opened on brief tale please deleted (-want +got):\n%s", diff)
	}

	// The pointer leaves: the story comes to the top.
	test.MoveMouse(c, at)
	h.drain()
	away()
	if diff := cmp.Diff([]string{"story", "brief", "other"}, ids()); diff != "" {
		t.Errorf("after the pointer left the list shows (-want +got):\n%s", diff)
	}
	// Elsewhere, a chat that gets a message comes to the top at once.
	s.Set([]Item{other, story, brief})
	if diff := cmp.Diff([]string{"other", "story", "brief"}, ids()); diff != "" {
		t.Errorf("with the pointer elsewhere the list shows (-want +got):\n%s", diff)
	}
	// From row to row, the list holds.
	test.MoveMouse(c, center(rowOf("story")))
	test.MoveMouse(c, center(rowOf("brief")))
	h.drain()
	s.Set([]Item{brief, other, story})
	if diff := cmp.Diff([]string{"other", "story", "brief"}, ids()); diff != "" {
		t.Errorf("the list moved with the pointer gone from one row to the next (-want +got):\n%s", diff)
	}
	// What the person asks for shows at once: a chat pinned, one deleted.
	pinned := brief
	pinned.Pinned = true
	s.Set([]Item{pinned, other, story})
	if diff := cmp.Diff([]string{"brief", "other", "story"}, ids()); diff != "" {
		t.Errorf("a chat pinned under the pointer: the list shows (-want +got):\n%s", diff)
	}
	s.Set([]Item{story, pinned})
	if diff := cmp.Diff([]string{"story", "brief"}, ids()); diff != "" {
		t.Errorf("a chat deleted under the pointer: the list shows (-want +got):\n%s", diff)
	}
	away()
}

// TestListLetsGoAfterAMenuChoiceOffTheList: an item chosen in a row's menu
// where the menu reaches over the chat (Rename…, whose dialog then covers
// the window) leaves the pointer off the list: a chat that got a message
// meanwhile comes to the top. One chosen over the list keeps the list
// held until the pointer leaves it.
func TestListLetsGoAfterAMenuChoiceOffTheList(t *testing.T) {
	h, s := newFake(t)
	h.win.SetContent(container.NewGridWithColumns(2, s.Object(), widget.NewLabel("the chat")))
	h.win.Resize(fyne.NewSize(600, 500))
	c := h.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	a, b := Item{ID: "a", Title: "first"}, Item{ID: "b", Title: "second"}
	s.Set([]Item{a, b})
	ids := func() []string {
		var out []string
		for _, it := range s.Items {
			out = append(out, it.ID)
		}
		return out
	}
	var row *Row
	for _, r := range s.rows {
		if r.item.ID == "a" {
			row = r
		}
	}
	for _, tt := range []struct {
		name string
		x    float32 // where in the row the right-click is, from its left
		want []string
	}{
		{"menu over the list", 4, []string{"a", "b"}},
		{"menu over the chat", row.Size().Width - 4, []string{"b", "a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s.Set([]Item{a, b})
			at := drv.AbsolutePositionForObject(row).AddXY(tt.x, row.Size().Height/2)
			test.MoveMouse(c, at)
			h.drain()
			test.TapSecondaryAt(row, at.Subtract(drv.AbsolutePositionForObject(row)))
			if s.Menu == nil || !s.Menu.Visible() {
				t.Fatal("no menu")
			}
			s.Set([]Item{b, a}) // b got a message
			i := 3              // Rename…
			if s.MenuItems.Items[i].Label != "Rename…" {
				t.Fatalf("item %d is %q", i, s.MenuItems.Items[i].Label)
			}
			s.Menu.Dismiss() // as a tap on the item does, before its action
			s.MenuItems.Items[i].Action()
			h.drain()
			if s.Rename == nil {
				t.Fatal("Rename… asked nothing")
			}
			s.Rename.Hide()
			h.drain()
			if diff := cmp.Diff(tt.want, ids()); diff != "" {
				t.Errorf("after Rename… the list shows (-want +got):\n%s", diff)
			}
			test.MoveMouse(c, drv.AbsolutePositionForObject(s.Search).AddXY(2, 2))
			h.drain()
			if diff := cmp.Diff([]string{"b", "a"}, ids()); diff != "" {
				t.Errorf("with the pointer off the list it shows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSnippetShowsThePhraseWhole: the store's snippet of "number 78 of a
// slow" in a story of sentences shows in the row with the phrase whole and
// marked, in the sidebar of a 640-pixel window and of a wide one, with a
// little of what comes before it. It showed "3 of a slow", of sentence 3.
func TestSnippetShowsThePhraseWhole(t *testing.T) {
	h, s := newFake(t)
	m := store.Match{
		Snippet: "…77 of a slow story. Sentence number 78 of a slow story. Sentence number 79 of a slow story. Sentence number 80…",
		Marks:   [][2]int{{32, 51}},
	}
	s.Set([]Item{{ID: "a", Title: "a slow story please", Match: m, Query: "number 78 of a slow"}})
	for _, width := range []float32{150, 264} {
		h.win.Resize(fyne.NewSize(width, 400))
		row, text, marked := shownSnippet(t, s, "a")
		if !slices.Equal(marked, []string{"number 78 of a slow"}) {
			t.Errorf("at %v px the snippet %q marks %q, want the phrase", width, text, marked)
		}
		end := strings.Index(text, "number 78 of a slow") + len("number 78 of a slow")
		room := row.Size().Width - 2*theme.InnerPadding()
		before := fyne.MeasureText(text[:strings.Index(text, "number")], theme.CaptionTextSize(), fyne.TextStyle{}).Width
		phrase := fyne.MeasureText("number 78 of a slow", theme.CaptionTextSize(), fyne.TextStyle{Bold: true}).Width
		if before+phrase > room {
			t.Errorf("at %v px the snippet %q shows %.0f px up to the phrase's end (%d bytes in), in %.0f", width, text, before+phrase, end, room)
		}
		if before == 0 {
			t.Errorf("at %v px the snippet %q shows nothing before the phrase", width, text)
		}
	}
}

// rowAt is the row on screen under the canvas position at, as the window
// finds the target of a click.
func rowAt(t *testing.T, s *Sidebar, at fyne.Position) *Row {
	t.Helper()
	drv := fyne.CurrentApp().Driver()
	for _, r := range s.rows {
		p, size := drv.AbsolutePositionForObject(r), r.Size()
		if r.Visible() && at.X >= p.X && at.Y >= p.Y && at.X < p.X+size.Width && at.Y < p.Y+size.Height {
			return r
		}
	}
	t.Fatalf("no row at %v", at)
	return nil
}

// TestRowsBackToTheirHeightAfterASearch: a search whose match shows a
// snippet, then one with no match, then the box cleared: every row is
// the height of a row without a snippet again, each where the list puts
// it, and a secondary tap in the top quarter of row i's place opens the menu
// of chat i (the first chat kept the snippet's height, and a right-click
// at the second's place opened the first's menu).
func TestRowsBackToTheirHeightAfterASearch(t *testing.T) {
	h, s := newFake(t)
	all := []Item{{ID: "a", Title: "add 17 and 25"}, {ID: "b", Title: "second"}, {ID: "c", Title: "third"}, {ID: "d", Title: "fourth"}}
	s.Set(all)
	plain := s.rows[0].MinSize().Height
	match := all[0]
	match.Match = store.Match{Snippet: "what is 17 + 25?", Marks: [][2]int{{8, 10}, {13, 15}}}
	s.Set([]Item{match}) // "17 + 25"
	if h := s.rows[0].Size().Height; h <= plain {
		t.Fatalf("the row with a snippet is %v high, want more than %v", h, plain)
	}
	s.Set(nil) // "zzqq"
	s.Set(all) // cleared
	sep := theme.SeparatorThicknessSize()
	list := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.List)
	for i, it := range all {
		at := list.AddXY(20, float32(i)*(plain+sep)+plain/4)
		row := rowAt(t, s, at)
		if row.Item().ID != it.ID {
			t.Errorf("at row %d's place (%v) is the row of %q, want %q", i, at, row.Item().ID, it.ID)
			continue
		}
		if h := row.Size().Height; h != plain {
			t.Errorf("row %d (%s) is %v high, want %v", i, it.Title, h, plain)
		}
		drv := fyne.CurrentApp().Driver()
		test.TapSecondaryAt(row, at.Subtract(drv.AbsolutePositionForObject(row)))
		if s.Menu == nil || !s.Menu.Visible() {
			t.Fatalf("no menu after a secondary tap on row %d", i)
		}
		s.Menu.Hide()
		s.Menu.OnDismiss()
		s.MenuItems.Items[0].Action() // Pin: whose menu it was
		if p, ok := h.last().(*Pin); !ok || p.ID != it.ID {
			t.Errorf("the menu opened at row %d's place pins %+v, want %q", i, h.last(), it.ID)
		}
	}
}

// Shift+F10 and the Menu key open the menu of the chat the list's
// keyboard is on (they opened nothing: Pin and Export had no key); the
// menu has the keyboard (Down, Enter choose an item; Escape closes it),
// and gives it back to the list. F10 alone opens nothing.
func TestMenuFromKeys(t *testing.T) {
	for _, tt := range []struct {
		name  string
		keys  []fyne.KeyName // pressed in the list, a Shift held before the last when shift
		shift bool
		menu  bool
	}{
		{name: "Shift+F10", keys: []fyne.KeyName{fyne.KeyF10}, shift: true, menu: true},
		{name: "the Menu key", keys: []fyne.KeyName{desktop.KeyMenu}, menu: true},
		{name: "F10 alone", keys: []fyne.KeyName{fyne.KeyF10}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, s := newFake(t)
			s.Set([]Item{{ID: "a", Title: "first", Current: true}, {ID: "b", Title: "second"}, {ID: "c", Title: "third"}})
			c := h.win.Canvas()
			c.Focus(s.List)
			s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // the keyboard on "second"
			if tt.shift {
				s.List.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
			}
			for _, k := range tt.keys {
				c.Focused().TypedKey(&fyne.KeyEvent{Name: k})
			}
			if tt.shift {
				s.List.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
			}
			if !tt.menu {
				if s.Menu != nil && s.Menu.Visible() {
					t.Fatal("a menu opened")
				}
				return
			}
			if s.Menu == nil || !s.Menu.Visible() {
				t.Fatal("no menu")
			}
			if c.Focused() != s.Menu {
				t.Fatalf("the keyboard is on %T, not the menu", c.Focused())
			}
			// Under the row of "second".
			var row *Row
			for _, r := range s.rows {
				if r.Item().ID == "b" {
					row = r
				}
			}
			drv := fyne.CurrentApp().Driver()
			if at, r := s.Menu.Position(), drv.AbsolutePositionForObject(row); at.Y < r.Y || at.Y > r.Y+row.Size().Height+theme.Padding() {
				t.Errorf("the menu is at %v, the row at %v (%v high)", at, r, row.Size().Height)
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // Pin
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			if diff := cmp.Diff(&Pin{ID: "b", Pinned: true}, h.last()); diff != "" {
				t.Errorf("Down, Enter in the menu told (-want +got):\n%s", diff)
			}
			if s.Menu.Visible() || c.Focused() != s.List {
				t.Errorf("after the choice: the menu shown %v, the keyboard on %T", s.Menu.Visible(), c.Focused())
			}
			// The bridge lists "second" first, pinned: the keyboard stays on
			// it (it stayed at the index, and the menu was "first"'s).
			s.Set([]Item{{ID: "b", Title: "second", Pinned: true, Current: true}, {ID: "a", Title: "first"}, {ID: "c", Title: "third"}})
			// Again, and Escape closes it, the keyboard back on the list.
			s.List.TypedKey(&fyne.KeyEvent{Name: desktop.KeyMenu})
			if !s.Menu.Visible() || c.Focused() != s.Menu {
				t.Fatalf("the second time: the menu shown %v, the keyboard on %T", s.Menu.Visible(), c.Focused())
			}
			if got := s.MenuItems.Items[0].Label; got != "Unpin" {
				t.Errorf("the menu after the pin begins with %q, want Unpin (the pinned chat's)", got)
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
			if s.Menu.Visible() || c.Focused() != s.List {
				t.Errorf("after Escape: the menu shown %v, the keyboard on %T", s.Menu.Visible(), c.Focused())
			}
		})
	}
}

// The keyboard comes into the list on the open chat, whichever row it was
// on before: a chat opened another way (New chat, the search) left it on
// another row, and the Menu key then pinned, renamed or deleted a chat not
// open (new-user pass 11).
func TestKeyboardComesInOnTheOpenChat(t *testing.T) {
	h, s := newFake(t)
	s.Set([]Item{{ID: "a", Title: "first"}, {ID: "b", Title: "second"}, {ID: "c", Title: "third"}})
	c := h.win.Canvas()
	c.Focus(s.List)
	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // the keyboard on "second"
	c.Unfocus()
	s.Set([]Item{{ID: "a", Title: "first"}, {ID: "b", Title: "second"}, {ID: "c", Title: "third", Current: true}})
	c.Focus(s.List)
	s.List.TypedKey(&fyne.KeyEvent{Name: desktop.KeyMenu})
	if s.Menu == nil || !s.Menu.Visible() {
		t.Fatal("no menu")
	}
	s.MenuItems.Items[0].Action() // Pin: whose menu it is
	if p, ok := h.last().(*Pin); !ok || p.ID != "c" {
		t.Errorf("the Menu key on coming into the list acts on %+v, want the open chat c", h.last())
	}
}

// After many new chats, the list still shows its top, the pinned chat
// first: the keyboard's place (highlight), kept on the chat it was on as
// the new ones pushed that chat down, scrolled the list to it (Fyne's
// Highlight scrolls), and the new chat's selection then scrolled back
// only as far as the new chat, one row short of the top: the pinned chat
// hidden above while the scrollbar looked at the top (new-user pass 13,
// F9).
func TestManyNewChatsKeepTheTopInView(t *testing.T) {
	_, s := newFake(t)
	pinned := Item{ID: "p", Title: "pinned", Pinned: true}
	var rest []Item
	for i := range 20 {
		for j := range rest {
			rest[j].Current = false
		}
		id := fmt.Sprintf("c%d", i)
		rest = append([]Item{{ID: id, Title: "chat " + id, Current: true}}, rest...)
		s.Set(append([]Item{pinned}, rest...))
		if i == 0 {
			s.List.Highlight(1) // the keyboard on the first chat (a click, Tab)
		}
		if off := s.List.GetScrollOffset(); off != 0 {
			t.Fatalf("after %d new chats the list is scrolled %v down: the pinned chat is out of sight", i+1, off)
		}
	}
	if got := s.Items[s.List.highlight].ID; got != "c0" {
		t.Errorf("the keyboard's place is on %s, want c0, the chat it was on", got)
	}
}

// Pinning a chat with the list scrolled down to it brings it to the top
// in view: the open chat's selection scrolled the list up only as far as
// the open chat, now under the pinned one, which stayed hidden a row
// above (seen in the window after new-user pass 13's F9). The list
// scrolls to its top when less than half of it would stay hidden above.
func TestPinnedChatInViewAfterThePin(t *testing.T) {
	_, s := newFake(t)
	var items []Item
	for i := range 20 {
		items = append(items, Item{ID: fmt.Sprintf("c%d", i), Title: fmt.Sprintf("chat %d", i), Current: i == 0})
	}
	s.Set(items)
	s.List.ScrollToBottom()
	if s.List.GetScrollOffset() == 0 {
		t.Fatal("the list did not scroll down")
	}
	last := items[len(items)-1]
	last.Pinned = true
	s.Set(append([]Item{last}, items[:len(items)-1]...))
	if off := s.List.GetScrollOffset(); off != 0 {
		t.Errorf("after the pin the list is scrolled %v down: the pinned chat is out of sight", off)
	}
	// Far down the list, the open chat is shown where it is, as before.
	s.List.ScrollToTop()
	far := slices.Clone(s.Items)
	for i := range far {
		far[i].Current = i == 15
	}
	s.Set(far)
	if off := s.List.GetScrollOffset(); off == 0 {
		t.Error("the open chat far down the list was not scrolled to")
	}
}

// A search's fresh matches take the list's keyboard on their first: Tab
// into them lights the first row, Enter opens it, Down the next. A chat
// gone from the list leaves the keyboard on the open one. The keyboard
// stayed at its index from before the search: no row lit, and Enter
// opened the match at that index, or none past their end (new-user pass
// 15, N2).
func TestFreshResultsTakeTheKeyboard(t *testing.T) {
	h, s := newFake(t)
	c := h.win.Canvas()
	var all []Item
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		all = append(all, Item{ID: id, Title: "chat " + id})
	}
	all[3].Current = true
	s.Set(all)
	c.Focus(s.List) // the keyboard on d, the fourth row
	c.Focus(s.Search)

	for _, tc := range []struct {
		query   string
		results []Item
	}{
		{"one", []Item{{ID: "b", Title: "chat b", Query: "one"}, {ID: "e", Title: "chat e", Query: "one"}}},
		{"one two", []Item{{ID: "x", Title: "chat x", Query: "one two"}, {ID: "y", Title: "chat y", Query: "one two"}, {ID: "z", Title: "chat z", Query: "one two"}, {ID: "w", Title: "chat w", Query: "one two"}, {ID: "v", Title: "chat v", Query: "one two"}}},
	} {
		h.opened = nil
		s.Searching(tc.query)
		s.Set(tc.results)
		before := c.Capture()
		c.Focus(s.List)
		if got := s.Highlighted(); got != 0 {
			t.Errorf("%s: Tab into the matches puts the keyboard on row %d, want the first", tc.query, got)
		}
		if lit := litRows(h, s, before); !slices.Equal(lit, []int{0}) {
			t.Errorf("%s: the rows lit are %v, want the first alone", tc.query, lit)
		}
		s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		want := []string{tc.results[0].ID, tc.results[1].ID}
		if diff := cmp.Diff(want, h.opened); diff != "" {
			t.Errorf("%s: Enter, then Down opened (-want +got):\n%s", tc.query, diff)
		}
		c.Focus(s.Search)
	}

	// The same search's matches again (a message came): the keyboard
	// stays on its chat, not back on the first.
	c.Focus(s.List)
	s.Searching("one two")
	res := []Item{{ID: "x", Title: "chat x"}, {ID: "y", Title: "chat y", Current: true}, {ID: "z", Title: "chat z"}}
	s.Set(res)
	if got := s.Highlighted(); got != 1 {
		t.Errorf("the same search again moved the keyboard to row %d, want it on y (1)", got)
	}
	// y is deleted: the keyboard goes to the open chat, not the index.
	s.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	s.Set([]Item{{ID: "x", Title: "chat x", Current: true}, {ID: "y", Title: "chat y"}})
	s.Set([]Item{{ID: "x", Title: "chat x", Current: true}})
	if got := s.Highlighted(); got != 0 {
		t.Errorf("with its chat gone the keyboard is on row %d, want the open chat's (0)", got)
	}
}

// litRows are the list's rows drawn otherwise with the list focused than
// in before, a capture of the window without.
func litRows(h *fakeHost, s *Sidebar, before image.Image) []int {
	img := h.win.Canvas().Capture()
	scale := float32(img.Bounds().Dx()) / h.win.Canvas().Size().Width
	drv := fyne.CurrentApp().Driver()
	var lit []int
	for _, r := range s.rows {
		if r.seen != s.epoch {
			continue
		}
		at := drv.AbsolutePositionForObject(r)
		x, y := int((at.X+2)*scale), int((at.Y+r.Size().Height/2)*scale)
		if !sameColor(img.At(x, y), before.At(x, y)) {
			lit = append(lit, r.index)
		}
	}
	slices.Sort(lit)
	return lit
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
