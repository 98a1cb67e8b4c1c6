package gui

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/appview"
	"deckhand/gui/chat"
	"deckhand/gui/composer"
	"deckhand/gui/dialogs"
	serverspanel "deckhand/gui/servers"
	"deckhand/gui/settings"
	"deckhand/gui/setup"
	"deckhand/gui/sidebar"
	"deckhand/gui/tray"
	"deckhand/gui/widgets"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// Deps is what the window needs. App, System and Config are required.
type Deps struct {
	App    fyne.App
	System *actors.System
	Config *config.Config
	// Log is the event log, for the sessions sidebar and reopening past
	// sessions; nil shows only this run's conversations.
	Log *store.DB
	// Logger receives the window's own logs; nil discards them.
	Logger *slog.Logger
	// Icon is the window's and the tray's icon.
	Icon fyne.Resource
	// Tray puts a menu in the system tray; the caller checks that a tray
	// host exists (without one, closing the window quits).
	Tray bool
	// Probe looks for local model servers for the first-run panel.
	// Default: llm.Probe of llm.LocalEndpoints.
	Probe func(context.Context) []llm.Endpoint
	// LookupEnv reads the API key for the settings' Check. Default
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Notices are problems found before the window opened (the log could
	// not be opened), shown once it is up.
	Notices []string
	// Post runs a function on the UI goroutine. Default fyne.Do; tests
	// give a queue they drain.
	Post func(func())
	// Primary is the desktop's primary selection (X11's PRIMARY): text
	// selected in the transcript or the message box becomes it, and a
	// middle click in the message box pastes it. Nil: none (Fyne's test
	// driver; package desktop's is a no-op where there is none).
	Primary widgets.PrimarySelection
	// Quiet runs, on its own goroutine, once the window has been at rest
	// for a minute after being used, and has let go of what left the
	// screen (sweep.go): a moment to give freed memory back. Optional.
	Quiet func()
}

// UI is Deckhand's window and its companions (servers, settings, quick
// prompt). Its fields belong to the UI goroutine.
type UI struct {
	d      Deps
	log    *slog.Logger
	app    fyne.App
	win    fyne.Window
	cfg    *config.Config
	bridge *actor.PID
	// shortcutsShown is the list of shortcuts, while shown.
	shortcutsShown *dialog.CustomDialog
	// post runs f on the UI goroutine; tests replace it with a queue they
	// drain themselves, since the test driver would run f on the caller's
	// goroutine.
	post func(f func())

	// Main window.
	side       *sidebar.Sidebar // the sessions (gui/sidebar)
	title      *widget.Label
	chat       *chat.View            // the transcript (gui/chat)
	views      *appview.Views        // the tools' views, opened from their cards (gui/appview)
	input      *widgets.MessageEntry // the message box, the composer's
	comp       *composer.Composer    // the message box, the model picker and attachments (gui/composer)
	send, stop *widgets.RingButton   // ringed when focused: Fyne's tint of their fill does not show
	status     *widget.Label
	setup      *setup.Panel
	body       *fyne.Container // the chat, or the setup panel over it
	conv       string
	running    bool

	servers   []servers.ServerStatus
	catalog   *tools.Catalog
	serversW  *serverspanel.Panel
	settingsW fyne.Window
	settingsF *settings.Form   // the settings' fields, while settingsW exists
	quick     *tray.Prompt     // the quick prompt, once opened
	dialogs   *dialogs.Dialogs // approvals and servers' questions, one queue (gui/dialogs)

	quickID string // the quick prompt's conversation
	// atQuick: the person went to the quick prompt after the main window,
	// by Deckhand's own means (the tray, Ctrl+K, a notification). A dialog
	// for the quick prompt's conversation opens there while it shows, and
	// follows the person to the main window (showMain, that chat opened
	// there, a card's Approve or deny…). Fyne says nothing when a click moves
	// the focus from one window to the other.
	atQuick bool

	foreground bool
	notice     *notice           // the notices shown
	findOnOpen string            // a search's words, to find in the session being opened
	findRun    string            // the run the search found them in (chat.View.FindAt)
	mainArea   *fyne.Container   // the chat, or a panel in its place
	pane       *container.Scroll // mainArea's scroller, when it needs more than the window
	chatArea   fyne.CanvasObject
	panel      *panel // the panel shown, if one is
	hidden     bool   // the main window was closed to the tray

	openURL func(*url.URL) error // opens a link in the browser; tests replace it
	sweep   sweeper              // lets Fyne drop what left the screen, once at rest (sweep.go)
	relay   *widgets.KeyRelay    // the keys typed while the quick prompt opens (quickFromKeys)

	drafts drafts // each chat's unsent text (conversations_drafts.go)

	// busy names the chats with a run going, as the bridge last told;
	// quitting asks first while there is one (quit.go), and quitAsked is
	// that question while it shows.
	busy      []string
	quitAsked *dialog.CustomDialog
}

func (u *UI) quickConv() string { return u.quickID }

// New makes the window; Start shows it and connects it to the actors.
func New(d Deps) *UI {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if d.LookupEnv == nil {
		d.LookupEnv = os.LookupEnv
	}
	if d.Probe == nil {
		d.Probe = func(ctx context.Context) []llm.Endpoint { return llm.Probe(ctx, llm.LocalEndpoints) }
	}
	post := d.Post
	if post == nil {
		post = fyne.Do
	}
	u := &UI{d: d, log: log.With("actor", "window"), app: d.App, cfg: d.Config, post: post, foreground: true}
	u.openURL = openWith(d.App)
	u.dialogs = dialogs.New(dialogHost{u}, u.log)
	applyLook(d.App, d.Config.UI) // the theme and text size of the settings
	u.build()
	return u
}

// Window is the main window.
func (u *UI) Window() fyne.Window { return u.win }

// Start spawns the bridge actor and shows the window. Call it on the UI
// goroutine, before the app runs.
func (u *UI) Start() {
	sys := u.d.System
	b := &bridge{ui: u, sys: sys, db: u.d.Log, cfg: u.cfg}
	u.bridge = sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return b }))
	lc := u.app.Lifecycle()
	lc.SetOnEnteredForeground(func() {
		u.foreground = true
		u.dialogs.Back()
		u.tell(&uiRefresh{}) // another Deckhand may have run, or died mid-run, meanwhile
	})
	lc.SetOnExitedForeground(func() {
		u.foreground = false
		u.dialogs.Away()
		u.chat.Away()
	})
	if u.d.Tray {
		u.installTray()
	}
	u.win.Show()
	u.focusInput()
	u.loadDrafts()
	if !u.cfg.Model.Configured() {
		u.setup.Probe()
	}
	for _, n := range u.d.Notices {
		u.showError(n)
	}
}

