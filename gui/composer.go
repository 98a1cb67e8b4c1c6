package gui

import (
	"context"
	"fmt"
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
// to the UI goroutine, except bridge, which belongs to the bridge actor
// (composer_bridge.go).

// otherModel is the picker's last option: type a model's name.
const otherModel = "Other…"

// modelsTTL is how long a model server's list of models is kept.
const modelsTTL = 10 * time.Minute

type composer struct {
	u *UI

	attach    *widget.Button
	chips     *fyne.Container // the prompt suggestions and the attachments; hidden while neither shows
	chipRow   *fyne.Container // the attached files and resources
	files     []*attachedFile
	picker    *widget.Select
	pickerBox fyne.CanvasObject
	setting   bool // the picker's selection is being set, not chosen

	conv    string          // the conversation the picker shows
	model   string          // the model chosen for it; "" is the configured one
	resumed string          // its last run's model, when it was reopened from the log
	decided map[string]bool // reopened conversations whose model is settled

	models   []string // what the model server lists, cleaned
	custom   []string // names typed with Other…
	listedAt time.Time
	listedOf string // the endpoint models is of ("" before a listing)
	listing  bool

	bridge *composerBridge

	// The servers' side: resources and prompts (composer_resources.go,
	// prompts.go).
	slash *slashState
}

// attachedFile is a file attached to the next message: being read (at is
// nil), or read; or a server's resource, or a prompt's parts (res).
type attachedFile struct {
	name string
	at   *conversation.Attachment
	res  *resourceRef
}

func newComposer(u *UI) *composer {
	p := &composer{u: u, decided: map[string]bool{}, bridge: newComposerBridge()}
	p.attach = widget.NewButtonWithIcon("", theme.MailAttachmentIcon(), p.choose)
	p.attach.Importance = widget.LowImportance
	p.chipRow = container.New(layout.NewRowWrapLayout())
	p.slash = newSlashState(p)
	p.chips = container.NewVBox(p.slash.box, p.chipRow)
	p.chips.Hide()
	p.slash.hook()
	p.picker = widget.NewSelect(nil, p.picked)
	p.picker.PlaceHolder = "Model"
	// As wide as a usual model name; longer ones are cut with an ellipsis.
	p.pickerBox = container.New(layout.NewGridWrapLayout(fyne.NewSize(190, p.picker.MinSize().Height)), p.picker)
	p.refreshPicker()
	return p
}

// --- The model picker.

// show is the bridge telling the picker which conversation is current and
// its model.
func (p *composer) show(st pickerState) {
	p.conv, p.model, p.resumed = st.conv, st.model, st.resumed
	p.listModels()
	p.refreshPicker()
	p.settle()
}

// endpoint is what a list of models is of: the base URL and the key's
// variable.
func (p *composer) endpoint() string {
	m := p.u.cfg.Model
	return m.BaseURL + "\x00" + m.APIKeyEnv
}

// listModels asks the model server for its models, in the background and
// at most once per modelsTTL; a server that does not list them (or does
// not answer within 5 s) leaves the configured model and Other….
func (p *composer) listModels() {
	m := p.u.cfg.Model
	ep := p.endpoint()
	if !m.Configured() || p.listing || p.listedOf == ep && time.Since(p.listedAt) < modelsTTL {
		return
	}
	p.listing = true
	lookup := p.u.d.LookupEnv
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
		}, llm.NeedsKey)
		p.u.post(func() {
			p.listing = false
			p.listedOf, p.listedAt = ep, time.Now()
			p.models = models
			if err != nil {
				p.u.log.Debug("the model server lists no models", "err", err)
			}
			p.refreshPicker()
			p.settle()
		})
	}()
}

// options are the picker's: the configured model, the server's, those
// typed, and Other….
func (p *composer) options() []string {
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			if n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	add(p.u.cfg.Model.Name)
	add(p.models...)
	add(p.custom...)
	add(p.model)
	return append(out, otherModel)
}

