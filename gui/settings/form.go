package settings

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/clean"
	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/transport/llm"
)

// Form is the settings window. Its exported fields are the widgets it
// shows, for tests; they belong to the UI goroutine.
type Form struct {
	host Host
	w    fyne.Window
	Tabs *container.AppTabs

	// General: the model, its key, how it answers, the look.
	Service *widgets.PageSelect // the service by name: its address, format and first model
	// modelFor is the service whose model the Model field holds: choosing
	// another puts that one's model there (gpt-4o stayed under Anthropic).
	modelFor  string
	urlHint   *widget.Label // under the model's URL: the format it speaks
	Model     *widgets.PageSelectEntry
	APIKey    *widgets.PageEntry // typed, kept in the keyring on Save; never shown again
	KeyStatus *widget.Label
	keyHint   *widget.Label       // under the key: where a key typed here is kept
	Checked   *widget.Label       // what Check found
	checks    int                 // Checks asked: older answers are dropped
	checking  bool                // the last Check asked has not answered yet
	pages     []*container.Scroll // the tabs' scrollers, in order
	opened    config.SettingsForm // the form as it opened (or was last saved): only changes are written
	RemoveKey *widgets.RingButton
	// useFile: no keyring runs, and the person chose the key file (asked
	// first, told it is less safe); keyFile offers it.
	useFile  bool
	keyFile  *widgets.RingButton
	keyCheck int // the key status asked last: older answers are dropped
	// keyWanted is the model URL (keys.Account) a Check found asking for
	// a key: the key status does not say it needs none.
	keyWanted string
	// shown is the key state the status says now, and for which URL and
	// variable: a Check that finds a key wanted redraws the status from
	// it in the same frame as its own answer.
	shown struct {
		st        keyState
		base, env string
		ok        bool
	}
	Prompt    *widgets.PageEntry
	TempAuto  *widgets.PageCheck
	Temp      *widgets.PageSlider
	tempLabel *widget.Label
	Theme     *widgets.EscRadio
	TextSize  *widgets.PageSlider
	// settingLook: setLook is putting a look in the form, not the person
	// choosing one (see setLook).
	settingLook bool
	TextLabel   *widget.Label
	// sizeQueued: the slider's size is to be applied once the keys typed
	// with it are in (see applySize).
	sizeQueued bool
	visits     int // Close counts them: a size queued before is dropped

	// Permissions: grants and rules (permissions.go), the policy.
	grants, RulesList                *fyne.Container
	Workspace, ReadRoots, WriteRoots *widgets.PageEntry
	AllowExec                        *widgets.PageCheck

	// Advanced.
	BaseURL, APIKeyEnv, maxOut, Budget, Timeout *widgets.PageEntry
	// PriceIn and PriceOut are the model's price per million tokens,
	// input and output, in US dollars: the cost shown beside the tokens.
	PriceIn, PriceOut *widgets.PageEntry
	urlBox            fyne.CanvasObject // the URL and its hint
	Rules             *widgets.PageEntry

	// Save and Close are ringed when Tab lands on them, and Return or
	// Space presses them: Fyne's Save (an accent button) looked the same
	// focused or not, and took only Space (new-user pass 12: Tab from
	// Close showed no ring anywhere, and Return saved nothing).
	save    *widgets.RingButton
	check   *widgets.RingButton
	Saving  bool // a key is on its way to the keyring
	syncing bool // the service and the URL are being matched
}

// heading is a section's title in the settings. It wraps: "Policy: what
// tools may touch" alone needed 403 px at 150%, in a pane of 401.
func heading(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Wrapping = fyne.TextWrapWord
	l.SizeName = theme.SizeNameSubHeadingText
	return l
}

