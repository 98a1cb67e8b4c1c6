package form

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/clean"
	"deckhand/gui/widgets"
	"deckhand/transport/mcp"
)

// Bounds on what a server's form may take of the dialog.
const (
	TitleMax  = 80  // a field's title
	descMax   = 400 // a field's description
	OptionMax = 100 // an option's label
	bigChoice = 12  // more options than this: a list with a filter
)

// Form is a form's fields as widgets.
type Form struct {
	form   *mcp.Form
	Fields []*Field
	box    *fyne.Container
	whole  fyne.CanvasObject // box, over the wheel
	page   *Page             // the scroll it is in, once known
}

// Field is one field's widget: an entry (text, numbers), a check
// (yes/no), a select or check group (few options), or a list with a
// filter (many).
type Field struct {
	Field   mcp.Field
	title   string // cleaned, bounded
	Entry   *elicitEntry
	Check   *formCheck
	touched bool // the check was changed: an answer even when unchecked
	Select  *formSelect
	Group   *optionGroup
	List    *choiceList
	Labels  []string // the options' labels as shown
}

func New(f *mcp.Form, submit, escape func()) *Form {
	ef := &Form{form: f, page: &Page{}}
	if f == nil {
		ef.box = container.NewVBox()
		ef.whole = ef.box
		return ef
	}
	objs := []fyne.CanvasObject{}
	// Required fields first, then the others, each in the form's order
	// (which the SDK may have lost: it hands the schema over as a map).
	fields := slices.Clone(f.Fields)
	slices.SortStableFunc(fields, func(a, b mcp.Field) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	if slices.ContainsFunc(fields, func(fl mcp.Field) bool { return fl.Required }) {
		_, note := widgets.Caption("Fields marked * are required.")
		objs = append(objs, note)
	}
	for _, fl := range fields {
		x := newField(fl, submit, escape, ef.page)
		ef.Fields = append(ef.Fields, x)
		title := widget.NewLabelWithStyle(x.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		title.Wrapping = fyne.TextWrapBreak
		if fl.Required {
			title.SetText(x.title + " *")
		}
		objs = append(objs, title, x.object(ef.page))
		if d := strings.TrimSpace(clean.Text(fl.Description)); d != "" {
			dl, dobj := widgets.Caption(widgets.Shorten(d, descMax))
			dl.Wrapping = fyne.TextWrapWord
			objs = append(objs, dobj)
		}
	}
	ef.box = container.NewVBox(objs...)
	// Room on the left for a field's ring, and on the right for the
	// scroll bar, which covered the fields' right edges and their rings.
	pad := layout.NewCustomPaddedLayout(0, 0, 2*theme.InputBorderSize(), theme.ScrollBarSize())
	ef.whole = UnderWheel(container.New(pad, ef.box), ef.page)
	return ef
}

// Object is the form; the dialog's scroll carries it when long.
func (ef *Form) Object() fyne.CanvasObject { return ef.whole }

// ScrollIn says which scroll the form is in: the focus of a field brings
// it into that scroll's view, and the wheel over the form moves it.
func (ef *Form) ScrollIn(s *container.Scroll) { ef.page.Scroll = s }

// First is the first field that takes the focus, or nil.
func (ef *Form) First() fyne.Focusable {
	for _, x := range ef.Fields {
		if f := x.focusable(); f != nil {
			return f
		}
	}
	return nil
}

// Collect reads the answers, checked against the form: the content to
// send, or what is wrong (and the field to focus).
func (ef *Form) Collect() (map[string]any, fyne.Focusable, error) {
	content := map[string]any{}
	for _, x := range ef.Fields {
		v, err := x.value()
		if err != nil {
			return nil, x.focusable(), fmt.Errorf("%s: %v", x.title, clean.Line(err.Error()))
		}
		if v == nil {
			if x.Field.Required {
				return nil, x.focusable(), widgets.Sentence(x.title + " is required.")
			}
			continue
		}
		content[x.Field.Name] = v
	}
	checked, err := ef.form.Check(content)
	if err != nil {
		return nil, nil, fmt.Errorf("%s", widgets.Shorten(clean.Line(err.Error()), 200))
	}
	return checked, nil, nil
}

func newField(fl mcp.Field, submit, escape func(), p *Page) *Field {
	x := &Field{Field: fl, title: widgets.Shorten(clean.Line(fl.Title), TitleMax)}
	if x.title == "" {
		x.title = widgets.Shorten(clean.Line(fl.Name), TitleMax)
	}
	switch fl.Kind {
	case mcp.FieldBoolean:
		x.Check = newFormCheck("Yes", func(bool) { x.touched = true }, submit, p)
		if b, ok := fl.Default.(bool); ok {
			x.Check.SetChecked(b)
		}
		x.touched = false
	case mcp.FieldEnum, mcp.FieldMulti:
		seen := map[string]bool{}
		for i := range fl.Options {
			l := widgets.Shorten(clean.Line(fl.Label(i)), OptionMax)
			if l == "" || seen[l] {
				l = fmt.Sprintf("%s (%d)", l, i+1) // labels tell options apart
			}
			seen[l] = true
			x.Labels = append(x.Labels, l)
		}
		defaults := x.defaultIndexes()
		switch {
		case len(fl.Options) > bigChoice:
			x.List = newChoiceList(x.Labels, fl.Kind == mcp.FieldMulti, defaults, submit, escape, p)
		case fl.Kind == mcp.FieldEnum:
			x.Select = newFormSelect(x.Labels, submit, p)
			if len(defaults) > 0 {
				x.Select.SetSelectedIndex(defaults[0])
			}
		default:
			x.Group = newOptionGroup(x.Labels, submit, p)
			var sel []string
			for _, i := range defaults {
				sel = append(sel, x.Labels[i])
			}
			x.Group.SetSelected(sel)
		}
	default:
		x.Entry = newElicitEntry(submit, escape, p)
		x.Entry.PlaceHolder = fieldHint(fl)
		x.Entry.Password = fl.Sensitive() // not shown on the screen as it is typed
		if fl.Default != nil {
			x.Entry.SetText(fmt.Sprint(fl.Default))
		}
	}
	return x
}

// defaultIndexes are the options the field's default chooses.
func (x *Field) defaultIndexes() []int {
	var vals []string
	switch d := x.Field.Default.(type) {
	case nil:
	case []any:
		for _, v := range d {
			vals = append(vals, fmt.Sprint(v))
		}
	default:
		vals = []string{fmt.Sprint(d)}
	}
	var out []int
	for _, v := range vals {
		for i, o := range x.Field.Options {
			if o == v {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// fieldHint is what an empty entry says it wants.
func fieldHint(fl mcp.Field) string {
	var h string
	switch fl.Kind {
	case mcp.FieldInteger:
		h = "a whole number"
	case mcp.FieldNumber:
		h = "a number"
	default:
		switch fl.Format {
		case "email":
			h = "an email address"
		case "uri":
			h = "a web address"
		case "date":
			h = "a date, YYYY-MM-DD"
		case "date-time":
			h = "a date and time, YYYY-MM-DDThh:mm:ssZ"
		}
	}
	switch {
	case fl.Min != nil && fl.Max != nil:
		h += fmt.Sprintf(" from %v to %v", *fl.Min, *fl.Max)
	case fl.Min != nil:
		h = strings.TrimPrefix(h+fmt.Sprintf(", at least %v", *fl.Min), ", ")
	case fl.Max != nil:
		h = strings.TrimPrefix(h+fmt.Sprintf(", at most %v", *fl.Max), ", ")
	}
	if fl.MaxLen != nil {
		h = strings.TrimPrefix(h+fmt.Sprintf(", up to %d characters", *fl.MaxLen), ", ")
	}
	return h
}

func (x *Field) object(p *Page) fyne.CanvasObject {
	switch {
	case x.Entry != nil:
		return overWheel(x.Entry, p)
	case x.Check != nil:
		return x.Check
	case x.Select != nil:
		return x.Select
	case x.Group != nil:
		return x.Group.object
	}
	return x.List.object
}

func (x *Field) focusable() fyne.Focusable {
	switch {
	case x.Entry != nil:
		return x.Entry
	case x.Check != nil:
		return x.Check
	case x.Select != nil:
		return x.Select
	case x.Group != nil && len(x.Group.Checks) > 0:
		return x.Group.Checks[0]
	case x.List != nil:
		return x.List.Filter
	}
	return nil
}

// value is the field's answer, typed; nil for none.
func (x *Field) value() (any, error) {
	switch {
	case x.Entry != nil:
		return x.Field.Parse(x.Entry.Text)
	case x.Check != nil:
		if !x.touched && !x.Field.Required && x.Field.Default == nil {
			return nil, nil // not answered
		}
		return x.Check.Checked, nil
	case x.Select != nil:
		i := x.Select.SelectedIndex()
		if i < 0 {
			return nil, nil
		}
		return x.Field.Options[i], nil
	case x.Group != nil:
		var out []any
		for i, l := range x.Labels {
			for _, s := range x.Group.Selected() {
				if s == l {
					out = append(out, x.Field.Options[i])
				}
			}
		}
		if out == nil {
			return nil, nil
		}
		return out, nil
	}
	chosen := x.List.chosenIndexes()
	if len(chosen) == 0 {
		return nil, nil
	}
	if x.Field.Kind == mcp.FieldEnum {
		return x.Field.Options[chosen[0]], nil
	}
	out := make([]any, len(chosen))
	for j, i := range chosen {
		out[j] = x.Field.Options[i]
	}
	return out, nil
}