// Stop closes the tools' views, ends the bridge actor and withdraws the
// notifications still asking: nobody is left to answer them.
func (u *UI) Stop() {
	if u.views != nil {
		u.views.CloseAll()
	}
	u.keepDrafts()
	u.dialogs.Close()
	if u.bridge != nil {
		u.d.System.Root.Stop(u.bridge)
	}
}

// SetTrayHost says whether a tray host is on the desktop now (the caller
// watches the session bus; call it on the UI goroutine). With one, closing
// the main window keeps Deckhand in the tray; without, closing quits, and a
// main window closed to the tray comes back, since there is no icon left
// to bring it back from. Start puts the tray menu in when Deps.Tray is set,
// with a host or not (its icon shows when one comes); this then says what
// closing does.
func (u *UI) SetTrayHost(up bool) {
	u.d.Tray = up
	if !up && u.hidden {
		u.showMain()
	}
}

// installTray puts Deckhand's menu in the system tray.
func (u *UI) installTray() {
	// The tray's menu opened: the pointer left the window for the tray
	// without a word from Fyne, and an answer's hover info stayed beside
	// the menu.
	tray.Install(u.app, u.d.Icon, u.showMain, u.showQuick, u.quit, func() { u.post(u.chat.Away) })
}

// showQuick opens the quick prompt (from the tray, or Ctrl+K).
func (u *UI) showQuick() {
	if u.quick == nil {
		u.quick = tray.New(u.app, u.d.Icon, quickHost{u})
	}
	u.quick.Show()
	u.goTo(true)
}

// goTo notes which window the person went to (the quick prompt's or the
// main one), and moves the open dialog there if it is for the quick
// prompt's conversation: one dialog per request, where the person is.
func (u *UI) goTo(quick bool) {
	u.atQuick = quick
	u.dialogs.Follow()
}

