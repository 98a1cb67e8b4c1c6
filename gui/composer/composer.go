package composer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/conversation"
	"deckhand/clean"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// The composer is what surrounds the message box: the model picker (the
// current conversation's model, from its next message on) and the files
// attached to the next message, as chips above the box. Its fields belong
// to the UI goroutine; the bridge keeps its own half (package gui's
// composer_bridge.go).

// otherModel is the picker's last option: type a model's name.
const otherModel = "Other…"

// modelsTTL is how long a model server's list of models is kept.
const modelsTTL = 10 * time.Minute

type Composer struct {
	host Host
	log  *slog.Logger

	// Entry is the message box.
	Entry *widgets.MessageEntry

	// Attach is the paperclip: an icon alone, named on Tips.
	Attach *widgets.TipButton
	Chips  *fyne.Container // the prompt suggestions and the attachments; hidden while neither shows
	// quiet says, above Stop, that the model has sent nothing for a while
	// (SetQuiet); hidden otherwise.
	quiet    *widget.Label
	quietObj fyne.CanvasObject
	chipRow  *fyne.Container // the attached files and resources
	Files    []*attachedFile
	Picker   *ModelPicker
	// KeyNotice says why the keyring asks to be unlocked while the
	// picker waits on it for the model's key.
	KeyNotice *widget.Label
	pickerBox fyne.CanvasObject
	setting   bool // the picker's selection is being set, not chosen

	Conv    string          // the conversation the picker shows
	model   string          // the model chosen for it; "" is the configured one
	resumed string          // its last run's model, when it was reopened from the log
	decided map[string]bool // reopened conversations whose model is settled

	models   []string // what the model server lists, cleaned
	custom   []string // names typed with Other…
	listedAt time.Time
	ListedOf string // the endpoint models is of ("" before a listing)
	listing  bool
	// keyLocked: the server refused the list without a key, and the key
	// is in a locked keyring, left locked at start: the list is asked for
	// again, unlock prompt and all, when the person opens the picker.
	keyLocked bool

	// The servers' prompts (prompts.go).
	Slash *slashState

	// Tips is the layer over the composer its icon buttons (the
	// paperclip, a chip's ✕) name themselves on: the chat's layer lies
	// over the chat alone, and the composer, drawn after it, covered a
	// tip there.
	Tips *widgets.Tips
}

// attachedFile is a file attached to the next message: being read (at is
// nil), or read; or a server's resource, or a prompt's parts (res).
type attachedFile struct {
	name string
	at   *conversation.Attachment
	res  *resourceRef
}

// New makes the composer of the window host: onSend is Enter in the
// message box (the window sends, and asks Ready for the attachments).
func New(host Host, log *slog.Logger, onSend func()) *Composer {
	p := &Composer{host: host, log: log, decided: map[string]bool{}, Tips: widgets.NewTips(host.Post)}
	p.Entry = widgets.NewMessageEntry(onSend)
	p.Entry.SetPlaceHolder("Message Deckhand (Enter sends, Shift+Enter starts a new line)")
	p.Entry.OnLongPaste, p.Entry.LongPaste = p.pasted, longPaste
	p.Attach = widgets.NewTipButton("", theme.MailAttachmentIcon(), "Attach files…", p.Tips, p.choose)
	p.Attach.Importance = widget.LowImportance
	p.quiet, p.quietObj = widgets.Caption("")
	p.quiet.Alignment = fyne.TextAlignTrailing
	p.quietObj.Hide()
	p.chipRow = container.New(layout.NewRowWrapLayout())
	p.Slash = newSlashState(p)
	p.KeyNotice = widget.NewLabel("")
	p.KeyNotice.Wrapping = fyne.TextWrapWord
	p.KeyNotice.Hide()
	p.Chips = container.NewVBox(p.KeyNotice, p.Slash.Box, p.chipRow)
	p.Chips.Hide()
	p.Slash.hook()
	p.Picker = newModelPicker(p.picked, p.opening)
	p.Picker.PlaceHolder = "Model"
	// As wide as a usual model name; longer ones are cut with an ellipsis.
	p.pickerBox = container.New(layout.NewGridWrapLayout(fyne.NewSize(190, p.Picker.MinSize().Height)), p.Picker)
	p.refreshPicker()
	return p
}