// current is the model the current conversation's next message asks.
func (p *composer) current() string {
	if p.model != "" {
		return p.model
	}
	return p.u.cfg.Model.Name
}

func (p *composer) refreshPicker() {
	p.setting = true
	defer func() { p.setting = false }()
	p.picker.Options = p.options()
	if cur := p.current(); cur != "" {
		p.picker.SetSelected(cur)
	} else {
		p.picker.ClearSelected()
	}
	p.picker.Refresh()
}

// settle gives a conversation reopened from the log the model of its last
// run, once the server's list says it is still offered; else it keeps the
// configured one.
func (p *composer) settle() {
	if p.model != "" || p.resumed == "" || p.decided[p.conv] || p.listedOf != p.endpoint() {
		return
	}
	p.decided[p.conv] = true
	if p.resumed != p.u.cfg.Model.Name && slices.Contains(p.models, p.resumed) {
		p.setModel(p.resumed)
	}
}

// picked is a choice in the picker.
func (p *composer) picked(name string) {
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
func (p *composer) setModel(name string) {
	if name == p.u.cfg.Model.Name {
		name = ""
	}
	p.model = name
	p.decided[p.conv] = true
	p.u.tell(&uiSetModel{conv: p.conv, name: name})
	p.refreshPicker()
}

// askModel is Other…: the person types a model's name. The field is wide
// enough for a long name and has the keyboard at once; Enter uses the
// name, Escape cancels.
func (p *composer) askModel() {
	var d *dialog.FormDialog
	entry := widgets.NewEscEntry(func() { d.Hide() })
	entry.SetPlaceHolder("the model's name, as the server knows it")
	entry.OnSubmitted = func(string) { d.Submit() }
	back := p.u.keepFocus()
	d = dialog.NewForm("Another model", "Use", "Cancel", []*widget.FormItem{widget.NewFormItem("Model", entry)}, func(ok bool) {
		back()
		name := strings.TrimSpace(clean.Line(entry.Text))
		if !ok || name == "" {
			p.refreshPicker()
			return
		}
		if len(name) > llm.MaxModelNameLen {
			p.refreshPicker()
			p.u.showError(fmt.Sprintf("A model's name can be at most %d bytes.", llm.MaxModelNameLen))
			return
		}
		if !slices.Contains(p.custom, name) {
			p.custom = append(p.custom, name)
		}
		p.setModel(name)
	}, p.u.win)
	d.Resize(fyne.NewSize(min(520, p.u.win.Canvas().Size().Width-40), d.MinSize().Height))
	d.Show()
	p.u.win.Canvas().Focus(entry)
}

// --- Attachments.

// choose is Attach: a file chooser that starts in the workspace.
func (p *composer) choose() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			p.u.showError("Could not open the file: " + err.Error())
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		p.add(path)
	}, p.u.win)
	if l, err := storage.ListerForURI(storage.NewFileURI(p.startDir())); err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(820, 560)) // after Show: a FileDialog not shown yet has no size to change
}