// quickFromKeys opens the quick prompt from the main window's keyboard:
// what is typed before its window has the keyboard goes into its box, not
// into the main window's.
func (u *UI) quickFromKeys() {
	if u.quick == nil {
		u.quick = tray.New(u.app, u.d.Icon, quickHost{u})
	}
	u.relay.Relay(u.win.Canvas(), u.quick.Entry)
	u.quick.Show()
	u.goTo(true)
}

// quickHost is the main window as the quick prompt's host.
type quickHost struct{ u *UI }

func (h quickHost) Configured() bool { return h.u.cfg.Model.Configured() }
func (h quickHost) Ask(text string)  { h.u.tell(&uiQuickPrompt{text: text}) }
func (h quickHost) ToMain() {
	h.u.tell(&uiQuickToMain{})
	h.u.showMain()
}

// Hidden: a dialog still open on the quick prompt (its window closed
// while it asked) moves to the main window.
func (h quickHost) Hidden() { h.u.goTo(false) }

// Quit is Ctrl+Q in the quick prompt: asked there while a run goes.
func (h quickHost) Quit() { h.u.quitOn(h.u.quick.Window()) }

func (h quickHost) RetryNow(run string, try int) { h.u.tell(&uiQuickRetryNow{run: run, try: try}) }

// Answer brings up, in the quick prompt, the approval of its call
// (the model's id), from its line's Approve or deny….
func (h quickHost) Answer(call string) {
	h.u.atQuick = true
	h.u.dialogs.Approvals.Bring(h.u.quickID, call)
}

// dialogHost is the main window as the dialogs' host.
type dialogHost struct{ u *UI }

func (h dialogHost) Window() fyne.Window { return h.u.win }
func (h dialogHost) QuickWindow() fyne.Window {
	if q := h.u.quick; q != nil && q.Visible() && h.u.atQuick {
		return q.Window()
	}
	return nil
}
func (h dialogHost) Front() fyne.Window {
	switch q := h.QuickWindow(); {
	case !h.u.foreground:
		return nil
	case q != nil:
		return q
	case h.u.hidden:
		return nil
	}
	return h.u.win
}
func (h dialogHost) QuickConv() string { return h.u.quickID }
func (h dialogHost) Hidden() bool      { return h.u.hidden }
func (h dialogHost) ShowMain()         { h.u.showMain() }
func (h dialogHost) ShowQuick()        { h.u.showQuick() }
func (h dialogHost) BackToView(conv, tool string) {
	if h.u.views != nil {
		h.u.views.Raise(conv, tool)
	}
}
func (h dialogHost) Tell(msg any)                { h.u.tell(msg) }
func (h dialogHost) Post(f func())               { h.u.post(f) }
func (h dialogHost) ShowError(msg string)        { h.u.showError(msg) }
func (h dialogHost) OpenURL(link *url.URL) error { return h.u.openURL(link) }
func (h dialogHost) Clipboard() fyne.Clipboard   { return h.u.app.Clipboard() }

// tell sends the bridge a message from the window.
func (u *UI) tell(msg any) {
	if u.bridge != nil {
		u.d.System.Root.Send(u.bridge, msg)
	}
}