// note is a paragraph of explanation.
func note(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// Open makes the settings' panel and shows it.
func Open(h Host) *Form {
	w := h.NewPanel("Deckhand: settings")
	if icon := h.Icon(); icon != nil {
		w.SetIcon(icon)
	}
	f := newForm(h, w)

	// General.
	f.check = widgets.NewRingButtonWithIcon("Check", theme.SearchIcon(), f.checkModel)
	check := f.check
	var keyBox *fyne.Container
	// Remove key is under the key's status, not beside the field: there it
	// cut the placeholder at 640x480 (the field was 179 px wide).
	keyBox, f.keyHint = widgets.WithHint(widgets.OverPage(f.APIKey, f.page(0)), keyHintKeyring)
	model := widget.NewForm(widgets.WrappedHints(
		&widget.FormItem{Text: "Service", Widget: f.Service, HintText: "where the model runs: on this computer, or a provider on the internet"},
		&widget.FormItem{Text: "Model", Widget: container.NewBorder(nil, nil, nil, check, widgets.OverPage(f.Model, f.page(0))), HintText: "the model's name; Check asks the service which it offers"},
		&widget.FormItem{Text: "API key", Widget: keyBox},
	)...)
	answers := widget.NewForm(widgets.WrappedHints(
		&widget.FormItem{Text: "Instructions", Widget: widgets.OverPage(f.Prompt, f.page(0)), HintText: "said to the model before every chat, such as \"Answer in French\" or \"I work in Go\""},
		&widget.FormItem{Text: "Creativity", Widget: container.NewBorder(nil, nil, f.TempAuto, f.tempLabel, f.Temp), HintText: "temperature: low is focused and repeatable, high is varied"},
	)...)
	look := widget.NewForm(
		&widget.FormItem{Text: "Theme", Widget: f.Theme},
		&widget.FormItem{Text: "Text size", Widget: container.NewBorder(nil, nil, nil, widgets.FixedWidth(f.TextLabel, "150%"), f.TextSize)},
	)
	general := container.NewVBox(
		// Labels above the fields where the pane is too narrow for both
		// side by side: the Service's name was cut ("Other (its address
		// is under Adva…") at 640x480 and 128%.
		heading("Language model"), widgets.NarrowForm(model, f.relayout), f.Checked, f.KeyStatus, container.NewHBox(f.RemoveKey, f.keyFile),
		// These two as well: at 640x480 and the largest text (150%) the
		// theme's choices beside their label and Creativity's row made
		// the page 460 px wide in a pane of 401, the text size's value
		// cut to "1…" and "Dark" to "Da" (new-user pass 12).
		widget.NewSeparator(), heading("Answers"), widgets.NarrowForm(answers, f.relayout),
		widget.NewSeparator(), heading("Appearance"), widgets.NarrowForm(look, f.relayout),
	)

	// Permissions.
	execHint := "the model may propose commands, each asked every time, and use the built-in shell tool; both run sandboxed in the workspace"
	if f.host.Config().Shell.Disabled {
		execHint = "shell.disabled is set in the config file: CMD: lines stay plain text until it is removed"
	}
	policy := widget.NewForm(widgets.WrappedHints(
		&widget.FormItem{Text: "Workspace folder", Widget: widgets.OverPage(f.Workspace, f.page(1)), HintText: "where tools and shell commands work; created on first use"},
		&widget.FormItem{Text: "Read roots", Widget: widgets.OverPage(f.ReadRoots, f.page(1)), HintText: "folders tools may read, one a line; empty: the workspace (write roots can be read too)"},
		&widget.FormItem{Text: "Write roots", Widget: widgets.OverPage(f.WriteRoots, f.page(1)), HintText: "folders tools may read and write, one a line; empty: the workspace"},
		&widget.FormItem{Text: "", Widget: f.AllowExec, HintText: execHint},
	)...)
	permissions := container.NewVBox(
		heading("Always allowed"),
		note("Tools you answered \"Always\" for run without asking. Revoke one and it is asked again from its next call."),
		f.grants,
		widget.NewSeparator(), heading("Allowed by rule"),
		note("Rules from the settings file (mcp.auto_approve). They can be added under Advanced."),
		f.RulesList,
		widget.NewSeparator(), heading("Policy: what tools may touch"),
		note("What tools may touch, whatever you allow when asked: calls naming files outside these folders are refused before they run."),
		// Labels above the fields where the pane is too narrow for
		// both side by side (640x480 at 128%).
		widgets.NarrowForm(policy, func() { f.relayoutPage(1) }),
	)

	// Advanced.
	advanced := container.NewVBox(
		note("For developers and unusual setups. Most people never need these."),
		widget.NewForm(widgets.WrappedHints(
			&widget.FormItem{Text: "Model URL", Widget: f.urlBox},
			&widget.FormItem{Text: "API key variable", Widget: widgets.OverPage(f.APIKeyEnv, f.page(2)), HintText: "an environment variable holding the key; when set, it wins over the saved key"},
			&widget.FormItem{Text: "Longest answer", Widget: widgets.OverPage(f.maxOut, f.page(2)), HintText: "max_tokens, in tokens; empty: the model's own limit"},
			// The model's price, one field a row: side by side, with their
			// labels, they made the page 510 px wide at 640x480.
			&widget.FormItem{Text: "Input price", Widget: widgets.OverPage(f.PriceIn, f.page(2)), HintText: "US dollars per million tokens in, for the model named under General; empty: cost unknown"},
			&widget.FormItem{Text: "Output price", Widget: widgets.OverPage(f.PriceOut, f.page(2)), HintText: "US dollars per million tokens out; the cost shows beside the tokens"},
			&widget.FormItem{Text: "Context budget", Widget: widgets.OverPage(f.Budget, f.page(2)), HintText: "tokens per request; the oldest turns are dropped to fit"},
			&widget.FormItem{Text: "Approval timeout", Widget: widgets.OverPage(f.Timeout, f.page(2)), HintText: "unanswered approvals are denied after this (e.g. 2m)"},
			&widget.FormItem{Text: "Auto-approve", Widget: widgets.OverPage(f.Rules, f.page(2)), HintText: "one rule a line: alias.tool or alias.* (= false to always ask)"},
		)...),
	)

	pad := func(o fyne.CanvasObject) fyne.CanvasObject {
		sc := container.NewScroll(container.NewPadded(o))
		f.pages = append(f.pages, sc)
		return sc
	}
	f.Tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("General", theme.SettingsIcon(), pad(general)),
		container.NewTabItemWithIcon("Permissions", theme.AccountIcon(), pad(permissions)),
		container.NewTabItemWithIcon("Advanced", theme.ComputerIcon(), pad(advanced)),
	)
	f.followFocus()
	f.Tabs.OnSelected = func(t *container.TabItem) {
		if t.Text == "Permissions" {
			f.listGrants()
		}
	}
	// Ring buttons: Fyne's kept Escape while focused (see CloseKeys).
	cancel := widgets.NewRingButton("Close", f.Close)
	path, pathObj := widgets.Caption("Saved in " + f.host.Config().Path)
	// Broken anywhere, shown whole: a path has no spaces to wrap at, and
	// cut short it named no file ("…/.config/deckhand/con…").
	path.Wrapping = fyne.TextWrapBreak
	buttons := container.NewHBox(layout.NewSpacer(), cancel, f.save)
	w.SetContent(container.NewBorder(nil, container.NewPadded(container.NewVBox(pathObj, buttons)), nil, nil, fitTabs(f.Tabs)))
	w.Resize(fyne.NewSize(760, 680))
	w.SetCloseIntercept(f.Close)
	widgets.CloseKeys(w, f.Close, h.Quit)
	f.showRules()
	f.listGrants()
	f.refreshKey()
	w.Show()
	f.focusStart()
	return f
}

