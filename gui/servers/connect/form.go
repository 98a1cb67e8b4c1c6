package connect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/policy"
)

// Form connects a new server, or edits one: a URL, or a command with
// its arguments, environment and folder; an alias; the variable holding a
// URL server's token. It stays open until the server connected, listed its
// tools and was saved, or the person gave up: a server that fails is never
// written to the config, and the whole reason is shown in the form, with
// what was typed kept to fix it.
type Form struct {
	h       Host
	editing string        // the alias of the server edited; "" for a new one
	base    config.Server // the edited server, for the settings the form does not show

	Win       fyne.Window
	Kind      *widgets.EscRadio
	Target    *formEntry
	Alias     *formEntry
	AliasNote *widget.Label // what the alias will be, or why it cannot be
	AuthEnv   *formEntry
	transport *widgets.EscSelect
	Env       *formEntry
	cwd       *formEntry
	// A command server's sandbox: confined or not, its network (all,
	// none, or only hosts), the folders it may also read and write, and
	// the secrets passed on to it.
	confined *widgets.EscCheck
	network  *widgets.EscSelect
	hosts    *formEntry
	read     *formEntry
	write    *formEntry
	Secrets  *formEntry
	// SecretBox holds a row for each secret Secrets names (secrets.go).
	SecretBox  *fyne.Container
	secretRows map[string]*secretRow
	// Enabled: connected at start (config's disabled, inverted); only
	// when editing: a new server is tried, then saved on.
	Enabled *widgets.EscCheck
	// The form's items: those of every server, and those of one kind.
	common, commandOnly, urlOnly []*widget.FormItem

	form *widget.Form

	busy     *widget.Label // "Connecting to …"
	activity *widget.Activity
	Problem  *widget.Label     // why the last try failed: selectable, scrolled, copyable
	Heading  *widget.Label     // the problem's: "Could not connect", or the form's mistake
	heading  string            // Heading's text as the problem was found
	stale    bool              // a field the problem is about changed since
	Problems fyne.CanvasObject // its box, hidden until a failure
	scroll   *container.Scroll // the fields and the reason
	Copy     *widgets.RingButton
	Submit   *widgets.RingButton
	stop     context.CancelFunc // ends the try under way; nil when none is
	Closed   bool
	onDone   func(alias string) // for tests: called once saved
	// granted are the argument folders the person has been asked about
	// (and answered), so that a second try does not ask again.
	granted map[string]bool
	grant   *dialog.CustomDialog // the question shown, for tests
}

// The network choices, as the form says them.
const (
	networkAll   = "All"
	networkNone  = "None"
	networkHosts = "Only these hosts:"
)

