package gui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/gui/widgets"
)

// Prompts as slash commands in the message box. Typing "/" lists the
// ready servers' prompts above the box as /alias.prompt (filtered as one
// types on); choosing one (a click, or Enter on its exact name) asks for
// its arguments in a small form (required ones required; none, no form),
// asks the server for the prompt, and puts its messages in the message box
// to read before sending: the text of its user messages is the message, an
// assistant message's text is included marked as the prompt's words for
// the assistant, and its images and embedded resources are attached as a
// chip (conversation.PromptMessage says how). What a prompt holds that cannot
// go (audio) is said in a notice.

// promptsTTL is how long the servers' prompts are kept before "/" asks
// again.
const promptsTTL = 30 * time.Second

// maxSuggestions bounds the prompts listed above the box.
const maxSuggestions = 8

type slashPrompt struct {
	alias  string
	prompt servers.Prompt
}

func (sp slashPrompt) command() string { return sp.alias + "." + sp.prompt.Name }

// slashState belongs to the UI goroutine.
type slashState struct {
	p        *composer
	box      *fyne.Container // the suggestions; hidden unless the box holds "/…"
	prompts  []slashPrompt
	loadedAt time.Time
	loading  bool
	filter   string // what follows "/" in the box
	// form and fields are the arguments form while it is open, for tests.
	form   *dialog.FormDialog
	fields map[string]*widget.Entry
}

func newSlashState(p *composer) *slashState {
	s := &slashState{p: p, box: container.NewVBox()}
	s.box.Hide()
	return s
}

// hook listens to the message box's text as it changes; Enter and Send on
// a prompt's name reach the slash state from sendInput.
func (s *slashState) hook() {
	if u := s.p.u; u.input != nil {
		u.input.OnChanged = s.typed
	}
}

// slashWord reports whether text is "/word" being typed: one line, no
// space yet.
func slashWord(text string) (string, bool) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \t\r\n") || strings.Count(text, "/") != 1 {
		return "", false
	}
	return text[1:], true
}

func (s *slashState) typed(text string) {
	word, ok := slashWord(text)
	if !ok {
		s.hide()
		return
	}
	s.filter = word
	s.load()
	s.show()
}

// load asks the ready servers for their prompts, in the background.
func (s *slashState) load() {
	sys := s.p.u.d.System
	if sys == nil || s.loading || time.Since(s.loadedAt) < promptsTTL {
		return
	}
	s.loading = true
	log := s.p.u.log
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var out []slashPrompt
		list, _ := sys.ServerStatuses(ctx, false)
		for _, st := range list {
			if st.State != servers.StateReady {
				continue
			}
			l, err := sys.Prompts(ctx, st.Alias)
			if err != nil {
				log.Debug("listing prompts", "server", st.Alias, "err", err)
				continue
			}
			for _, pr := range l.Prompts {
				out = append(out, slashPrompt{alias: st.Alias, prompt: pr})
			}
		}
		s.p.u.post(func() {
			s.loading, s.loadedAt, s.prompts = false, time.Now(), out
			if s.box.Visible() {
				s.show()
			}
		})
	}()
}

// matches are the prompts whose /alias.prompt contains the filter.
func (s *slashState) matches() []slashPrompt {
	f := strings.ToLower(s.filter)
	var out []slashPrompt
	for _, sp := range s.prompts {
		if strings.Contains(strings.ToLower(sp.command()), f) {
			out = append(out, sp)
		}
	}
	return out
}

