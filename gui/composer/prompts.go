package composer

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
	p        *Composer
	Box      *fyne.Container // the suggestions; hidden unless the box holds "/…"
	prompts  []slashPrompt
	loadedAt time.Time
	loading  bool
	filter   string // what follows "/" in the box
	// Form and fields are the arguments Form while it is open, for tests.
	Form   *dialog.FormDialog
	Fields map[string]*widget.Entry
}

func newSlashState(p *Composer) *slashState {
	s := &slashState{p: p, Box: container.NewVBox()}
	s.Box.Hide()
	return s
}

// hook listens to the message box's text as it changes; Enter and Send on
// a prompt's name reach the slash state from the window's send (Enter).
func (s *slashState) hook() { s.p.Entry.OnChanged = s.typed }

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
	sys := s.p.host
	if s.loading || time.Since(s.loadedAt) < promptsTTL {
		return
	}
	s.loading = true
	log := s.p.log
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var out []slashPrompt
		list, _ := sys.ServerStatuses(ctx)
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
		s.p.host.Post(func() {
			s.loading, s.loadedAt, s.prompts = false, time.Now(), out
			if s.Box.Visible() {
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
	s.Box.Objects = objs
	widgets.SetVisible(s.Box, len(objs) > 0)
	s.Box.Refresh()
	s.p.showChips()
}

func (s *slashState) hide() {
	if s.Box.Visible() {
		s.Box.Hide()
		s.p.showChips()
	}
}

// Enter is Enter (or Send) with the message box holding "/alias.prompt"
// (and perhaps NAME=VALUE arguments): the prompt is chosen instead of the
// text sent. Anything else is sent as it is.
func (s *slashState) Enter() bool {
	text := strings.TrimSpace(s.p.Entry.Text)
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
	s.Fields = map[string]*widget.Entry{}
	var items []*widget.FormItem
	var d *dialog.FormDialog
	var first fyne.Focusable
	for _, a := range sp.prompt.Arguments {
		// Enter uses the prompt, Escape cancels, from a field too.
		esc := widgets.NewEscEntry(func() { d.Hide() })
		esc.OnSubmitted = func(string) { d.Submit() }
		if first == nil {
			first = esc
		}
		e := &esc.Entry
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
		item := widget.NewFormItem(label, esc)
		item.HintText = widgets.Shorten(firstLineOf(a.Description), 90)
		items = append(items, item)
		s.Fields[a.Name] = e
	}
	fields := s.Fields
	win := s.p.host.Window()
	back := s.p.host.KeepFocus()
	d = dialog.NewForm("/"+sp.command(), "Use", "Cancel", items, func(ok bool) {
		s.Form = nil
		back()
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
	}, win)
	s.Form = d
	d.Resize(fyne.NewSize(480, d.MinSize().Height))
	// The window's keys do the same once a click took the keyboard from
	// the fields; the first field has it at once. (A plain dialog: no
	// field had the keyboard, and Enter and Escape did nothing.)
	widgets.WithDialogKeys(d, win, d.Submit, d.Hide)
	win.Canvas().Focus(first)
}

// get asks the server for the prompt, and puts its messages in the message
// box.
func (s *slashState) get(sp slashPrompt, args map[string]string) {
	p := s.p
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := p.host.GetPrompt(ctx, sp.alias, sp.prompt.Name, args)
		p.host.Post(func() {
			if err != nil {
				p.host.ShowError(fmt.Sprintf("/%s: %v", sp.command(), err))
				return
			}
			text, parts, notes := conversation.PromptMessage(res)
			p.Entry.SetTextAtEnd(text)
			p.attachParts("/"+sp.command(), parts)
			if len(notes) > 0 {
				p.host.ShowError(strings.Join(notes, "\n"))
			}
			p.focus()
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