// --- The model picker.

// ShowModel is the bridge telling the picker which conversation is
// current, the model chosen for it ("": the configured one) and, for one
// reopened from the log, its last run's model.
func (p *Composer) ShowModel(conv, model, resumed string) {
	p.Conv, p.model, p.resumed = conv, model, resumed
	p.listModels(nil)
	p.refreshPicker()
	p.settle()
}

// opening is the picker being opened: a list that waits on a locked
// keyring is asked for now, and the picker opens once it has come.
func (p *Composer) opening() bool {
	if !p.keyLocked || p.listing || p.ListedOf != p.endpoint() {
		return true
	}
	p.listModels(func() {
		// Opened now, with the models or (the keyring left locked)
		// without: the next opening asks again.
		if p.Picker.Visible() {
			p.Picker.Select.Tapped(&fyne.PointEvent{})
		}
	})
	return false
}

// endpoint is what a list of models is of: the base URL and the key's
// variable.
func (p *Composer) endpoint() string {
	m := p.host.Config().Model
	return m.BaseURL + "\x00" + m.APIKeyEnv
}

// listModels asks the model server for its models, in the background and
// at most once per modelsTTL; a server that does not list them (or does
// not answer within 5 s) leaves the configured model and Other…. A key
// saved in a locked keyring is read only when the person opened the
// picker (opened is then run once the list came): an unlock prompt at
// start, for a list nobody asked to see, said nothing of why it came.
func (p *Composer) listModels(opened func()) {
	m := p.host.Config().Model
	ep := p.endpoint()
	if !m.Configured() || p.listing || opened == nil && p.ListedOf == ep && time.Since(p.listedAt) < modelsTTL {
		return
	}
	p.listing = true
	lookup := p.host.LookupEnv
	unlocking := func(account string) bool {
		if opened == nil {
			return false
		}
		p.host.Post(func() {
			p.KeyNotice.SetText("Deckhand needs the API key for " + account + " from the keyring, to list its models: unlock the keyring when it asks.")
			p.KeyNotice.Show()
			p.showChips()
		})
		return true
	}
	go func() {
		// Without a key first: a locked or slow keyring never keeps a
		// server that needs none (one on this computer) from listing.
		var models []string
		err := keys.Try(m, lookup, func(key keys.Key) error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			var err error
			models, err = llm.ListModelsFor(ctx, m.Provider, m.BaseURL, key.Value())
			return err
		}, llm.NeedsKey, unlocking)
		p.host.Post(func() {
			p.listing = false
			p.ListedOf, p.listedAt = ep, time.Now()
			p.models = models
			var need *keys.KeyNeededError
			p.keyLocked = errors.As(err, &need) && errors.Is(err, keys.ErrLocked)
			if err != nil {
				p.log.Debug("the model server lists no models", "err", err)
			}
			if p.KeyNotice.Visible() {
				p.KeyNotice.Hide()
				p.showChips()
			}
			p.refreshPicker()
			p.settle()
			if opened != nil {
				opened()
			}
		})
	}()
}

// options are the picker's: the configured model, the server's, those
// typed, and Other….
func (p *Composer) options() []string {
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			if n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	add(p.host.Config().Model.Name)
	add(p.models...)
	add(p.custom...)
	add(p.model)
	return append(out, otherModel)
}

// current is the model the current conversation's next message asks.
func (p *Composer) current() string {
	if p.model != "" {
		return p.model
	}
	return p.host.Config().Model.Name
}

func (p *Composer) refreshPicker() {
	p.setting = true
	defer func() { p.setting = false }()
	p.Picker.Options = p.options()
	if cur := p.current(); cur != "" {
		p.Picker.SetSelected(cur)
	} else {
		p.Picker.ClearSelected()
	}
	p.Picker.Refresh()
}

