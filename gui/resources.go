package gui

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yosida95/uritemplate/v3"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/gui/widgets"
	"deckhand/tools"
)

// resourcesWindow browses one server's resources and resource templates
// (the servers panel's Resources button): pick one to see what it is, and
// attach it to the next message; a template's variables are filled in
// first. One window serves every server, hidden when closed (as the tools
// window: each new window costs memory the GL driver does not give back).
// What the server says was cleaned by the actors.
type resourcesWindow struct {
	p      *composer
	win    fyne.Window
	alias  string
	gen    int // the listing being waited for; a later one wins
	items  []resItem
	list   *widget.List
	status *widget.Label
	detail *fyne.Container
	// For tests: the shown item's Attach button and a template's fields;
	// loaded says the listing arrived.
	attach *widget.Button
	vars   map[string]*widget.Entry
	loaded bool
}

// resItem is a resource or a template.
type resItem struct {
	res  *servers.Resource
	tmpl *servers.ResourceTemplate
}

func (it resItem) label() string {
	if it.res != nil {
		return servers.Label(it.res.Name, it.res.Title)
	}
	return servers.Label(it.tmpl.Name, it.tmpl.Title)
}

func (it resItem) uri() string {
	if it.res != nil {
		return it.res.URI
	}
	return it.tmpl.URITemplate
}

// showResources opens the resources of alias.
func (u *UI) showResources(alias string) {
	p := u.comp
	if p.browser == nil {
		p.browser = newResourcesWindow(p)
	}
	rw := p.browser
	rw.alias, rw.items, rw.loaded, rw.attach, rw.vars = alias, nil, false, nil, nil
	rw.win.SetTitle("Deckhand: resources of " + alias)
	rw.status.SetText("Asking " + alias + " for its resources…")
	rw.detail.Objects = nil
	rw.detail.Refresh()
	rw.list.UnselectAll()
	rw.list.Refresh()
	rw.win.Show()
	rw.win.RequestFocus()
	rw.load()
}

func newResourcesWindow(p *composer) *resourcesWindow {
	u := p.u
	rw := &resourcesWindow{p: p, win: u.newPanel("Deckhand: resources"), detail: container.NewVBox()}
	if u.d.Icon != nil {
		rw.win.SetIcon(u.d.Icon)
	}
	rw.status = widget.NewLabel("")
	rw.status.Wrapping = fyne.TextWrapWord
	rw.list = widget.NewList(
		func() int { return len(rw.items) },
		func() fyne.CanvasObject {
			name := widget.NewLabelWithStyle("a resource's name", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			name.Truncation = fyne.TextTruncateEllipsis
			uri, uriObj := widgets.Caption("scheme://a/resource/uri")
			uri.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, widget.NewIcon(theme.StorageIcon()), nil, container.NewVBox(name, uriObj))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(rw.items) {
				return
			}
			it := rw.items[i]
			row := o.(*fyne.Container)
			var texts *fyne.Container
			for _, obj := range row.Objects {
				switch x := obj.(type) {
				case *widget.Icon:
					if it.tmpl != nil {
						x.SetResource(theme.DocumentCreateIcon())
					} else {
						x.SetResource(theme.StorageIcon())
					}
				case *fyne.Container:
					texts = x
				}
			}
			if texts == nil {
				return
			}
			name := texts.Objects[0].(*widget.Label)
			label := it.label()
			if it.tmpl != nil {
				label += " (template)"
			}
			name.SetText(label)
			var uri *widget.Label
			if d, ok := texts.Objects[1].(*widgets.DimLabel); ok {
				uri = &d.Label
			}
			if uri != nil {
				uri.SetText(it.uri())
			}
		},
	)
	rw.list.OnSelected = func(i widget.ListItemID) {
		if i < len(rw.items) {
			rw.show(rw.items[i])
		}
	}
	heading := widget.NewLabelWithStyle("Resources", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewVBox(container.NewPadded(container.NewVBox(heading, rw.status)), widget.NewSeparator())
	split := container.NewHSplit(rw.list, container.NewVScroll(container.NewPadded(rw.detail)))
	split.Offset = 0.42
	rw.win.SetContent(container.NewBorder(top, nil, nil, nil, split))
	rw.win.Resize(fyne.NewSize(900, 580))
	rw.win.SetCloseIntercept(rw.win.Hide)
	widgets.CloseKeys(rw.win, rw.win.Hide, rw.p.u.app)
	return rw
}

// load asks for the server's listing off the UI goroutine.
func (rw *resourcesWindow) load() {
	u := rw.p.u
	sys := u.d.System
	if sys == nil {
		return
	}
	rw.gen++
	gen, alias := rw.gen, rw.alias
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		l, err := sys.Resources(ctx, alias)
		u.post(func() {
			if rw.gen == gen {
				rw.fill(l, err)
			}
		})
	}()
}

func (rw *resourcesWindow) fill(l *servers.ResourceListing, err error) {
	rw.loaded = true
	rw.items = nil
	switch {
	case err != nil:
		rw.status.SetText("Could not list the resources: " + err.Error())
	case l == nil || !l.Offered:
		rw.status.SetText(rw.alias + " offers no resources.")
	default:
		for i := range l.Resources {
			rw.items = append(rw.items, resItem{res: &l.Resources[i]})
		}
		for i := range l.Templates {
			rw.items = append(rw.items, resItem{tmpl: &l.Templates[i]})
		}
		parts := []string{fmt.Sprintf("%d %s, %d %s", len(l.Resources), widgets.Plural(len(l.Resources), "resource", "resources"), len(l.Templates), widgets.Plural(len(l.Templates), "template", "templates"))}
		for _, st := range rw.p.u.servers {
			if st.Alias == rw.alias && st.ProtocolVersion != "" {
				parts = append(parts, "protocol "+st.ProtocolVersion)
			}
		}
		if l.Subscribe {
			parts = append(parts, "an attached resource is kept up to date until the message is sent")
		}
		if l.Truncated {
			parts = append(parts, "the server listed more: the rest are left out")
		}
		if l.LeftOut > 0 {
			parts = append(parts, fmt.Sprintf("%d left out (their URIs are not one clean line)", l.LeftOut))
		}
		rw.status.SetText(strings.Join(parts, "  ·  ") + ". Pick one to attach it to your next message.")
	}
	rw.list.UnselectAll()
	rw.list.Refresh()
	rw.detail.Objects = nil
	rw.detail.Refresh()
}