func newForm(h Host, w fyne.Window) *Form {
	m := h.Config().Model
	f := &Form{
		host:      h,
		w:         w,
		BaseURL:   widgets.NewPageEntry(false, false),
		Model:     widgets.NewPageSelectEntry(nil),
		APIKey:    widgets.NewPageEntry(false, true),
		KeyStatus: note(""),
		Checked:   note(""),
		APIKeyEnv: widgets.NewPageEntry(false, false),
		maxOut:    widgets.NewPageEntry(false, false),
		PriceIn:   widgets.NewPageEntry(false, false),
		PriceOut:  widgets.NewPageEntry(false, false),
		Budget:    widgets.NewPageEntry(false, false),
		Timeout:   widgets.NewPageEntry(false, false),
		Rules:     widgets.NewPageEntry(true, false),
		Prompt:    widgets.NewPageEntry(true, false),
		grants:    container.NewVBox(),
		RulesList: container.NewVBox(),
	}
	f.Checked.Hide()
	names := []string{}
	for _, s := range services {
		names = append(names, s.name)
	}
	f.Service = widgets.NewPageSelect(append(names, otherService), func(name string) {
		if f.syncing {
			return
		}
		url, set := f.BaseURL.Text, false
		if s, ok := serviceNamed(name); ok {
			url, set = s.url, true
		} else if serviceTyped(url, "") != otherService {
			// Other, from a named service: not its address, but the
			// one saved for Other if any, else one to type.
			url, set = "", true
			if serviceOf(f.opened.BaseURL, f.opened.Provider) == otherService {
				url = f.opened.BaseURL
			}
		}
		if set {
			f.syncing = true
			f.BaseURL.SetText(url)
			f.syncing = false
		}
		f.modelOf(name)
		f.showFormat()
		if name == otherService && f.Tabs != nil {
			f.Tabs.SelectIndex(2)
			w.Canvas().Focus(f.BaseURL)
		}
		f.refreshKey()
	})
	f.BaseURL.OnChanged = func(string) {
		if f.syncing {
			return
		}
		f.syncing = true
		f.Service.SetSelected(serviceTyped(f.BaseURL.Text, f.Service.Selected))
		f.syncing = false
		f.showFormat()
		f.refreshKey()
	}
	var urlBox *fyne.Container
	urlBox, f.urlHint = widgets.WithHint(widgets.OverPage(f.BaseURL, f.page(2)), "")
	f.urlBox = urlBox
	f.BaseURL.SetPlaceHolder("http://127.0.0.1:11434/v1")
	if m.BaseURL == "" {
		f.Service.PlaceHolder = "choose one"
	}
	f.Model.SetPlaceHolder("llama3.2, gpt-4o-mini, …")
	f.APIKey.SetPlaceHolder("paste the key here")
	f.RemoveKey = widgets.NewRingButtonWithIcon("Remove key", theme.DeleteIcon(), f.forgetKey)
	f.RemoveKey.Hide()
	f.keyFile = widgets.NewRingButtonWithIcon("Keep the key in a file…", theme.DocumentSaveIcon(), f.askKeyFile)
	f.keyFile.Hide()
	f.APIKeyEnv.OnChanged = func(string) { f.refreshKey() }
	f.APIKey.OnChanged = func(string) { f.sayKey() } // typed, not saved yet
	f.maxOut.SetPlaceHolder("the model's own")
	f.PriceIn.SetPlaceHolder("unknown")
	f.PriceOut.SetPlaceHolder("unknown")
	widgets.Growing(&f.Rules.Entry, 4)

	f.Prompt.SetPlaceHolder("Optional. For example: Answer in British English. Explain commands before you run them.")
	f.Prompt.Wrapping = fyne.TextWrapWord
	widgets.Growing(&f.Prompt.Entry, 4)
	f.Temp = widgets.NewPageSlider(0, 2)
	f.Temp.Step = 0.1
	f.tempLabel = widget.NewLabel("")
	f.Temp.OnChanged = func(v float64) { f.tempLabel.SetText(fmt.Sprintf("%.1f", v)) }
	f.TempAuto = widgets.NewPageCheck("The model's default", func(on bool) {
		if on {
			f.Temp.Disable()
			f.tempLabel.SetText("")
		} else {
			f.Temp.Enable()
			f.tempLabel.SetText(fmt.Sprintf("%.1f", f.Temp.Value))
		}
	})

	// Its options hand Escape to the window (Fyne's RadioGroup kept it).
	f.Theme = widgets.NewEscRadio([]string{"System", "Light", "Dark"})
	f.Theme.OnChanged = func(string) {
		if !f.settingLook {
			h.ApplyLook(f.look())
		}
	}
	f.TextSize = widgets.NewPageSlider(config.MinTextScale*100, config.MaxTextScale*100)
	// No steps: the thumb follows the pointer; the size is applied,
	// rounded to a percent, when the thumb is let go. The arrow keys move
	// it by 5%, each press applied.
	f.TextSize.Step = 0
	f.TextSize.KeyStep = 5
	f.TextLabel = widget.NewLabel("")
	f.TextSize.OnChanged = func(v float64) { f.TextLabel.SetText(fmt.Sprintf("%.0f%%", v)) }
	f.TextSize.OnChangeEnded = func(float64) {
		if f.settingLook {
			return
		}
		f.applySize()
	}

	f.Workspace = widgets.NewPageEntry(false, false)
	f.Workspace.SetPlaceHolder(config.DefaultWorkspace)
	f.ReadRoots, f.WriteRoots = widgets.NewPageEntry(true, false), widgets.NewPageEntry(true, false)
	widgets.Growing(&f.ReadRoots.Entry, 3)
	widgets.Growing(&f.WriteRoots.Entry, 3)
	f.AllowExec = widgets.NewPageCheck("Allow shell commands (CMD: lines)", nil)
	f.save = widgets.NewRingButtonWithIcon("Save", theme.DocumentSaveIcon(), f.saveAndClose)
	f.save.Importance = widget.HighImportance
	f.fill()
	return f
}