func (s *slashState) show() {
	var objs []fyne.CanvasObject
	matches := s.matches()
	for i, sp := range matches {
		if i == maxSuggestions {
			_, more := widgets.Subtle(fmt.Sprintf("… %d more: type on to narrow", len(matches)-maxSuggestions))
			objs = append(objs, more)
			break
		}
		text := "/" + sp.command()
		if d := firstLineOf(servers.Label(sp.prompt.Description, sp.prompt.Title)); d != "" {
			text += " — " + widgets.Shorten(d, 70)
		}
		b := widget.NewButton(text, func() { s.choose(sp, nil) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		objs = append(objs, b)
	}
	if len(objs) == 0 {
		switch {
		case s.loading:
			_, l := widgets.Subtle("Looking for the servers' prompts…")
			objs = append(objs, l)
		case len(s.prompts) > 0:
			_, l := widgets.Subtle("No prompt matches /" + s.filter)
			objs = append(objs, l)
		}
	}
	s.box.Objects = objs
	widgets.SetVisible(s.box, len(objs) > 0)
	s.box.Refresh()
	s.p.showChips()
}

func (s *slashState) hide() {
	if s.box.Visible() {
		s.box.Hide()
		s.p.showChips()
	}
}

// enter is Enter (or Send) with the message box holding "/alias.prompt"
// (and perhaps NAME=VALUE arguments): the prompt is chosen instead of the
// text sent. Anything else is sent as it is.
func (s *slashState) enter() bool {
	text := strings.TrimSpace(s.p.u.input.Text)
	if !strings.HasPrefix(text, "/") || strings.Contains(text, "\n") {
		return false
	}
	head, rest, _ := strings.Cut(text, " ")
	for _, sp := range s.prompts {
		if "/"+sp.command() == head {
			s.choose(sp, promptArgs(rest))
			return true
		}
	}
	return false
}

// promptArgs reads NAME=VALUE words typed after a prompt's name.
func promptArgs(rest string) map[string]string {
	out := map[string]string{}
	for _, w := range strings.Fields(rest) {
		if k, v, ok := strings.Cut(w, "="); ok && k != "" {
			out[k] = v
		}
	}
	return out
}

// choose asks for a prompt's arguments (prefilled from typed ones), then
// for the prompt.
func (s *slashState) choose(sp slashPrompt, given map[string]string) {
	s.hide()
	if len(sp.prompt.Arguments) == 0 {
		s.get(sp, nil)
		return
	}
	s.fields = map[string]*widget.Entry{}
	var items []*widget.FormItem
	for _, a := range sp.prompt.Arguments {
		e := widget.NewEntry()
		e.SetText(given[a.Name])
		label := servers.Label(a.Name, a.Title)
		if a.Required {
			label += " *"
			name := label
			e.Validator = func(v string) error {
				if strings.TrimSpace(v) == "" {
					return fmt.Errorf("%s is required", name)
				}
				return nil
			}
		}
		item := widget.NewFormItem(label, e)
		item.HintText = widgets.Shorten(firstLineOf(a.Description), 90)
		items = append(items, item)
		s.fields[a.Name] = e
	}
	fields := s.fields
	d := dialog.NewForm("/"+sp.command(), "Use", "Cancel", items, func(ok bool) {
		s.form = nil
		if !ok {
			return
		}
		args := map[string]string{}
		for name, e := range fields {
			if v := strings.TrimSpace(e.Text); v != "" {
				args[name] = v
			}
		}
		s.get(sp, args)
	}, s.p.u.win)
	s.form = d
	d.Resize(fyne.NewSize(480, d.MinSize().Height))
	d.Show()
}

// get asks the server for the prompt, and puts its messages in the message
// box.
func (s *slashState) get(sp slashPrompt, args map[string]string) {
	u := s.p.u
	sys := u.d.System
	if sys == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := sys.GetPrompt(ctx, sp.alias, sp.prompt.Name, args)
		u.post(func() {
			if err != nil {
				u.showError(fmt.Sprintf("/%s: %v", sp.command(), err))
				return
			}
			text, parts, notes := conversation.PromptMessage(res)
			u.input.setTextAtEnd(text)
			s.p.attachParts("/"+sp.command(), parts)
			if len(notes) > 0 {
				u.showError(strings.Join(notes, "\n"))
			}
			u.input.focus(u.win)
		})
	}()
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