// Open opens the form: for a new server (editing "", base empty), or on
// the configured server editing, with values the fields it shows.
func Open(h Host, editing string, base config.Server, values config.ServerForm) *Form {
	f := &Form{h: h, editing: editing, base: base}
	f.Kind = widgets.NewEscRadio([]string{"URL", "Command"})
	f.Target = newFormEntry(f, false)
	f.Alias = newFormEntry(f, false)
	f.Alias.SetPlaceHolder("derived from the URL or command")
	f.AliasNote = widget.NewLabel("")
	f.AliasNote.Wrapping = fyne.TextWrapWord
	f.AuthEnv = newFormEntry(f, false)
	f.AuthEnv.SetPlaceHolder("EXAMPLE_TOKEN (optional)")
	f.transport = widgets.NewEscSelect([]string{config.TransportAuto, config.TransportStreamable, config.TransportSSE})
	f.Env = newFormEntry(f, true)
	f.Env.SetPlaceHolder("NAME=value, one a line (optional)")
	f.Env.SetMinRowsVisible(3)
	f.cwd = newFormEntry(f, false)
	f.cwd.SetPlaceHolder("the workspace (optional)")

	f.confined = widgets.NewEscCheck("Confined by the kernel (recommended)")
	f.network = widgets.NewEscSelect([]string{networkAll, networkNone, networkHosts})
	f.hosts = newFormEntry(f, false)
	f.hosts.SetPlaceHolder("api.github.com, *.example.com")
	f.network.OnChanged = func(choice string) {
		f.edited()
		if choice == networkHosts {
			f.hosts.Enable()
		} else {
			f.hosts.Disable()
		}
	}
	f.read = newFormEntry(f, true)
	f.read.SetPlaceHolder("~/notes (one folder a line; optional)")
	f.read.SetMinRowsVisible(2)
	f.write = newFormEntry(f, true)
	f.write.SetPlaceHolder("~/projects/site (one folder a line; optional)")
	f.write.SetMinRowsVisible(2)
	f.Enabled = widgets.NewEscCheck("Enabled: connect it at start")
	f.Enabled.SetChecked(!base.Disabled)
	f.Secrets = newFormEntry(f, false)
	f.Secrets.SetPlaceHolder("GITHUB_TOKEN (names of variables; optional)")
	f.SecretBox = container.NewVBox()

	// The wheel over any field moves the form (Fyne gives it to the
	// field's own scroller); the multi-line ones grow with their text, so
	// they never need to scroll themselves.
	page := func() *container.Scroll { return f.scroll }
	// And Tab onto any field brings it into view (at 640x480 the fields
	// below the fold took the keys unseen).
	for _, e := range []*formEntry{f.Target, f.Alias, f.AuthEnv, f.Env, f.cwd, f.hosts, f.read, f.write, f.Secrets} {
		e.InPage(page)
	}
	f.Kind.InPage(page)
	f.transport.InPage(page)
	f.network.InPage(page)
	f.confined.InPage(page)
	f.Enabled.InPage(page)
	widgets.Growing(&f.Env.Entry, 3)
	widgets.Growing(&f.read.Entry, 2)
	widgets.Growing(&f.write.Entry, 2)
	envItem := &widget.FormItem{Text: "Environment", Widget: widgets.OverPage(f.Env, page), HintText: "added to the server's environment; secrets are better passed with Secrets below"}
	cwdItem := widget.NewFormItem("Working folder", widgets.OverPage(f.cwd, page))
	sandboxItems := []*widget.FormItem{
		{Text: "Sandbox", Widget: f.confined, HintText: "it sees only the system, its own install, the workspace and the folders below; never your keys, display or session"},
		{Text: "Network", Widget: container.NewBorder(nil, nil, f.network, nil, widgets.OverPage(f.hosts, page)), HintText: "only these hosts: through Deckhand's proxy, each connection logged"},
		{Text: "Also reads", Widget: widgets.OverPage(f.read, page)},
		{Text: "Also writes", Widget: widgets.OverPage(f.write, page)},
		{Text: "Secrets", Widget: container.NewVBox(widgets.OverPage(f.Secrets, page), f.SecretBox), HintText: "the variables the server reads its secrets from; paste each value: it is kept in the system keyring for this server alone, never in the config file"},
	}
	authItem := &widget.FormItem{Text: "Token variable", Widget: widgets.OverPage(f.AuthEnv, page), HintText: "sent as Authorization: Bearer; the token itself is never saved"}
	transportItem := widget.NewFormItem("Transport", f.transport)
	f.commandOnly = widgets.WrappedHints(append([]*widget.FormItem{envItem, cwdItem}, sandboxItems...)...)
	f.urlOnly = widgets.WrappedHints(authItem, transportItem)
	f.common = widgets.WrappedHints(
		widget.NewFormItem("Kind", f.Kind),
		&widget.FormItem{Text: "URL or command", Widget: widgets.OverPage(f.Target, page), HintText: "a URL (https://…), or a command, split into arguments as a shell would"},
		widget.NewFormItem("Alias", container.NewVBox(widgets.OverPage(f.Alias, page), f.AliasNote)),
	)
	if editing != "" {
		f.common = append(f.common, widgets.WrappedHints(&widget.FormItem{Text: "On", Widget: f.Enabled,
			HintText: "off: kept in the config, not started until turned on (disabled = true)"})...)
	}
	f.form = widget.NewForm(append(slices.Clone(f.common), f.urlOnly...)...)

	f.busy = widget.NewLabel("")
	f.activity = widget.NewActivity()
	f.activity.Hide()
	f.Problem = widget.NewLabel("")
	f.Problem.Wrapping = fyne.TextWrapWord
	f.Problem.Selectable = true
	f.Problem.Importance = widget.DangerImportance
	f.Copy = formButton("Copy", theme.ContentCopyIcon(), f.copyProblem)
	f.Heading = widget.NewLabelWithStyle(headingTried, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	// Wrapped, beside Copy: once a field changed it reads "Could not
	// connect (the last try, before your change)", one bold line 579 px
	// wide with Copy at 125%, and the form grew past a 640 px window's
	// pane with it ("Connect and save" cut to "Co", the labels put beside
	// the fields for the width).
	f.Heading.Wrapping = fyne.TextWrapWord
	f.Problems = container.NewVBox(container.NewBorder(widget.NewSeparator(), nil, nil, f.Copy, f.Heading), f.Problem)
	f.Problems.Hide()

	title, action := "Connect a server", "Connect and save"
	if editing != "" {
		title, action = "Edit "+editing, "Save and reconnect"
	}
	if base.Disabled {
		action = "Save"
	}
	f.Submit = formButton(action, theme.ConfirmIcon(), f.trySubmit)
	f.Submit.Importance = widget.HighImportance
	f.Enabled.OnChanged = func(on bool) {
		f.edited()
		if on {
			f.Submit.SetText("Save and reconnect")
		} else {
			f.Submit.SetText("Save")
		}
	}
	cancel := formButton("Cancel", theme.CancelIcon(), f.cancel)
	f.busy.Truncation = fyne.TextTruncateEllipsis
	buttons := container.NewBorder(nil, nil, f.activity, container.NewHBox(cancel, f.Submit), f.busy)
	// A panel, not a dialog: as big as the window, with the servers a
	// click away.
	f.Win = h.NewPanel("Deckhand: " + strings.ToLower(title[:1]) + title[1:])
	if h.Icon() != nil {
		f.Win.SetIcon(h.Icon())
	}
	// The fields and the reason scroll; the buttons stay at the bottom,
	// in reach on any screen (the form alone is taller than a small one).
	f.scroll = container.NewVScroll(container.NewVBox(widgets.NarrowForm(f.form, func() { f.scroll.Refresh() }), f.Problems))
	f.Win.SetContent(container.NewPadded(container.NewBorder(nil, buttons, nil, nil, f.scroll)))
	f.Win.SetCloseIntercept(f.Close)
	// Escape and Ctrl+W cancel, as they close the other panels (the
	// fields take them too: formEntry). What was typed goes, as it goes
	// with Cancel, and with Escape in the settings.
	widgets.CloseKeys(f.Win, f.cancel, h.Quit)

	f.Kind.OnChanged = func(string) { f.kindChanged(); f.checkAlias(); f.edited() }
	f.Target.OnChanged = func(text string) {
		f.edited()
		// What is typed says what kind it is: an address is a URL, anything
		// else a command (the choice above follows, and can be changed).
		if t := strings.TrimSpace(text); len(t) > 3 {
			url := strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://")
			switch {
			case url && f.Kind.Selected != "URL":
				f.Kind.SetSelected("URL")
			case !url && !strings.HasPrefix("https://", t) && f.Kind.Selected != "Command":
				f.Kind.SetSelected("Command")
			}
		}
		f.checkAlias()
	}
	f.Alias.OnChanged = func(string) { f.checkAlias() }
	// Every other field bears on the try: the last reason is marked as
	// the last try's once one changes (the alias names the server only).
	for _, e := range []*formEntry{f.AuthEnv, f.Env, f.cwd, f.hosts, f.read, f.write} {
		e.OnChanged = func(string) { f.edited() }
	}
	f.Secrets.OnChanged = func(string) { f.edited(); f.showSecrets() }
	f.transport.OnChanged = func(string) { f.edited() }
	f.confined.OnChanged = func(bool) { f.edited() }
	// Enter in a one-line field connects, as the button does.
	for _, e := range []*formEntry{f.Target, f.Alias, f.AuthEnv, f.cwd, f.hosts, f.Secrets} {
		e.OnSubmitted = func(string) { f.trySubmit() }
	}
	f.fill(values)
	f.Win.Resize(fyne.NewSize(700, f.Win.Content().MinSize().Height))
	f.Win.Show()
	f.Win.Canvas().Focus(f.Target)
	return f
}

func (f *Form) fill(v config.ServerForm) {
	if v.Kind == "" {
		v.Kind = "URL"
	}
	if v.Transport == "" {
		v.Transport = config.TransportAuto
	}
	f.Target.SetText(v.Target)
	f.Alias.SetText(v.Alias)
	f.AuthEnv.SetText(v.AuthEnv)
	f.transport.SetSelected(v.Transport)
	f.Env.SetText(v.Env)
	f.cwd.SetText(v.Cwd)
	f.confined.SetChecked(!v.Unconfined)
	f.network.SetSelected(map[string]string{config.FormNetworkNone: networkNone, config.FormNetworkHosts: networkHosts}[v.Network])
	if f.network.Selected == "" {
		f.network.SetSelected(networkAll)
	}
	f.hosts.SetText(v.Hosts)
	f.read.SetText(v.Read)
	f.write.SetText(v.Write)
	f.Secrets.SetText(v.Secrets)
	f.showSecrets()
	f.Kind.SetSelected(v.Kind) // calls kindChanged
	f.kindChanged()
	f.checkAlias()
}

// kindChanged shows the fields of the kind of server picked.
func (f *Form) kindChanged() {
	url := f.Kind.Selected != "Command"
	if url {
		f.Target.SetPlaceHolder("https://mcp.example.com/mcp")
	} else {
		f.Target.SetPlaceHolder("npx -y @modelcontextprotocol/server-filesystem ~/Documents")
	}
	items := slices.Clone(f.common)
	if url {
		items = append(items, f.urlOnly...)
	} else {
		items = append(items, f.commandOnly...)
	}
	f.form.Items = items
	f.form.Refresh()
}

// values is what the form holds; command fields are left out of a URL
// server and the other way round (hidden, they may still hold text).
func (f *Form) values() config.ServerForm {
	v := config.ServerForm{Kind: f.Kind.Selected, Target: f.Target.Text, Alias: f.Alias.Text}
	if v.Kind == "Command" {
		v.Env, v.Cwd = f.Env.Text, f.cwd.Text
		v.Unconfined = !f.confined.Checked
		v.Network = map[string]string{networkNone: config.FormNetworkNone, networkHosts: config.FormNetworkHosts}[f.network.Selected]
		v.Hosts, v.Read, v.Write, v.Secrets = f.hosts.Text, f.read.Text, f.write.Text, f.Secrets.Text
	} else {
		v.AuthEnv, v.Transport = f.AuthEnv.Text, f.transport.Selected
	}
	return v
}

// checkAlias says, as the person types, what the server will be called,
// or why it cannot be; the same check stops a submit.
func (f *Form) checkAlias() error {
	alias := strings.TrimSpace(f.Alias.Text)
	derived := false
	if alias == "" {
		v := f.values()
		v.Alias = "x" // only the target matters here
		srv, _, err := v.Server(f.base)
		if err != nil || strings.TrimSpace(f.Target.Text) == "" {
			f.note("", nil)
			return nil // the target's own problem is said on submit
		}
		alias, derived = config.DeriveAlias(srv), true
	}
	err := aliasProblem(f.h, alias, f.editing)
	switch {
	case err != nil:
		f.note("", err)
	case derived:
		f.note(fmt.Sprintf("Saved as %q.", alias), nil)
	default:
		f.note("", nil)
	}
	return err
}

func (f *Form) note(text string, err error) {
	if err != nil {
		f.AliasNote.SetText(err.Error())
		f.AliasNote.Importance = widget.DangerImportance
	} else {
		f.AliasNote.SetText(text)
		f.AliasNote.Importance = widget.MediumImportance // the disabled colour of LowImportance was all but unreadable
	}
	// Always shown, empty or not: its line is kept, so that the fields
	// below do not move as the alias is typed or cleared.
	f.AliasNote.Refresh()
}

// aliasProblem says why alias cannot name a new server (or the server
// being edited, which may keep its own).
func aliasProblem(h Host, alias, editing string) error {
	if err := config.ValidAlias(alias); err != nil {
		return fmt.Errorf("alias %q: %w", alias, err)
	}
	if alias == editing {
		return nil
	}
	taken := false
	if _, ok := h.Config().MCP.Servers[alias]; ok {
		taken = true
	}
	for _, st := range h.Statuses() {
		if st.Alias == alias {
			taken = true
		}
	}
	if taken {
		return fmt.Errorf("a server named %q already exists: pick another alias", alias)
	}
	return nil
}

// trySubmit checks the form and tries the server; the form stays open
// until it connected and was saved.
func (f *Form) trySubmit() {
	if f.stop != nil {
		return // a try is under way
	}
	srv, alias, err := f.values().Server(f.base)
	if err == nil {
		err = aliasProblem(f.h, alias, f.editing)
		if err != nil {
			f.note("", err)
		}
	}
	if err != nil {
		// Nothing was tried: a mistake in what was typed, said as such
		// ("Environment, line 2: …").
		f.failWith(headingForm, sentence(err.Error()))
		return
	}
	u := f.h
	if f.editing != "" {
		srv.Disabled = !f.Enabled.Checked
	}
	if srv.Disabled {
		// Off: saved as it is, and stopped; it is tried when turned on.
		f.tried(alias, srv, trialResult{})
		return
	}
	// A folder its arguments name outside what it may use (server-filesystem
	// for ~/Documents) would be refused or silently replaced by the
	// workspace: ask, in the form, whether to grant it.
	var ask []string
	for _, a := range policy.New(u.Config(), u.LookupEnv).ArgFoldersOutside(srv) {
		if !f.granted[a] {
			ask = append(ask, a)
		}
	}
	if len(ask) > 0 && srv.SandboxOn() {
		f.askGrant(ask, len(ask) == len(policy.ArgFolders(srv)))
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	f.stop = stop
	// The last try's reason is about what was typed then: it goes as the
	// new try starts.
	f.Problems.Hide()
	f.Submit.Disable()
	f.busy.SetText("Connecting to " + srv.Endpoint() + "…")
	f.activity.Show()
	f.activity.Start()
	cfg := u.Config()
	typed, editing := f.typedSecrets(), f.editing
	go func() {
		// A server renamed takes its saved secrets with it.
		var moved []string
		if editing != "" && editing != alias {
			for _, name := range srv.AllowSecrets {
				if _, ok := typed[name]; ok {
					continue
				}
				if v, err := keys.ServerSecret(editing, name); err == nil {
					typed[name] = v
					moved = append(moved, name)
				}
			}
		}
		r := trial(ctx, u.LookupEnv, cfg, alias, srv, typed)
		if r.err == nil {
			r.err = keepSecrets(alias, typed)
		}
		if r.err == nil {
			for _, name := range moved {
				keys.RemoveSecret(editing, name)
			}
		}
		u.Post(func() { f.tried(alias, srv, r) })
	}()
}

// tried takes the outcome of a try: saves and closes, or says why not.
func (f *Form) tried(alias string, srv config.Server, r trialResult) {
	if f.stop != nil {
		f.stop()
		f.stop = nil
	}
	if f.Closed {
		return
	}
	f.activity.Stop()
	f.activity.Hide()
	f.busy.SetText("")
	f.Submit.Enable()
	u := f.h
	var nk *notKept
	if errors.As(r.err, &nk) {
		f.failWith(headingNotKept, nk.Error())
		return
	}
	if r.err != nil {
		f.fail(r.failure(u.Config(), alias, srv, u.LookupEnv))
		return
	}
	if err := u.Save(f.editing, alias, srv); err != nil {
		f.fail(err.Error())
		return
	}
	f.Close()
	if f.onDone != nil {
		f.onDone(alias)
	}
}

// The problem's headings: a try that failed, or a mistake found before
// trying.
const (
	headingTried = "Could not connect"
	headingForm  = "Not tried: fix this in the form"
	// The server connected, but a secret's value could not be kept.
	headingNotKept = "Connected, but not saved"
)

// sentence is an error as the start of a sentence: its first letter
// capitalised.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// fail shows why a try failed, in the form, which stays open.
func (f *Form) fail(why string) { f.failWith(headingTried, why) }

// failWith shows a problem under heading.
func (f *Form) failWith(heading, why string) {
	f.heading, f.stale = heading, false
	f.Heading.SetText(heading)
	f.Problem.Importance = widget.DangerImportance
	f.Problem.SetText(why)
	f.Problems.Show()
	// Lay the page out with the reason, then bring the reason's start into
	// view (a long one reads on below).
	f.scroll.Refresh()
	f.scroll.ScrollToOffset(fyne.NewPos(0, f.Problems.Position().Y))
}

// edited marks the problem shown, if any, as the last try's: a field it
// is about changed, and what it says may no longer hold (the red reason
// stayed under the form, headed as now, after the command was mended).
// It stays to be read, no longer red, until the next try.
func (f *Form) edited() {
	if f.Problems == nil || !f.Problems.Visible() || f.stale {
		return
	}
	f.stale = true
	if f.heading == headingForm {
		f.Heading.SetText("Found before your change: try again to check it")
	} else {
		f.Heading.SetText(f.heading + " (the last try, before your change)")
	}
	f.Problem.Importance = widget.MediumImportance
	f.Problem.Refresh()
}

func (f *Form) copyProblem() {
	f.h.App().Clipboard().SetContent(f.Problem.Text)
	f.Copy.SetText("Copied")
	f.Copy.SetIcon(theme.ConfirmIcon())
}

// Trying reports whether a try of the server is under way.
func (f *Form) Trying() bool { return f.stop != nil }

// Scroll is the scroller of the fields and the reason, for tests.
func (f *Form) Scroll() *container.Scroll { return f.scroll }

// cancel is Cancel, Escape and Ctrl+W: the form closes, unless a
// question or an error shows over it (its keys are its own then).
func (f *Form) cancel() {
	if f.Win.Canvas().Overlays().Top() != nil {
		return
	}
	f.Close()
}

// Close closes the form, ending the try under way, if any.
func (f *Form) Close() {
	f.Closed = true
	if f.stop != nil {
		f.stop()
		f.stop = nil
	}
	f.Win.Close()
	f.h.Closed(f)
}