// fill puts the config's values in the fields: as the settings open, and
// again when they are closed without Save, so that what was typed and not
// saved is not shown on reopening as if it were in force (Instructions
// typed then closed stayed, though neither saved nor sent; the theme
// already went back).
func (f *Form) fill() {
	cfg := f.host.Config()
	m, p := cfg.Model, cfg.Policy
	provider := m.Provider
	if provider == "" {
		provider = config.ImpliedProvider(m.BaseURL)
	}
	f.syncing = true
	f.BaseURL.SetText(m.BaseURL)
	if m.BaseURL == "" && provider != "anthropic" {
		f.Service.ClearSelected()
	} else {
		f.Service.SetSelected(serviceOf(m.BaseURL, provider))
	}
	f.syncing = false
	f.modelFor = f.Service.Selected
	f.Model.SetText(m.Name)
	f.showFormat()
	f.APIKey.SetText("")
	f.APIKeyEnv.SetText(m.APIKeyEnv)
	f.maxOut.SetText("")
	if m.MaxOutputTokens > 0 {
		f.maxOut.SetText(strconv.Itoa(m.MaxOutputTokens))
	}
	f.PriceIn.SetText("")
	f.PriceOut.SetText("")
	if _, own := m.Prices[m.Name]; own || m.Price != (config.Price{}) {
		price := m.PriceFor(m.Name)
		f.PriceIn.SetText(strconv.FormatFloat(price.InputPerMTok, 'f', -1, 64))
		f.PriceOut.SetText(strconv.FormatFloat(price.OutputPerMTok, 'f', -1, 64))
	}
	f.Budget.SetText(strconv.Itoa(m.MaxContextTokens))
	f.Timeout.SetText(cfg.MCP.ApprovalTimeout.String())
	f.Rules.SetText(config.FormatRules(cfg.MCP.AutoApprove))
	f.Prompt.SetText(m.SystemPrompt)
	if m.Temperature != nil {
		f.Temp.SetValue(*m.Temperature)
		f.TempAuto.SetChecked(false)
		f.tempLabel.SetText(fmt.Sprintf("%.1f", *m.Temperature))
	} else {
		f.Temp.SetValue(0.7)
		f.TempAuto.SetChecked(true)
	}
	f.setLook(cfg.UI)
	f.Workspace.SetText(p.Workspace)
	for _, r := range []struct {
		e     *widgets.PageEntry
		roots []string
		none  string
	}{
		{f.ReadRoots, p.FS.ReadRoots, "none besides the write roots (read_roots = [] in the config)"},
		{f.WriteRoots, p.FS.WriteRoots, "none (write_roots = [] in the config)"},
	} {
		r.e.SetText(strings.Join(r.roots, "\n"))
		// An empty list in the file is not the same as no list: say which.
		if r.roots != nil && len(rootLines(strings.Join(r.roots, "\n"))) == 0 {
			r.e.SetPlaceHolder(r.none)
		} else {
			r.e.SetPlaceHolder("the workspace (" + p.WorkspaceDir() + ")")
		}
	}
	f.AllowExec.SetChecked(p.AllowExec)
	f.opened = f.form()
}

// look is the theme and text size the form shows.
func (f *Form) look() config.UI {
	ui := config.UI{Theme: strings.ToLower(f.Theme.Selected), TextScale: math.Round(f.TextSize.Value) / 100}
	if ui.Theme == config.ThemeSystem {
		ui.Theme = ""
	}
	if ui.TextScale == 1 {
		ui.TextScale = 0
	}
	return ui
}