// settle gives a conversation reopened from the log the model of its last
// run, once the server's list says it is still offered; else it keeps the
// configured one.
func (p *Composer) settle() {
	if p.model != "" || p.resumed == "" || p.decided[p.Conv] || p.ListedOf != p.endpoint() {
		return
	}
	p.decided[p.Conv] = true
	if p.resumed != p.host.Config().Model.Name && slices.Contains(p.models, p.resumed) {
		p.setModel(p.resumed)
	}
}

// picked is a choice in the picker.
func (p *Composer) picked(name string) {
	if p.setting {
		return
	}
	if name == otherModel {
		p.askModel()
		return
	}
	p.setModel(name)
}

// setModel makes name the current conversation's model.
func (p *Composer) setModel(name string) {
	if name == p.host.Config().Model.Name {
		name = ""
	}
	p.model = name
	p.decided[p.Conv] = true
	p.host.Tell(&SetModel{Conv: p.Conv, Name: name})
	p.refreshPicker()
}

// askModel is Other…: the person types a model's name. The field is wide
// enough for a long name and has the keyboard at once; Enter uses the
// name, Escape cancels. A name used sends the keyboard on to the message
// box, where the message for that model is typed; Cancel gives it back to
// where it was (the picker).
func (p *Composer) askModel() {
	var d *dialog.FormDialog
	entry := widgets.NewEscEntry(func() { d.Hide() })
	entry.SetPlaceHolder("the model's name, as the server knows it")
	entry.OnSubmitted = func(string) { d.Submit() }
	back := p.host.KeepFocus()
	d = dialog.NewForm("Another model", "Use", "Cancel", []*widget.FormItem{widget.NewFormItem("Model", entry)}, func(ok bool) {
		back()
		name := strings.TrimSpace(clean.Line(entry.Text))
		if !ok || name == "" {
			p.refreshPicker()
			return
		}
		if len(name) > llm.MaxModelNameLen {
			p.refreshPicker()
			p.host.ShowError(fmt.Sprintf("A model's name can be at most %d bytes.", llm.MaxModelNameLen))
			return
		}
		if !slices.Contains(p.custom, name) {
			p.custom = append(p.custom, name)
		}
		p.setModel(name)
		p.focus()
	}, p.host.Window())
	d.Resize(fyne.NewSize(min(520, p.host.Window().Canvas().Size().Width-40), d.MinSize().Height))
	d.Show()
	p.host.Window().Canvas().Focus(entry)
}

// --- Attachments.

// choose is Attach: a file chooser that starts in the workspace.
func (p *Composer) choose() {
	back := p.host.KeepFocus()
	win := p.host.Window()
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		back()
		if err != nil {
			p.host.ShowError("Could not open the file: " + err.Error())
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		p.Add(path)
	}, win)
	if l, err := storage.ListerForURI(storage.NewFileURI(p.StartDir())); err == nil {
		d.SetLocation(l)
	}
	// Escape cancels once a click in the list took the keyboard from the
	// name's field (Fyne's field keeps Escape, and does nothing with it):
	// it reached the window and stopped the answer being written.
	widgets.WithDialogKeys(d, win, nil, d.Dismiss)
	d.Resize(fyne.NewSize(820, 560)) // after Show: a FileDialog not shown yet has no size to change
}

