package gui

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/config"
	"deckhand/gui/settings"
	"deckhand/store"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// The settings (gui/settings) and the first-run panel (gui/setup): the UI
// as their Host, and the bridge's half of the settings.

func (u *UI) showSettings() {
	if u.settingsW != nil {
		// Ctrl+, again while they show is the same visit.
		if u.hidden || u.panel == nil || fyne.Window(u.panel) != u.settingsW {
			u.settingsF.NewVisit()
		}
		u.settingsF.Show()
		return
	}
	u.settingsF = settings.Open(settingsHost{u})
	u.settingsW = u.settingsF.Window()
}

// showKeySettings opens the settings at the API key (the model refused
// the key sent).
func (u *UI) showKeySettings() {
	u.showSettings()
	u.settingsF.FocusKey()
}

// showModelSettings opens the settings at the model's address or name
// (transcript.ActionAddress, ActionModel): the model server answered 404
// there, or nothing answers, or no model is set up.
func (u *UI) showModelSettings(at string) {
	u.showSettings()
	if at == transcript.ActionModel && !u.cfg.Model.Configured() {
		u.settingsF.ChooseModel("Choose a service and a model first, then Save: then Retry the message.")
		return
	}
	if at == transcript.ActionModel {
		u.settingsF.ChooseModel("The model server does not know this model: Check lists the ones it has.")
		return
	}
	u.settingsF.FocusAddress()
}

// writeConfig applies edits to the config file, then reloads it.
func (u *UI) writeConfig(edits []config.Edit, tables map[string]map[string]any) error {
	if err := config.Update(u.cfg.Path, edits, tables); err != nil {
		return err
	}
	cfg, err := config.LoadForUpdate(u.cfg.Path)
	if err != nil {
		return err
	}
	u.setConfig(cfg)
	return nil
}

// The settings' messages to the bridge: the window never touches actor
// state, it asks. Each answers on the UI goroutine through its reply.

// settingsMsg is a message from the settings; the bridge's Receive hands
// it over with one case.
type settingsMsg interface {
	handle(b *bridge, c actor.Context)
}

// uiListGrants asks for the "always allow" grants.
type uiListGrants struct {
	reply func([]store.Grant, error)
}

// uiRevokeGrant revokes one; the next call of the tool is asked again.
type uiRevokeGrant struct {
	tool  string
	reply func(error)
}

// uiAddSecret makes the log and the conversations remove a key typed into
// the settings, before the config that uses it arrives.
type uiAddSecret struct{ value string }

// grantsTimeout bounds reading or revoking the grants.
const grantsTimeout = 10 * time.Second

// The log is read off the bridge's goroutine: the bridge keeps frames
// flowing meanwhile.

func (m *uiListGrants) handle(b *bridge, _ actor.Context) {
	sys, post := b.sys, b.ui.post
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), grantsTimeout)
		defer cancel()
		list, err := sys.Grants(ctx)
		post(func() { m.reply(list, err) })
	}()
}

func (m *uiRevokeGrant) handle(b *bridge, _ actor.Context) {
	sys, post := b.sys, b.ui.post
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), grantsTimeout)
		defer cancel()
		err := sys.RevokeGrant(ctx, m.tool)
		post(func() { m.reply(err) })
	}()
}

func (m *uiAddSecret) handle(b *bridge, _ actor.Context) { b.sys.AddSecrets(m.value) }

// settingsHost is the window as the settings' host.
type settingsHost struct{ u *UI }

func (h settingsHost) Config() *config.Config { return h.u.cfg }
func (h settingsHost) WriteConfig(edits []config.Edit, tables map[string]map[string]any) error {
	return h.u.writeConfig(edits, tables)
}
func (h settingsHost) ReuseConfig()                         { h.u.setConfig(h.u.cfg) }
func (h settingsHost) ApplyLook(ui config.UI)               { applyLook(h.u.app, ui) }
func (h settingsHost) App() fyne.App                        { return h.u.app }
func (h settingsHost) Quit()                                { h.u.quit() }
func (h settingsHost) NewPanel(title string) fyne.Window    { return h.u.newPanel(title) }
func (h settingsHost) Icon() fyne.Resource                  { return h.u.d.Icon }
func (h settingsHost) LookupEnv(name string) (string, bool) { return h.u.d.LookupEnv(name) }
func (h settingsHost) Post(f func())                        { h.u.post(f) }
func (h settingsHost) ListGrants(reply func([]store.Grant, error)) {
	h.u.tell(&uiListGrants{reply: reply})
}
func (h settingsHost) RevokeGrant(tool string, reply func(error)) {
	h.u.tell(&uiRevokeGrant{tool: tool, reply: reply})
}
func (h settingsHost) AddSecret(value string) { h.u.tell(&uiAddSecret{value: value}) }

// setupHost is the window as the first-run panel's host.
type setupHost struct{ u *UI }

func (h setupHost) Window() fyne.Window                      { return h.u.win }
func (h setupHost) Probe(ctx context.Context) []llm.Endpoint { return h.u.d.Probe(ctx) }
func (h setupHost) WriteConfig(edits []config.Edit) error    { return h.u.writeConfig(edits, nil) }
func (h setupHost) ShowSettings()                            { h.u.showSettings() }
func (h setupHost) Chosen()                                  { h.u.focusInput() }
func (h setupHost) Post(f func())                            { h.u.post(f) }