// setLook shows ui in the form without applying it. Setting the theme's
// choice and the slider calls their handlers, and the theme's ran with the
// slider not yet set (0, read as 100%): opening the settings at another
// text size redrew the whole window at 100%, then at its own size again
// (two theme changes: Fyne's font faces parsed again, and the chat's
// rows made again and measured).
func (f *Form) setLook(ui config.UI) {
	f.settingLook = true
	defer func() { f.settingLook = false }()
	t := ui.ThemeOrDefault()
	f.Theme.SetSelected(strings.ToUpper(t[:1]) + t[1:])
	f.TextSize.SetValue(ui.Scale() * 100)
	f.TextLabel.SetText(fmt.Sprintf("%.0f%%", ui.Scale()*100))
}

// Close hides the window; what was changed and not saved is undone: the
// look tried, and every field typed or chosen (a key on its way to the
// keyring is being saved with the form: that save fills them).
func (f *Form) Close() {
	f.visits++
	if !f.Saving {
		f.fill()
	}
	f.host.ApplyLook(f.host.Config().UI)
	f.w.Hide()
}

// temperature is the form's temperature as the config file's text.
func (f *Form) temperature() string {
	if f.TempAuto.Checked {
		return ""
	}
	return strconv.FormatFloat(math.Round(f.Temp.Value*10)/10, 'f', -1, 64)
}

// saveAndClose saves the form (a typed key first, to the
// keyring: off the UI goroutine, since the keyring may ask to be
// unlocked) and closes the window, or shows what is wrong.
func (f *Form) saveAndClose() {
	if f.Saving || f.modelMissing() {
		return
	}
	key := strings.TrimSpace(f.APIKey.Text)
	if key == "" {
		if err := f.saveForm(); err != nil {
			widgets.ShowError(err, f.w)
			return
		}
		f.w.Hide()
		return
	}
	// Check the rest first: a bad field should not leave a key stored
	// for a URL that is not saved.
	if _, err := f.edits(); err != nil {
		widgets.ShowError(err, f.w)
		return
	}
	base := strings.TrimSpace(f.BaseURL.Text)
	f.Saving = true
	f.save.Disable()
	useFile := f.useFile
	go func() {
		var err error
		if useFile {
			var path string
			if path, err = keys.FilePath(""); err == nil {
				err = keys.StoreFile(path, base, key)
			}
		} else {
			err = keys.Store(base, key)
		}
		f.host.Post(func() {
			f.Saving = false
			f.save.Enable()
			if err != nil {
				widgets.ShowError(keyError(err), f.w)
				return
			}
			// Redacted from the log and tool results before the
			// conversations get the config that uses it.
			f.host.AddSecret(key)
			f.APIKey.SetText("")
			if err := f.saveForm(); err != nil {
				f.refreshKey()
				widgets.ShowError(err, f.w)
				return
			}
			f.refreshKey()
			f.w.Hide()
		})
	}()
}

// modelMissing says under Model, on General, what a model chosen lacks
// (its name, or Other's address), and reports whether it lacks one: Save
// wrote a service with no model, and every chat then lost its model
// (new-user pass 13). No service and no address is no model set up yet,
// which the window handles: saved as it is.
func (f *Form) modelMissing() bool {
	url := strings.TrimSpace(f.BaseURL.Text)
	if url == "" && f.Service.Selected == "" {
		return false
	}
	var why string
	switch name, _, _ := strings.Cut(f.Service.Selected, ","); {
	case url == "":
		why = "Model URL, under Advanced, is empty: give the address of the service's API there (such as http://127.0.0.1:11434/v1), or choose a Service by name."
	case strings.TrimSpace(f.Model.Text) == "":
		if name == "" || f.Service.Selected == otherService {
			name = url
		}
		why = "Model is empty: type the name of the model to use, or press Check to list the ones " + name + " offers, then Save."
	default:
		return false
	}
	f.Tabs.SelectIndex(0)
	f.say(why, widget.DangerImportance)
	f.w.Canvas().Focus(f.Model)
	return true
}

// page is the scroller of tab i, once made.
func (f *Form) page(i int) func() *container.Scroll {
	return func() *container.Scroll {
		if i < len(f.pages) {
			return f.pages[i]
		}
		return nil
	}
}

// applySize applies the text size the slider shows, after the keys that
// came with this one and the frame that shows the new value: a new size
// redraws every window (every widget's theme, Fyne's font caches), and
// done at each key press it held each next key and frame back by as
// long. Keys typed quickly were then seen to act late, a step or more
// behind, as if lost, doubled or reversed (new-user pass 12: six Rights
// showed 105%, a Left made the text bigger, the value read 140, 140,
// 130). Keys typed together are applied as one size.
func (f *Form) applySize() {
	if f.sizeQueued {
		return
	}
	f.sizeQueued = true
	visit := f.visits
	f.host.Post(func() {
		f.sizeQueued = false
		if visit != f.visits {
			return // closed meanwhile: Close put the saved look back
		}
		f.keepInSight(f.TextSize, func() { f.host.ApplyLook(f.look()) })
	})
}

