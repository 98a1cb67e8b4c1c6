package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A panel (the servers, a server's tools, the settings, a server's
// resources, the add-a-server form) is drawn inside the main window, in
// place of the chat; the sidebar stays, and "Back to the chat", Escape or
// a chat chosen in the sidebar bring the chat back. Each was a window of
// its own: another GL context and canvas, about 10 to 25 MB each, kept for
// the life of the process, and windows a person had to find again behind
// the main one.
//
// A panel offers itself as a fyne.Window, so that the code of each view
// and the dialogs it opens (on its canvas) are the same as in a window of
// their own: its canvas is the main window's, except for the keys, which
// the panel holds while it is shown and gives back when it is hidden.
type panel struct {
	fyne.Window // the main window, for what a panel does not change
	ui          *UI
	title       string
	content     fyne.CanvasObject
	heading     *widget.Label
	back        *widget.Button
	backLabel   string // where back goes, as a view inside says it (SetBackLabel); "" for the default
	body        *fyne.Container
	view        fyne.CanvasObject // heading and body: what takes the chat's place
	intercept   func()            // what closing asks for (SetCloseIntercept)
	onClosed    func()
	canvas      *panelCanvas
	under       *panel // the panel this one was opened over: back to it when this one goes
}

func (u *UI) newPanel(title string) *panel {
	p := &panel{Window: u.win, ui: u, title: title}
	p.canvas = &panelCanvas{Canvas: u.win.Canvas(), p: p, shortcuts: map[string]panelShortcut{}}
	p.heading = widget.NewLabelWithStyle(panelHeading(title), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.heading.Truncation = fyne.TextTruncateEllipsis
	p.back = widget.NewButtonWithIcon(backToChat, theme.NavigateBackIcon(), p.close)
	p.back.Importance = widget.LowImportance
	top := container.NewVBox(container.NewBorder(nil, nil, p.back, nil, container.NewPadded(p.heading)), widget.NewSeparator())
	p.body = container.NewStack()
	// top first among the objects, as drawn: Tab follows their order, and
	// "Back to the chat" came after everything in the panel.
	p.view = container.New(layout.NewBorderLayout(top, nil, nil, nil), top, p.body)
	return p
}

const backToChat = "Back to the chat"

// SetBackLabel says where the back button goes, when a view inside the
// panel sends it elsewhere (a server's tools: back to the servers, with
// SetCloseIntercept); "" is where the panel goes back to. The view has no
// title row of its own: the panel's is the one (the tools page had two,
// "Back to the chat · Tools of everything" over "‹ Servers · Tools of
// everything").
func (p *panel) SetBackLabel(label string) {
	p.backLabel = label
	p.labelBack()
}

// labelBack names where the back button goes: the view's word for it, or
// the panel this one was opened over, or the chat. The connect form and a
// server's resources, opened over the servers, went back to them under
// "Back to the chat".
func (p *panel) labelBack() {
	label := p.backLabel
	switch {
	case label != "":
	case p.under != nil:
		label = p.under.heading.Text
	default:
		label = backToChat
	}
	p.back.SetText(label)
}

// panelHeading is a panel's title without the "Deckhand: " windows had.
func panelHeading(title string) string {
	const prefix = "Deckhand: "
	if len(title) > len(prefix) && title[:len(prefix)] == prefix {
		t := title[len(prefix):]
		return string(t[0]-'a'+'A') + t[1:]
	}
	return title
}

// close is what the back button and Escape do: what the view asked for
// (SetCloseIntercept), or hide.
func (p *panel) close() {
	if p.intercept != nil {
		p.intercept()
		return
	}
	p.Hide()
}

func (p *panel) shown() bool { return p.ui.panel == p }

// showPlace shows a panel the sidebar's buttons (or their shortcuts) open:
// a place of its own, not one over the panel shown, so that Back, Escape
// and Save go to the chat, as the back button says. Settings opened while
// the servers showed went back to the servers on Save.
func (u *UI) showPlace(show func()) {
	show()
	if p := u.panel; p != nil {
		p.under = nil
		p.labelBack()
	}
}

func (p *panel) Title() string { return p.title }
func (p *panel) SetTitle(t string) {
	p.title = t
	p.heading.SetText(panelHeading(t))
}

func (p *panel) Content() fyne.CanvasObject { return p.content }
func (p *panel) SetContent(c fyne.CanvasObject) {
	p.content = c
	p.body.Objects = []fyne.CanvasObject{c}
	p.body.Refresh()
}
func (p *panel) Canvas() fyne.Canvas { return p.canvas }

// Show puts the panel in place of the chat (or of the panel shown), and
// brings the main window to the front.
func (p *panel) Show() {
	u := p.ui
	u.sweep.touch(u) // what it replaces leaves the screen: see sweeper
	if u.panel != p {
		p.under = nil
		if u.panel != nil {
			u.panel.uninstall()
			if u.panel.under != p {
				p.under = u.panel
			}
		}
		u.panel = p
		// The chat stays in the window, hidden under the panel: Fyne
		// applies a new theme only to what is in a window, and a widget
		// that was not keeps what it drew in the old one (the model
		// picker's ▾, light grey on the light theme's white, until a
		// restart).
		u.chatArea.Hide()
		u.mainArea.Objects = []fyne.CanvasObject{u.chatArea, p.view}
		u.mainArea.Refresh()
		u.pane.ScrollToOffset(fyne.Position{}) // the new view from its start
		p.install()
		p.labelBack()
	}
	if u.hidden {
		u.showMain()
	}
}

// Hide brings back the panel this one was opened over, or the chat (and
// the keyboard to the message box).
func (p *panel) Hide() {
	u := p.ui
	if u.panel != p {
		return
	}
	p.uninstall()
	u.panel = nil
	u.sweep.touch(u) // the panel leaves the screen: see sweeper
	if under := p.under; under != nil {
		p.under = nil
		under.Show()
		return
	}
	u.mainArea.Objects = []fyne.CanvasObject{u.chatArea}
	u.chatArea.Show()
	u.mainArea.Refresh()
	// A panel scrolled sideways left the chat so (its title, the
	// paperclip and the box's edge under the sidebar).
	u.pane.ScrollToOffset(fyne.Position{})
	u.focusInput()
}

func (p *panel) Close() {
	p.Hide()
	if p.onClosed != nil {
		p.onClosed()
	}
}

func (p *panel) RequestFocus() {
	p.Show()
	p.ui.win.RequestFocus()
}

func (p *panel) SetCloseIntercept(f func())                   { p.intercept = f }
func (p *panel) SetOnClosed(f func())                         { p.onClosed = f }
func (p *panel) Resize(fyne.Size)                             {}
func (p *panel) SetIcon(fyne.Resource)                        {}
func (p *panel) CenterOnScreen()                              {}
func (p *panel) SetFixedSize(bool)                            {}
func (p *panel) SetFullScreen(bool)                           {}
func (p *panel) SetPadded(bool)                               {}
func (p *panel) SetMaster()                                   {}
func (p *panel) SetMainMenu(*fyne.MainMenu)                   {}
func (p *panel) SetOnDropped(func(fyne.Position, []fyne.URI)) {}
func (p *panel) ShowAndRun()                                  { p.Show() }

// install gives the panel's keys to the main window's canvas.
func (p *panel) install() {
	real := p.canvas.Canvas
	p.canvas.saved = real.OnTypedKey()
	if p.canvas.onKey != nil {
		real.SetOnTypedKey(p.canvas.onKey)
	}
	for _, s := range p.canvas.shortcuts {
		real.AddShortcut(s.s, s.f)
	}
	// The keyboard goes to the panel: Tab reaches its first field.
	real.Unfocus()
}

// uninstall gives the main window its own keys back.
func (p *panel) uninstall() {
	real := p.canvas.Canvas
	for _, s := range p.canvas.shortcuts {
		real.RemoveShortcut(s.s)
	}
	real.SetOnTypedKey(p.canvas.saved)
	p.ui.mainShortcuts()
}

// panelCanvas is the main window's canvas, but keys set on it belong to
// the panel: they are the window's only while the panel is shown.
type panelCanvas struct {
	fyne.Canvas
	p         *panel
	onKey     func(*fyne.KeyEvent)
	saved     func(*fyne.KeyEvent) // the window's, while the panel is shown
	shortcuts map[string]panelShortcut
}

type panelShortcut struct {
	s fyne.Shortcut
	f func(fyne.Shortcut)
}

func (c *panelCanvas) OnTypedKey() func(*fyne.KeyEvent) { return c.onKey }
func (c *panelCanvas) SetOnTypedKey(f func(*fyne.KeyEvent)) {
	c.onKey = f
	if c.p.shown() {
		c.Canvas.SetOnTypedKey(f)
	}
}

func (c *panelCanvas) AddShortcut(s fyne.Shortcut, f func(fyne.Shortcut)) {
	c.shortcuts[s.ShortcutName()] = panelShortcut{s, f}
	if c.p.shown() {
		c.Canvas.AddShortcut(s, f)
	}
}

func (c *panelCanvas) RemoveShortcut(s fyne.Shortcut) {
	delete(c.shortcuts, s.ShortcutName())
	if c.p.shown() {
		c.Canvas.RemoveShortcut(s)
	}
}

// Content is the panel's view: what a walk of "its window" should find.
func (c *panelCanvas) Content() fyne.CanvasObject { return c.p.view }

func (c *panelCanvas) SetContent(o fyne.CanvasObject) { c.p.SetContent(o) }
