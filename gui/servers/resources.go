package servers

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

// Resources browses one server's resources and resource templates
// (the servers panel's Resources button): pick one to see what it is, and
// attach it to the next message; a template's variables are filled in
// first. One window serves every server, hidden when closed (as the tools
// window: each new window costs memory the GL driver does not give back).
// What the server says was cleaned by the actors.
type Resources struct {
	s      *Panel
	Win    fyne.Window
	alias  string
	gen    int // the listing being waited for; a later one wins
	Items  []ResourceItem
	List   *widget.List
	Status *widget.Label
	Detail *fyne.Container
	// For tests: the shown item's Attach button and a template's fields;
	// Loaded says the listing arrived.
	Attach *widget.Button
	Vars   map[string]*widget.Entry
	Loaded bool
}

// ResourceItem is a resource or a template.
type ResourceItem struct {
	Resource *servers.Resource
	Template *servers.ResourceTemplate
}

func (it ResourceItem) label() string {
	if it.Resource != nil {
		return servers.Label(it.Resource.Name, it.Resource.Title)
	}
	return servers.Label(it.Template.Name, it.Template.Title)
}

func (it ResourceItem) uri() string {
	if it.Resource != nil {
		return it.Resource.URI
	}
	return it.Template.URITemplate
}

// showResources opens the resources of alias.
func (s *Panel) showResources(alias string) {
	if s.Resources == nil {
		s.Resources = newResources(s)
	}
	rw := s.Resources
	rw.alias, rw.Items, rw.Loaded, rw.Attach, rw.Vars = alias, nil, false, nil, nil
	rw.Win.SetTitle("Deckhand: resources of " + alias)
	rw.Status.SetText("Asking " + alias + " for its resources…")
	rw.Detail.Objects = nil
	rw.Detail.Refresh()
	rw.List.UnselectAll()
	rw.List.Refresh()
	rw.Win.Show()
	rw.Win.RequestFocus()
	rw.load()
}

func newResources(s *Panel) *Resources {
	u := s.host
	rw := &Resources{s: s, Win: u.NewPanel("Deckhand: resources"), Detail: container.NewVBox()}
	if u.Icon() != nil {
		rw.Win.SetIcon(u.Icon())
	}
	rw.Status = widget.NewLabel("")
	rw.Status.Wrapping = fyne.TextWrapWord
	rw.List = widget.NewList(
		func() int { return len(rw.Items) },
		func() fyne.CanvasObject {
			name := widget.NewLabelWithStyle("a resource's name", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			name.Truncation = fyne.TextTruncateEllipsis
			uri, uriObj := widgets.Caption("scheme://a/resource/uri")
			uri.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, widget.NewIcon(theme.StorageIcon()), nil, container.NewVBox(name, uriObj))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(rw.Items) {
				return
			}
			it := rw.Items[i]
			row := o.(*fyne.Container)
			var texts *fyne.Container
			for _, obj := range row.Objects {
				switch x := obj.(type) {
				case *widget.Icon:
					if it.Template != nil {
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
			if it.Template != nil {
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
	rw.List.OnSelected = func(i widget.ListItemID) {
		if i < len(rw.Items) {
			rw.show(rw.Items[i])
		}
	}
	heading := widget.NewLabelWithStyle("Resources", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewVBox(container.NewPadded(container.NewVBox(heading, rw.Status)), widget.NewSeparator())
	split := container.NewHSplit(rw.List, container.NewVScroll(container.NewPadded(rw.Detail)))
	split.Offset = 0.42
	rw.Win.SetContent(container.NewBorder(top, nil, nil, nil, split))
	rw.Win.Resize(fyne.NewSize(900, 580))
	rw.Win.SetCloseIntercept(rw.Win.Hide)
	widgets.CloseKeys(rw.Win, rw.Win.Hide, rw.s.host.Quit)
	return rw
}

// load asks for the server's listing off the UI goroutine.
func (rw *Resources) load() {
	u := rw.s.host
	sys := u.System()
	if sys == nil {
		return
	}
	rw.gen++
	gen, alias := rw.gen, rw.alias
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		l, err := sys.Resources(ctx, alias)
		u.Post(func() {
			if rw.gen == gen {
				rw.fill(l, err)
			}
		})
	}()
}

func (rw *Resources) fill(l *servers.ResourceListing, err error) {
	rw.Loaded = true
	rw.Items = nil
	switch {
	case err != nil:
		rw.Status.SetText("Could not list the resources: " + err.Error())
	case l == nil || !l.Offered:
		rw.Status.SetText(rw.alias + " offers no resources.")
	default:
		for i := range l.Resources {
			rw.Items = append(rw.Items, ResourceItem{Resource: &l.Resources[i]})
		}
		for i := range l.Templates {
			rw.Items = append(rw.Items, ResourceItem{Template: &l.Templates[i]})
		}
		parts := []string{fmt.Sprintf("%d %s, %d %s", len(l.Resources), widgets.Plural(len(l.Resources), "resource", "resources"), len(l.Templates), widgets.Plural(len(l.Templates), "template", "templates"))}
		for _, st := range rw.s.host.Statuses() {
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
		rw.Status.SetText(strings.Join(parts, "  ·  ") + ". Pick one to attach it to your next message.")
	}
	rw.List.UnselectAll()
	rw.List.Refresh()
	rw.Detail.Objects = nil
	rw.Detail.Refresh()
}

// show puts an item's details on the right, with Attach.
func (rw *Resources) show(it ResourceItem) {
	title := widget.NewLabelWithStyle(it.label(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	uri := widget.NewLabel(it.uri())
	uri.Selectable = true
	uri.Wrapping = fyne.TextWrapBreak
	objs := []fyne.CanvasObject{title, uri}
	var facts []string
	desc := ""
	if r := it.Resource; r != nil {
		if r.MIMEType != "" {
			facts = append(facts, r.MIMEType)
		}
		if r.Size > 0 {
			facts = append(facts, tools.Size(int(min(r.Size, 1<<40))))
		}
		desc = r.Description
	} else {
		facts = append(facts, "a template: fill in its variables")
		if it.Template.MIMEType != "" {
			facts = append(facts, it.Template.MIMEType)
		}
		desc = it.Template.Description
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
	rw.Vars = nil
	if it.Template != nil {
		rw.Vars = map[string]*widget.Entry{}
		form := widget.NewForm()
		for _, name := range templateVars(it.Template.URITemplate) {
			e := widget.NewEntry()
			rw.Vars[name] = e
			form.Append(name, e)
		}
		objs = append(objs, form)
	}
	alias := rw.alias
	rw.Attach = widget.NewButtonWithIcon("Attach to the next message", theme.MailAttachmentIcon(), func() {
		target := it.uri()
		if it.Template != nil {
			values := map[string]string{}
			for name, e := range rw.Vars {
				values[name] = strings.TrimSpace(e.Text)
			}
			var err error
			if target, err = expandTemplate(it.Template.URITemplate, values); err != nil {
				rw.Status.SetText(err.Error())
				return
			}
		}
		rw.s.host.AttachResource(alias, target)
		rw.Status.SetText("Attached " + conversation.ResourceName(target) + ": it goes with your next message.")
	})
	rw.Attach.Importance = widget.HighImportance
	objs = append(objs, container.NewHBox(rw.Attach))
	rw.Detail.Objects = objs
	rw.Detail.Refresh()
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