// keepInSight runs change (a new text size, which grows or shrinks all
// that is above o on its page) and scrolls the page so that o stays where
// it was on screen: the slider let go is under the pointer still, for the
// next try, and not below the fold.
func (f *Form) keepInSight(o fyne.CanvasObject, change func()) {
	page := f.page(0)()
	d := fyne.CurrentApp().Driver()
	if page == nil || d.CanvasForObject(o) == nil {
		change()
		return
	}
	at := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(page).Y
	change()
	// Laid out now at the new size, not at the next frame, to know where
	// o went: the scroller sizes its content, the content its rows, and
	// the rows wrapped at their new width ask for their height again.
	page.Refresh()
	page.Content.Refresh()
	page.Refresh()
	// Where it was, unless that is now past the page's bottom (the page
	// shrinks as the buttons under it grow).
	at = max(0, min(at, page.Size().Height-o.Size().Height))
	moved := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(page).Y - at
	most := max(0, page.Content.Size().Height-page.Size().Height)
	page.Offset.Y = min(max(0, page.Offset.Y+moved), most)
	page.Refresh()
}

// say puts text under the model, where the person looks next: what Check
// found, or why the settings opened.
func (f *Form) say(text string, imp widget.Importance) {
	f.Checked.SetText(text)
	f.Checked.Importance = imp
	f.Checked.Show()
	f.Checked.Refresh()
	f.relayout()
	f.reveal(f.Checked)
}

// reveal scrolls the General page, as little as it takes, so that o is
// in sight: what Check found is said under the API key, and at 640x480
// that was five wheel notches below the button clicked.
func (f *Form) reveal(o fyne.CanvasObject) {
	page := f.page(0)()
	if page == nil || page.Content == nil || page.Size().Height <= 0 {
		return
	}
	// Laid out now, with o's new text: the scroller sizes its content to
	// the taller page, and the content places o.
	page.Refresh()
	page.Content.Refresh()
	widgets.InView(page, o)
}

// relayout lays the General page out again. A label shown (or hidden) in
// a page at rest otherwise keeps the size it had, and is not seen: what
// Check found never appeared once the pointer had rested on the button.
func (f *Form) relayout() { f.relayoutPage(0) }

// relayoutPage lays tab i's page out again.
func (f *Form) relayoutPage(i int) {
	if p := f.page(i)(); p != nil && p.Content != nil {
		p.Content.Refresh()
	}
}

// form is what the form holds.
func (f *Form) form() config.SettingsForm {
	return config.SettingsForm{
		BaseURL: f.BaseURL.Text, Provider: f.provider(), Model: f.Model.Text, APIKeyEnv: f.APIKeyEnv.Text,
		ContextBudget: f.Budget.Text, ApprovalTimeout: f.Timeout.Text, AutoApprove: f.Rules.Text,
		SystemPrompt: f.Prompt.Text, Temperature: f.temperature(), MaxOutputTokens: f.maxOut.Text,
		UI: f.look(), PriceIn: f.PriceIn.Text, PriceOut: f.PriceOut.Text,
	}
}

// configChange is what saving the settings does to the config file.
type configChange struct {
	edits  []config.Edit
	tables map[string]map[string]any
}

// edits reads the form into edits of the config file.
func (f *Form) edits() (configChange, error) {
	edits, tables, err := f.form().EditsSince(f.opened)
	if err != nil {
		return configChange{}, err
	}
	pol, err := policyEdits(f.host.Config().Policy, f.Workspace.Text, f.ReadRoots.Text, f.WriteRoots.Text, f.AllowExec.Checked)
	if err != nil {
		return configChange{}, err
	}
	return configChange{edits: append(edits, pol...), tables: tables}, nil
}

// saveForm checks the form, writes it to the config file (keeping the
// rest of the file as it is) and gives every conversation the new config.
func (f *Form) saveForm() error {
	up, err := f.edits()
	if err != nil {
		return err
	}
	if err := f.host.WriteConfig(up.edits, up.tables); err != nil {
		return err
	}
	f.host.ApplyLook(f.host.Config().UI)
	f.showRules()
	f.opened = f.form() // what is saved is what a later save compares with
	return nil
}