func (u *UI) build() {
	u.win = u.app.NewWindow("Deckhand")
	if u.d.Icon != nil {
		u.win.SetIcon(u.d.Icon)
	}

	u.side = sidebar.New(sidebarHost{u})

	// The chat.
	u.title = widget.NewLabelWithStyle("New chat", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	u.title.Truncation = fyne.TextTruncateEllipsis
	u.views = appview.New(chatHost{u}, u.log)
	u.chat = chat.New(chatHost{u}, u.views)
	u.comp = composer.New(composerHost{u}, u.log, u.sendInput)
	u.input = u.comp.Entry
	u.input.OnPress = func() { u.chat.Sel.Clear() }
	if p := u.d.Primary; p != nil {
		u.chat.Sel.Primary = p.Set
		u.input.Primary = p
	}
	u.send = widgets.NewRingButtonWithIcon("Send", theme.MailSendIcon(), u.sendInput)
	u.send.Importance = widget.HighImportance
	u.stop = widgets.NewRingButtonWithIcon("Stop", theme.MediaStopIcon(), func() { u.tell(&uiStop{}) })
	u.stop.Importance = widget.DangerImportance
	u.stop.Hide()
	var statusObj fyne.CanvasObject
	u.status, statusObj = widgets.Caption("")
	u.status.Truncation = fyne.TextTruncateEllipsis
	inputRow := u.comp.Content(container.NewStack(u.send, u.stop))
	u.setup = setup.New(setupHost{u})
	u.setup.Bar().Hide()
	u.body = container.NewStack(u.chat.Content())
	head := container.NewVBox(container.NewPadded(u.title), widget.NewSeparator(), u.chat.Find.Bar)
	area := container.NewBorder(
		head,
		container.NewVBox(u.setup.Bar(), widget.NewSeparator(), container.NewPadded(inputRow), statusObj),
		nil, nil,
		u.body,
	)
	u.chatArea = area
	u.setup.Resized = area.Refresh // the set-up notice's servers found
	u.chat.Find.Relayout = func() {
		head.Refresh()
		area.Layout.Layout(area.Objects, area.Size())
	}
	u.mainArea = container.NewStack(u.chatArea) // or a panel (panel.go)
	u.showSetup()

	// What needs more than the window (a panel at 150% text on a 640-pixel
	// screen) scrolls in it: Fyne grows a window to its content's minimum,
	// past the screen's edge, and never shrinks it back.
	u.relay = widgets.NewKeyRelay() // hidden, at no size (quickFromKeys)
	u.pane = container.NewScroll(container.NewStack(u.mainArea, container.NewWithoutLayout(u.relay)))
	split := container.NewHSplit(u.side.Object(), u.pane)
	split.Offset = 0.24
	u.win.SetContent(split)
	u.win.Resize(fyne.NewSize(1100, 720))

	u.input.Shortcuts = u.ctrlShortcuts() // shortcuts.go
	u.input.OnHelp = u.showShortcuts
	u.input.OnDeleteEmpty = u.side.AskDeleteOpened // right after a click on a chat in the list
	u.input.OnEscape = func() {
		if u.running {
			u.tell(&uiStop{})
		}
	}
	u.input.OnPage = u.chat.Page // shortcuts.go
	u.input.OnEnds = u.chatEnds
	u.mainShortcuts()
	u.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch {
		case k.Name == fyne.KeyEscape && u.running:
			u.tell(&uiStop{})
		case k.Name == fyne.KeyF1:
			u.showShortcuts()
		default:
			u.readingKey(k.Name)
		}
	})
	u.win.SetCloseIntercept(u.closeMain)
	u.win.SetOnDropped(u.comp.Dropped) // files dropped anywhere are attached
}

// mainShortcuts gives the main window's canvas its shortcuts (again,
// after a panel had some of the keys).
func (u *UI) mainShortcuts() {
	for key, f := range u.input.Shortcuts {
		u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) {
			// Not under a dialog or notice: Ctrl+, opened the settings
			// behind it. Ctrl+Q quits (or asks) from under one too: an
			// approval waiting is a run going, which it asks about.
			if u.win.Canvas().Overlays().Top() == nil || key == fyne.KeyQ {
				f()
			}
		})
	}
	// Ctrl+C copies the text selected in the transcript (a press there
	// takes the focus from the message box).
	u.win.Canvas().AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) { u.chat.Sel.Copy() })
	// Ctrl+Home and Ctrl+End outside the message box (a click in the
	// transcript, a message's button): the chat's start and end.
	for _, key := range []fyne.KeyName{fyne.KeyHome, fyne.KeyEnd} {
		u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) {
			if u.reading() {
				u.chatEnds(key == fyne.KeyHome)
			}
		})
	}
}

// toChat brings the chat back in place of a panel, if one is shown.
func (u *UI) toChat() {
	if p := u.panel; p != nil {
		p.under = nil
		p.Hide()
	}
}

// closeMain is the window's close button: with a tray, Deckhand keeps
// running there; without one, closing the window quits.
func (u *UI) closeMain() {
	if u.d.Tray {
		u.hidden = true
		u.win.Hide()
		u.dialogs.Away()
		return
	}
	u.quit() // asks first while a run is going (quit.go)
}

func (u *UI) sendInput() {
	if u.comp != nil && u.comp.Slash.Enter() {
		return // a prompt's name: its arguments are asked first
	}
	text := u.input.Text
	attached, reading := u.comp.Ready()
	if u.input.Blank() && len(attached) == 0 && !reading {
		return
	}
	if !u.cfg.Model.Configured() {
		// Say why the settings opened, and start where the answer goes;
		// the message stays in the box for when a model is chosen.
		u.showSettings()
		u.settingsF.ChooseModel("Choose a service and a model first, then Save: your message stays in the box, to send after.")
		return
	}
	if reading {
		u.showError("The attached files are still being read: send again in a moment.")
		return
	}
	if u.input.Blank() {
		text = ""
	}
	u.saveDraft(u.draftKey(u.conv), "") // sent: no longer a draft
	u.input.SetText("")
	u.comp.Clear()
	u.chat.Follow = true
	u.tell(&uiComposerSend{text: text, attachments: attached})
}