// StartDir is where the file chooser opens: the workspace when it exists,
// else the home folder.
func (p *Composer) StartDir() string {
	if w := p.host.Config().Policy.WorkspaceDir(); w != "" {
		if st, err := os.Stat(w); err == nil && st.IsDir() {
			return w
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return "/"
}

// Dropped takes files Dropped onto the window.
func (p *Composer) Dropped(_ fyne.Position, uris []fyne.URI) {
	for _, uri := range uris {
		if uri.Scheme() == "file" {
			p.Add(uri.Path())
		}
	}
}

// Add attaches a file: it shows at once and is read in the background; a
// file that cannot be attached goes, with the reason.
func (p *Composer) Add(path string) {
	if len(p.Files) >= maxAttachments {
		p.host.ShowError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	f := &attachedFile{name: attachName(path)}
	p.Files = append(p.Files, f)
	p.refreshChips()
	go func() {
		at, err := readAttachment(path)
		p.host.Post(func() { p.read(f, at, err) })
	}()
}

// addText attaches text the person pasted (too long for the message box)
// as a text file named name, numbered when there are several; too long a
// text is refused, saying its size and the limit.
func (p *Composer) addText(name string, text string) {
	if len(p.Files) >= maxAttachments {
		p.host.ShowError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	n := 1
	for _, f := range p.Files {
		if strings.HasPrefix(f.name, name) {
			n++
		}
	}
	if n > 1 {
		name = fmt.Sprintf("%s %d", name, n)
	}
	f := &attachedFile{name: name}
	p.Files = append(p.Files, f)
	p.refreshChips()
	go func() {
		at, err := checkAttachment(name, []byte(text))
		p.host.Post(func() { p.read(f, at, err) })
	}()
}

// read is a file read (or not) in the background.
func (p *Composer) read(f *attachedFile, at conversation.Attachment, err error) {
	if !slices.Contains(p.Files, f) {
		return // removed meanwhile
	}
	if err == nil && !at.Image() && p.textBytes()+len(at.Data) > maxTextTotal {
		err = fmt.Errorf("%s does not fit: the text files of one message can be at most %s together", f.name, tools.Size(maxTextTotal))
	}
	if err != nil {
		p.remove(f)
		p.host.ShowError(err.Error())
		return
	}
	f.at = &at
	p.refreshChips()
}

// textBytes is the size of the text files attached so far.
func (p *Composer) textBytes() int {
	n := 0
	for _, f := range p.Files {
		if f.at != nil && !f.at.Image() {
			n += len(f.at.Data)
		}
		if f.res != nil {
			n += textSize(f.res.parts)
		}
	}
	return n
}

func (p *Composer) remove(f *attachedFile) {
	if i := slices.Index(p.Files, f); i >= 0 {
		p.Files = slices.Delete(p.Files, i, i+1)
		p.unwatch(f)
		p.refreshChips()
	}
}

// Ready returns the attachments read, and whether some are still being
// read.
func (p *Composer) Ready() (out []conversation.Attachment, reading bool) {
	for _, f := range p.Files {
		if f.res != nil {
			reading = reading || !f.res.Read
			out = append(out, f.res.parts...)
			continue
		}
		if f.at == nil {
			reading = true
			continue
		}
		out = append(out, *f.at)
	}
	return out, reading
}

// Attachments are the files and resources attached in one chat, set
// aside while another chat is shown (TakeAttachments, SetAttachments).
type Attachments struct{ files []*attachedFile }

// TakeAttachments takes the chips away from the message box, to keep with
// the chat being left: a file attached for one chat went with a message
// to the next one opened. Only those read are kept (one still being read
// was attached a moment ago; it goes).
func (p *Composer) TakeAttachments() Attachments {
	var kept []*attachedFile
	for _, f := range p.Files {
		if f.at != nil || f.res != nil && f.res.Read {
			kept = append(kept, f)
		} else {
			p.unwatch(f)
		}
	}
	p.Files = nil
	p.refreshChips()
	return Attachments{kept}
}

// SetAttachments puts a chat's chips back in the message box (in place of
// any there); a watched resource is read again, in case it changed
// meanwhile.
func (p *Composer) SetAttachments(a Attachments) {
	if len(p.Files) == 0 && len(a.files) == 0 {
		return
	}
	for _, f := range p.Files {
		p.unwatch(f)
	}
	p.Files = a.files
	for _, f := range p.Files {
		if f.res != nil && f.res.Watched {
			p.reread(f)
		}
	}
	p.refreshChips()
}

// Clear takes the attachments away once they are sent.
func (p *Composer) Clear() {
	for _, f := range p.Files {
		p.unwatch(f)
	}
	p.Files = nil
	p.refreshChips()
}

func (p *Composer) refreshChips() {
	objs := make([]fyne.CanvasObject, len(p.Files))
	for i, f := range p.Files {
		objs[i] = p.chip(f)
	}
	p.chipRow.Objects = objs
	widgets.SetVisible(p.chipRow, len(objs) > 0)
	p.chipRow.Refresh()
	p.showChips()
}

// showChips shows the area above the message box while it has something
// to show.
func (p *Composer) showChips() {
	widgets.SetVisible(p.Chips, len(p.Files) > 0 || p.Slash.Box.Visible() || p.KeyNotice.Visible())
	p.Chips.Refresh()
	// The area's height changed: the chat lays out its bottom again (a
	// container's refresh does not reach its parents; without this the
	// chips showed only once something else moved).
	p.host.Relayout()
}

// chip shows one attached file: its icon, name and size (or that it is
// being read), and a button that takes it away.
func (p *Composer) chip(f *attachedFile) fyne.CanvasObject {
	icon := theme.FileTextIcon()
	text := f.name + "  ·  reading…"
	if f.res != nil {
		icon, text = theme.StorageIcon(), f.res.chipText(f.name)
	} else if f.at != nil {
		text = f.name + "  ·  " + tools.Size(len(f.at.Data))
		if f.at.Image() {
			icon = theme.FileImageIcon()
		}
	}
	label := widget.NewLabel(text)
	label.Truncation = fyne.TextTruncateEllipsis
	// Its tip names what it takes away, a resource by its address (the
	// chip shows its name).
	tip := "Remove " + f.name
	if f.res != nil && f.res.URI != "" {
		tip = "Remove " + f.res.URI
	}
	tapped := func() {
		p.remove(f)
		p.focus() // back to the message, where the person was
	}
	remove := widgets.NewTipButton("", theme.CancelIcon(), tip, p.Tips, tapped)
	remove.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	// One compact line: a chip took the height of a button, and with the
	// find bar open left a 640x480 window two lines of transcript.
	chip := widgets.Compact(container.NewStack(bg, container.NewBorder(nil, nil, widget.NewIcon(icon), remove, label)))
	size := chip.MinSize()
	w := min(size.Width+fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{}).Width, 320)
	return container.New(layout.NewGridWrapLayout(fyne.NewSize(w, size.Height)), chip)
}

// Content is the composer as the window shows it: the chips above, the
// attach button, the message box, the model picker and sendStop (the
// window's Send and Stop).
func (p *Composer) Content(sendStop fyne.CanvasObject) fyne.CanvasObject {
	buttons := container.NewVBox(layout.NewSpacer(), p.quietObj, container.NewHBox(p.pickerBox, sendStop))
	attach := container.NewVBox(layout.NewSpacer(), p.Attach)
	l := &boxLayout{entry: p.Entry, relayout: func() { p.host.Post(p.host.Relayout) }}
	box := container.New(l, attach, p.Entry, buttons)
	l.owner = box
	return container.NewStack(container.NewBorder(p.Chips, nil, nil, nil, box), p.Tips)
}

// SetQuiet shows text above Send and Stop ("nothing from the model for
// 20 s"), or hides it when text is "".
func (p *Composer) SetQuiet(text string) {
	if text == p.quiet.Text && p.quietObj.Visible() == (text != "") {
		return
	}
	p.quiet.SetText(text)
	if text == "" {
		p.quietObj.Hide()
	} else {
		p.quietObj.Show()
	}
}

// Quiet is the text SetQuiet shows, "" when hidden.
func (p *Composer) Quiet() string {
	if !p.quietObj.Visible() {
		return ""
	}
	return p.quiet.Text
}

// focus gives the message box the keyboard.
func (p *Composer) focus() { p.host.Window().Canvas().Focus(p.Entry) }