// checkModel asks the endpoint in the form for its models and offers them,
// with the key typed, or else the one saved or in the environment.
func (f *Form) checkModel() {
	// The answer is said under the model, where the person looks next: no
	// box to dismiss before picking one.
	say := f.say
	// The keyboard stays on Check: a click on it takes the focus from
	// wherever it was (Fyne's), and the next Tab went to New chat in the
	// sidebar, the start of the window.
	if c := f.w.Canvas(); c.Focused() == nil && c.Overlays().Top() == nil {
		c.Focus(f.check)
	}
	base := strings.TrimSpace(f.BaseURL.Text)
	if base == "" {
		say("Choose a service first (or give the model URL under Advanced, such as http://127.0.0.1:11434/v1).", widget.DangerImportance)
		return
	}
	typed := strings.TrimSpace(f.APIKey.Text)
	provider := f.provider()
	m := config.Model{Provider: provider, BaseURL: base, APIKeyEnv: strings.TrimSpace(f.APIKeyEnv.Text)}
	f.checks++
	n := f.checks
	f.checking = true
	say("Asking "+base+" for its models…", widget.MediumImportance)
	go func() {
		var models []string
		var sent bool // a key went with the last request
		list := func(key keys.Key) error {
			k := key.Value()
			if typed != "" {
				k = typed
			}
			sent = k != ""
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var err error
			models, err = llm.ListModelsFor(ctx, provider, base, k)
			return err
		}
		var err error
		if typed != "" {
			err = list(keys.Key{})
		} else {
			// Without a key first: the keyring (locked, absent or slow)
			// is asked only when the server wants a key.
			err = keys.Try(m, f.host.LookupEnv, list, llm.NeedsKey, func(account string) bool {
				// The keyring's unlock prompt comes next: say whose
				// key it is for while it waits.
				f.host.Post(func() {
					if n == f.checks {
						say("Deckhand needs the API key for "+account+" from the keyring: unlock the keyring when it asks.", widget.MediumImportance)
					}
				})
				return true
			})
		}
		f.host.Post(func() {
			if n != f.checks {
				return // a later Check is under way
			}
			f.checking = false
			var need *keys.KeyNeededError
			switch {
			case errors.As(err, &need):
				why := keyError(need.Err).Error()
				say(base+" asks for an API key (it refused the list without one), and "+strings.ToLower(why[:1])+why[1:], widget.DangerImportance)
				return
			case llm.NeedsKey(err) && !sent:
				// Not "did not answer as expected: 401": the key is
				// what is missing, and the key status under this
				// no longer says a model here needs none.
				f.keyWanted = keys.Account(base)
				if sh := f.shown; sh.ok && sh.base == base {
					f.showKey(sh.st, sh.base, sh.env) // in this frame, with the answer below
				}
				f.refreshKey()
				say(keys.Account(base)+" asks for an API key and none is saved for it: paste it in API key.", widget.DangerImportance)
				return
			case llm.NeedsKey(err):
				say(keys.Account(base)+" refused the API key sent ("+clean.Line(err.Error())+"): paste the right one in API key.", widget.DangerImportance)
				return
			case err != nil:
				say("The model server did not answer as expected: "+clean.Line(err.Error()), widget.DangerImportance)
				return
			}
			f.Model.SetOptions(models)
			msg := fmt.Sprintf("%s answers with %d %s.", base, len(models), widgets.Plural(len(models), "model", "models"))
			importance := widget.SuccessImportance
			if name := strings.TrimSpace(f.Model.Text); len(models) > 0 && !slices.Contains(models, name) {
				if name != "" {
					msg += " " + name + " is not one of them."
				}
				msg += " Pick one in Model."
				// Something to do: not said in the colour of all good.
				importance = widget.WarningImportance
			}
			say(msg, importance)
		})
	}()
}

// Window is the settings' panel.
func (f *Form) Window() fyne.Window { return f.w }

// NewVisit starts a visit to the settings, shown again after they were
// left: what a Check found belongs to the visit that asked (the settings
// reopened later said "answers with 4 models" in green still, of a list
// asked who knows when). A Check still under way goes on, and says what
// it found in this visit. The visit starts at the top of General, as
// the first did: reopened, the settings kept the tab and the scroll of
// the last visit, and a second visit for the model opened at
// Appearance, the model above the fold. (A caller that wants another
// place, ChooseModel or FocusKey, goes there after.)
func (f *Form) NewVisit() {
	if !f.checking {
		f.Checked.SetText("")
		f.Checked.Hide()
		f.relayout()
	}
	f.Tabs.SelectIndex(0)
	for _, p := range f.pages {
		p.ScrollToTop()
	}
}

// Show shows the panel again, with the key's status and the grants read
// anew.
func (f *Form) Show() {
	f.w.Show()
	f.w.RequestFocus()
	f.focusStart()
	f.refreshKey()
	f.listGrants()
}

// ChooseModel opens the General page at the model, saying why under it.
func (f *Form) ChooseModel(why string) {
	f.Tabs.SelectIndex(0)
	f.say(why, widget.WarningImportance)
	f.w.Canvas().Focus(f.Model)
}

// FocusAddress opens the Advanced page at the model's URL.
func (f *Form) FocusAddress() {
	f.Tabs.SelectIndex(2)
	f.w.Canvas().Focus(f.BaseURL)
}

// FocusKey puts the focus in the API key's field.
func (f *Form) FocusKey() { f.w.Canvas().Focus(f.APIKey) }

// provider is the wire format of the service chosen.
func (f *Form) provider() string { return providerOf(f.Service.Selected) }

// modelOf puts in Model the model of the service called name, chosen in
// place of another: the model saved, if name is the service saved, else
// the service's own first choice where it has one (OpenAI and Anthropic
// serve their own models only), else the name the field held, kept: a
// local server, a router or Other may well serve it, and Check says
// whether it does (emptied, it was saved as no model at all: new-user
// pass 13). Its list and what Check said were the other service's.
func (f *Form) modelOf(name string) {
	if name == f.modelFor {
		return
	}
	f.modelFor = name
	switch s, _ := serviceNamed(name); {
	case name == serviceOf(f.opened.BaseURL, f.opened.Provider) && f.opened.BaseURL != "" && f.opened.Model != "":
		f.Model.SetText(f.opened.Model)
	case s.model != "":
		f.Model.SetText(s.model)
	}
	f.Model.SetOptions(nil)
	if !f.checking {
		f.Checked.SetText("")
		f.Checked.Hide()
		f.relayout()
	}
}