// showMain brings the main window back (from the tray, or the quick
// prompt); the person is at it.
func (u *UI) showMain() {
	u.hidden = false
	u.win.Show()
	u.win.RequestFocus()
	u.goTo(false)
}

// AnswerCall brings up the approval of conversation conv's call (the
// model's id) in the main window, from its card's Approve or deny…: the
// person is at the main window, whichever window the dialog was on.
func (h chatHost) AnswerCall(conv, call string) {
	h.u.atQuick = false
	h.u.dialogs.Approvals.Bring(conv, call)
}

// apply draws one frame's changes. It runs on the UI goroutine.
func (u *UI) apply(up *update) {
	u.sweep.touch(u)
	prev := u.conv
	if up.conv != "" {
		if up.reset || up.conv != u.conv {
			switched := up.conv != u.conv
			if switched {
				u.swapDraft(prev, up.conv, len(up.rows) == 0)
			}
			u.conv = up.conv
			u.chat.Reset(up.conv, up.rows)
			// A new chat or another session: type at once, unless the
			// person is going through the sidebar's list with the keys.
			if switched && (u.quick == nil || !u.quick.Visible()) && u.win.Canvas().Focused() != fyne.Focusable(u.side.List) {
				u.focusInput()
			}
			if switched {
				// Opened from a search: at its match, in the find bar;
				// any other chat opens without the last one's find.
				if q := u.findOnOpen; q != "" {
					u.findOnOpen = ""
					u.chat.FindAt(q, u.findRun)
				} else {
					u.chat.Find.Hide()
				}
			}
		} else {
			u.chat.Update(up.n, up.changed)
		}
		u.showSetup() // an empty chat, or one with messages
		if up.running != u.running {
			u.running = up.running
			u.chat.SetRunning(up.running)
			if up.running {
				u.send.Hide()
				u.stop.Show()
			} else {
				u.stop.Hide()
				u.send.Show()
			}
		}
	}
	if up.status != "" {
		u.status.SetText(up.status)
		u.comp.SetQuiet(up.quiet)
	}
	if up.servers != nil {
		u.servers = up.servers
		if u.serversW != nil {
			u.serversW.Refresh()
		}
	}
	if up.catalog != nil {
		u.catalog = up.catalog
		if u.serversW != nil {
			u.serversW.Refresh()
		}
		u.chat.ToolsChanged() // their cards' Open view
	}
	if up.sessionsSet {
		u.side.Set(up.sessions)
		u.title.SetText(up.title)
	}
	if up.quick != nil && u.quick != nil {
		u.quick.Update(up.quick)
	}
	if up.quickConv != "" {
		u.quickID = up.quickConv
	}
	if up.conv != "" && up.conv != prev && up.conv == u.quickID {
		// The quick prompt's chat opened in the main window (from the
		// sidebar, or Open in main window): its approval comes along, from
		// the quick prompt left behind.
		u.goTo(false)
	}
	if up.approvalsSet {
		u.dialogs.Approvals.Set(up.approvals, up.timedOut...)
	}
	if up.busySet {
		u.busy = up.busy
	}
	for _, n := range up.notices {
		u.showError(n)
	}
}

// showError tells the person something went wrong, without stopping them.
// Notices that come while one is shown join it, in one box, rather than
// stacking box over box; the same notice again is counted, not repeated.
func (u *UI) showError(text string) {
	u.log.Warn("shown to the person", "text", text)
	u.showNotice(text)
}

// showInfo tells the person something done as they asked (an export
// written), in the same box, logged as information.
func (u *UI) showInfo(text string) {
	u.log.Info("shown to the person", "text", text)
	u.showNotice(text)
}