// startDir is where the file chooser opens: the workspace when it exists,
// else the home folder.
func (p *composer) startDir() string {
	if w := p.u.cfg.Policy.WorkspaceDir(); w != "" {
		if st, err := os.Stat(w); err == nil && st.IsDir() {
			return w
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return "/"
}

// dropped takes files dropped onto the window.
func (p *composer) dropped(_ fyne.Position, uris []fyne.URI) {
	for _, uri := range uris {
		if uri.Scheme() == "file" {
			p.add(uri.Path())
		}
	}
}

// add attaches a file: it shows at once and is read in the background; a
// file that cannot be attached goes, with the reason.
func (p *composer) add(path string) {
	if len(p.files) >= maxAttachments {
		p.u.showError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	f := &attachedFile{name: attachName(path)}
	p.files = append(p.files, f)
	p.refreshChips()
	go func() {
		at, err := readAttachment(path)
		p.u.post(func() { p.read(f, at, err) })
	}()
}

// addText attaches text the person pasted (too long for the message box)
// as a text file named name, numbered when there are several; too long a
// text is refused, saying its size and the limit.
func (p *composer) addText(name string, text string) {
	if len(p.files) >= maxAttachments {
		p.u.showError(fmt.Sprintf("A message can have at most %d attachments.", maxAttachments))
		return
	}
	n := 1
	for _, f := range p.files {
		if strings.HasPrefix(f.name, name) {
			n++
		}
	}
	if n > 1 {
		name = fmt.Sprintf("%s %d", name, n)
	}
	f := &attachedFile{name: name}
	p.files = append(p.files, f)
	p.refreshChips()
	go func() {
		at, err := checkAttachment(name, []byte(text))
		p.u.post(func() { p.read(f, at, err) })
	}()
}

// read is a file read (or not) in the background.
func (p *composer) read(f *attachedFile, at conversation.Attachment, err error) {
	if !slices.Contains(p.files, f) {
		return // removed meanwhile
	}
	if err == nil && !at.Image() && p.textBytes()+len(at.Data) > maxTextTotal {
		err = fmt.Errorf("%s does not fit: the text files of one message can be at most %s together", f.name, tools.Size(maxTextTotal))
	}
	if err != nil {
		p.remove(f)
		p.u.showError(err.Error())
		return
	}
	f.at = &at
	p.refreshChips()
}

// textBytes is the size of the text files attached so far.
func (p *composer) textBytes() int {
	n := 0
	for _, f := range p.files {
		if f.at != nil && !f.at.Image() {
			n += len(f.at.Data)
		}
		if f.res != nil {
			n += textSize(f.res.parts)
		}
	}
	return n
}

func (p *composer) remove(f *attachedFile) {
	if i := slices.Index(p.files, f); i >= 0 {
		p.files = slices.Delete(p.files, i, i+1)
		p.unwatch(f)
		p.refreshChips()
	}
}

// ready returns the attachments read, and whether some are still being
// read.
func (p *composer) ready() (out []conversation.Attachment, reading bool) {
	for _, f := range p.files {
		if f.res != nil {
			reading = reading || !f.res.read
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

// clear takes the attachments away once they are sent.
func (p *composer) clear() {
	for _, f := range p.files {
		p.unwatch(f)
	}
	p.files = nil
	p.refreshChips()
}

func (p *composer) refreshChips() {
	objs := make([]fyne.CanvasObject, len(p.files))
	for i, f := range p.files {
		objs[i] = p.chip(f)
	}
	p.chipRow.Objects = objs
	widgets.SetVisible(p.chipRow, len(objs) > 0)
	p.chipRow.Refresh()
	p.showChips()
}

// showChips shows the area above the message box while it has something
// to show.
func (p *composer) showChips() {
	widgets.SetVisible(p.chips, len(p.files) > 0 || p.slash.box.Visible())
	p.chips.Refresh()
	// The area's height changed: the chat lays out its bottom again (a
	// container's refresh does not reach its parents; without this the
	// chips showed only once something else moved).
	if c, ok := p.u.chatArea.(*fyne.Container); ok {
		c.Refresh()
	}
}

// chip shows one attached file: its icon, name and size (or that it is
// being read), and a button that takes it away.
func (p *composer) chip(f *attachedFile) fyne.CanvasObject {
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
	remove := widget.NewButtonWithIcon("", theme.CancelIcon(), func() {
		p.remove(f)
		p.u.input.focus(p.u.win) // back to the message, where the person was
	})
	remove.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	row := container.NewBorder(nil, nil, widget.NewIcon(icon), remove, label)
	w := min(row.MinSize().Width+fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{}).Width, 320)
	return container.New(layout.NewGridWrapLayout(fyne.NewSize(w, row.MinSize().Height)), container.NewStack(bg, row))
}