// show puts an item's details on the right, with Attach.
func (rw *resourcesWindow) show(it resItem) {
	title := widget.NewLabelWithStyle(it.label(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	uri := widget.NewLabel(it.uri())
	uri.Selectable = true
	uri.Wrapping = fyne.TextWrapBreak
	objs := []fyne.CanvasObject{title, uri}
	var facts []string
	desc := ""
	if r := it.res; r != nil {
		if r.MIMEType != "" {
			facts = append(facts, r.MIMEType)
		}
		if r.Size > 0 {
			facts = append(facts, tools.Size(int(min(r.Size, 1<<40))))
		}
		desc = r.Description
	} else {
		facts = append(facts, "a template: fill in its variables")
		if it.tmpl.MIMEType != "" {
			facts = append(facts, it.tmpl.MIMEType)
		}
		desc = it.tmpl.Description
	}
	if len(facts) > 0 {
		_, f := widgets.Subtle(strings.Join(facts, "  ·  "))
		objs = append(objs, f)
	}
	if desc != "" {
		d := widget.NewLabel(desc)
		d.Wrapping = fyne.TextWrapWord
		objs = append(objs, d)
	}
	rw.vars = nil
	if it.tmpl != nil {
		rw.vars = map[string]*widget.Entry{}
		form := widget.NewForm()
		for _, name := range templateVars(it.tmpl.URITemplate) {
			e := widget.NewEntry()
			rw.vars[name] = e
			form.Append(name, e)
		}
		objs = append(objs, form)
	}
	alias := rw.alias
	rw.attach = widget.NewButtonWithIcon("Attach to the next message", theme.MailAttachmentIcon(), func() {
		target := it.uri()
		if it.tmpl != nil {
			values := map[string]string{}
			for name, e := range rw.vars {
				values[name] = strings.TrimSpace(e.Text)
			}
			var err error
			if target, err = expandTemplate(it.tmpl.URITemplate, values); err != nil {
				rw.status.SetText(err.Error())
				return
			}
		}
		rw.p.attachResource(alias, target)
		rw.status.SetText("Attached " + conversation.ResourceName(target) + ": it goes with your next message.")
		if p, ok := rw.win.(*panel); ok {
			p.under = nil // back goes to the chat, where the attachment waits
		}
	})
	rw.attach.Importance = widget.HighImportance
	objs = append(objs, container.NewHBox(rw.attach))
	rw.detail.Objects = objs
	rw.detail.Refresh()
}

// templateVars are the variables of an RFC 6570 template, in order; none
// when it does not parse (attaching then says why).
func templateVars(tmpl string) []string {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil
	}
	return t.Varnames()
}

// expandTemplate fills in an RFC 6570 template (package uritemplate, as
// the actors match one); every variable must have a value.
//
// uritemplate v3.0.2 percent-encodes a character beyond ASCII as the bytes
// of its code point rather than of its UTF-8 (é as %E9, not %C3%A9), which
// servers cannot decode. Such characters pass through it as ASCII marks,
// put back afterwards as their UTF-8 encoding; a prefix (:N) would count
// the marks' letters, so it is refused on such a value.
func expandTemplate(tmpl string, values map[string]string) (string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return "", fmt.Errorf("the template does not parse: %v", err)
	}
	mark := "Zq" // in neither the template nor a value
	taken := func() bool {
		if strings.Contains(tmpl, mark) {
			return true
		}
		for _, v := range values {
			if strings.Contains(v, mark) {
				return true
			}
		}
		return false
	}
	for taken() {
		mark += "q"
	}
	mark += "Z"
	marked := false
	vals := uritemplate.Values{}
	for _, name := range t.Varnames() {
		v := values[name]
		if v == "" {
			return "", fmt.Errorf("%s needs a value", name)
		}
		var b strings.Builder
		for _, r := range v {
			if r < utf8.RuneSelf {
				b.WriteRune(r)
				continue
			}
			marked = true
			fmt.Fprintf(&b, "%s%X%s", mark, r, mark)
		}
		vals.Set(name, uritemplate.String(b.String()))
	}
	if marked && templatePrefix.MatchString(tmpl) {
		return "", fmt.Errorf("the template takes a prefix (:N) of a value, which works only with ASCII letters")
	}
	out, err := t.Expand(vals)
	if err != nil || !marked {
		return out, err
	}
	return regexp.MustCompile(regexp.QuoteMeta(mark)+"([0-9A-F]+)"+regexp.QuoteMeta(mark)).ReplaceAllStringFunc(out, func(m string) string {
		n, _ := strconv.ParseUint(m[len(mark):len(m)-len(mark)], 16, 32)
		return url.PathEscape(string(rune(n)))
	}), nil
}

// templatePrefix finds a prefix modifier (:N) in a template's expression.
var templatePrefix = regexp.MustCompile(`\{[^}]*:[0-9]`)