// showNotice shows text in the box of notices.
func (u *UI) showNotice(text string) {
	if u.notice == nil {
		u.notice = &notice{}
	}
	n := u.notice
	for _, l := range n.lines {
		if l.text == text {
			l.count++
			l.label.SetText(fmt.Sprintf("%s (%d times)", text, l.count))
			return
		}
	}
	d := widget.NewLabel(text)
	d.Wrapping = fyne.TextWrapWord
	if len(n.lines) >= maxNotices {
		n.lines[0].label.Hide() // the oldest goes: the box stays on the screen
		n.lines = n.lines[1:]
	}
	n.lines = append(n.lines, &noticeLine{text: text, count: 1, label: d})
	if n.popup != nil {
		n.box.Add(d)
		n.fit(u.win.Canvas().Size())
		return
	}
	n.box = container.NewVBox(d)
	n.scroll = container.NewVScroll(n.box)
	ok := widget.NewButton("OK", nil)
	n.popup = widget.NewModalPopUp(container.NewBorder(nil, ok, nil, nil, n.scroll), u.win.Canvas())
	restore := func() {}
	ok.OnTapped = func() {
		n.popup.Hide()
		n.popup, n.box, n.lines = nil, nil, nil
		restore()
	}
	// Enter and Escape close it, as OK does; the window's keys (F1) wait.
	// Not over a dialog that asks (gui/dialogs): that one holds the keys
	// and gives them back when it closes, which may come first. One open
	// on the quick prompt holds that window's keys only: here, Escape
	// went on to the message box and stopped the answer behind.
	if u.dialogs.Waiting() == 0 || u.win.Canvas().Overlays().Top() == nil {
		restore = widgets.DialogKeys(u.win, ok.OnTapped, ok.OnTapped)
	}
	n.fit(u.win.Canvas().Size())
	n.popup.Show()
}

// fit sizes the box to its notices, within the window.
func (n *notice) fit(win fyne.Size) {
	w := min(float32(420), win.Width-40)
	// The labels wrap to the box's width: their height is known once they
	// have it.
	n.box.Resize(fyne.NewSize(w-theme.Padding()*4, n.box.MinSize().Height))
	n.scroll.SetMinSize(fyne.NewSize(w-theme.Padding()*4, min(n.box.MinSize().Height, win.Height-140)))
	n.popup.Resize(fyne.NewSize(w, n.popup.MinSize().Height))
}

// notice is the box of notices shown, if one is.
type notice struct {
	popup  *widget.PopUp
	box    *fyne.Container
	scroll *container.Scroll
	lines  []*noticeLine
}

type noticeLine struct {
	text  string
	count int
	label *widget.Label
}

// maxNotices is how many different notices one box holds.
const maxNotices = 6

// setConfig makes cfg the config of the window and of every conversation.
func (u *UI) setConfig(cfg *config.Config) {
	was := u.cfg.Model.Configured()
	u.cfg = cfg
	u.tell(&uiConfigChanged{cfg: cfg})
	u.showSetup()
	if was && !cfg.Model.Configured() {
		u.setup.Probe() // the servers on this machine, to choose from again
	}
}

// showSetup shows the chat, and while no model is set up says so: in
// the place of an empty chat (the first-run panel), or above the message
// box under a chat with messages, which stay readable. (New-user pass 13:
// with the model's name gone from the config, every past chat opened
// showed the panel instead of its messages.)
func (u *UI) showSetup() {
	var want fyne.CanvasObject = u.chat.Content()
	bar := false
	if !u.cfg.Model.Configured() {
		if len(u.chat.Rows) == 0 {
			want = u.setup.Content()
		} else {
			bar = true
		}
	}
	if len(u.body.Objects) != 1 || u.body.Objects[0] != want {
		u.body.Objects = []fyne.CanvasObject{want}
		u.body.Refresh()
	}
	if b := u.setup.Bar(); b.Visible() != bar {
		if bar {
			b.Show()
		} else {
			b.Hide()
		}
		if c, ok := u.chatArea.(*fyne.Container); ok {
			c.Refresh() // the message box's row, under it, moves
		}
	}
}

// keepFocus notes where the keyboard focus is, before a dialog takes it;
// the function returned puts it back (where it still can go), so that
// what a person types after answering lands where it did before.
func (u *UI) keepFocus() func() {
	c := u.win.Canvas()
	prev := c.Focused()
	return func() {
		if prev == nil {
			u.focusInput()
			return
		}
		if o, ok := prev.(fyne.CanvasObject); ok && !o.Visible() {
			u.focusInput()
			return
		}
		c.Focus(prev)
	}
}

// focusInput gives the message box the keyboard.
func (u *UI) focusInput() { u.win.Canvas().Focus(u.input) }