// showFormat says under the model's URL which format it is spoken to in,
// and offers the variable that service's tools name its key by.
func (f *Form) showFormat() {
	hint, env := "any OpenAI-compatible API root, ending in /v1 (Service: Anthropic for the Messages API)", "OPENAI_API_KEY"
	if f.provider() == "anthropic" {
		hint, env = "spoken to in Anthropic's Messages API (provider = \"anthropic\"), at Anthropic or any server of that API", "ANTHROPIC_API_KEY"
	}
	if f.urlHint != nil && f.urlHint.Text != hint {
		f.urlHint.SetText(hint)
		f.relayoutPage(2)
	}
	f.APIKeyEnv.SetPlaceHolder(env)
}

// followFocus makes each field's focus bring it into its page's view,
// and Ctrl+Tab, Ctrl+Page Down (Ctrl+Shift+Tab, Ctrl+Page Up) switch the
// tab: Permissions and Advanced were out of the keyboard's reach, and
// Tab went on below the fold with nothing coming into view.
func (f *Form) followFocus() {
	type inPage interface {
		InPage(func() *container.Scroll, ...fyne.CanvasObject)
	}
	// The theme's choices are the radio group's own widgets, out of
	// reach: the controls on either side bring the group with them (the
	// temperature's slider is passed over while the check box disables it).
	f.TempAuto.InPage(f.page(0), f.Theme)
	f.Temp.InPage(f.page(0), f.Theme)
	f.TextSize.InPage(f.page(0), f.Theme)
	for i, fields := range [][]inPage{
		{f.Service, f.Model, f.APIKey, f.Prompt},
		{f.Workspace, f.ReadRoots, f.WriteRoots, f.AllowExec},
		{f.BaseURL, f.APIKeyEnv, f.maxOut, f.PriceIn, f.PriceOut, f.Budget, f.Timeout, f.Rules},
	} {
		for _, o := range fields {
			o.InPage(f.page(i))
		}
	}
	for _, b := range []*widgets.RingButton{f.check, f.RemoveKey, f.keyFile} {
		widgets.ScrolledIn(f.pages[0], b)
	}
	tabKey := func(s fyne.Shortcut) bool {
		if s.ShortcutName() == saveKey.ShortcutName() {
			// A focused field takes the window's shortcuts: Ctrl+S is
			// handed on from it.
			f.saveKeyed()
			return true
		}
		for _, k := range widgets.TabKeys() {
			if s.ShortcutName() == k.Key.ShortcutName() {
				f.switchTab(k.Forward)
				return true
			}
		}
		return false
	}
	for _, e := range []*widgets.PageEntry{f.APIKey, f.Prompt, f.Workspace, f.ReadRoots, f.WriteRoots, f.BaseURL, f.APIKeyEnv, f.maxOut, f.PriceIn, f.PriceOut, f.Budget, f.Timeout, f.Rules} {
		e.PageShortcuts(tabKey)
	}
	f.Model.PageShortcuts(tabKey)
	for _, k := range widgets.TabKeys() {
		f.w.Canvas().AddShortcut(k.Key, func(fyne.Shortcut) { f.switchTab(k.Forward) })
	}
	f.w.Canvas().AddShortcut(saveKey, func(fyne.Shortcut) { f.saveKeyed() })
}

// saveKey is Ctrl+S (Cmd+S): Save, from anywhere in the settings. Save
// was the 18th Tab stop of 19, eight after the API key.
var saveKey = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}

// saveKeyed is Ctrl+S: Save, as the button does, unless a dialog is up
// (its keys are its own).
func (f *Form) saveKeyed() {
	if f.w.Canvas().Overlays().Top() != nil {
		return
	}
	f.saveAndClose()
}

// switchTab shows the next tab (or the one before), at its top, with the
// keyboard on its first control.
func (f *Form) switchTab(forward bool) {
	c := f.w.Canvas()
	if c.Overlays().Top() != nil {
		return // the keys are a dialog's
	}
	n, i := len(f.Tabs.Items), f.Tabs.SelectedIndex()
	if forward {
		i = (i + 1) % n
	} else {
		i = (i + n - 1) % n
	}
	f.Tabs.SelectIndex(i)
	f.pages[i].ScrollToTop()
	c.Focus(f.firstControl(i))
}

// firstControl is tab i's first control, where the keyboard starts in it.
func (f *Form) firstControl(i int) fyne.Focusable {
	switch i {
	case 0:
		return f.Service
	case 1:
		if b := firstButton(f.grants); b != nil {
			return b
		}
		if b := firstButton(f.RulesList); b != nil {
			return b
		}
		return f.Workspace
	default:
		return f.BaseURL
	}
}

// focusStart puts the keyboard on the first control of the tab shown
// (Service, on General), unless it is already somewhere: opened by
// Ctrl+, the settings had nothing focused, and the first Tab went to New
// chat in the sidebar, Service the sixth.
func (f *Form) focusStart() {
	c := f.w.Canvas()
	if c.Focused() != nil || c.Overlays().Top() != nil {
		return
	}
	c.Focus(f.firstControl(f.Tabs.SelectedIndex()))
}

// firstButton is the first button shown in c, or nil.
func firstButton(c *fyne.Container) fyne.Focusable {
	for _, o := range c.Objects {
		if !o.Visible() {
			continue
		}
		switch x := o.(type) {
		case *widget.Button:
			return x
		case *widgets.RingButton:
			return x
		case *fyne.Container:
			if b := firstButton(x); b != nil {
				return b
			}
		}
	}
	return nil
}
