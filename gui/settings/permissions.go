package settings

import (
	"fmt"
	"maps"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/store"
)

// The settings' Permissions: the "always allow" grants (kept in the log,
// asked of the bridge) and the auto_approve rules (in the config file),
// each with a button that takes it away from the next call on.

// listGrants asks the bridge for the grants and shows them.
func (f *Form) listGrants() {
	f.host.ListGrants(func(list []store.Grant, err error) { f.showGrants(list, err) })
}

// permissionRow is one grant or rule: what it allows, in words, and its
// button.
func permissionRow(what, detail string, button fyne.CanvasObject) fyne.CanvasObject {
	// Wrapped, the name whole and the detail too: the row is as narrow
	// as the pane and its button shows whole (at 640x480 and 128% the
	// detail made the row wider than the pane, and Revoke was "× Revo").
	label := widget.NewLabelWithStyle(what, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	label.Wrapping = fyne.TextWrapBreak
	l, d := widgets.Caption(detail)
	l.Wrapping = fyne.TextWrapWord
	return container.NewBorder(nil, nil, nil, button, container.NewVBox(label, d))
}

func (f *Form) showGrants(list []store.Grant, err error) {
	var rows []fyne.CanvasObject
	switch {
	case err != nil:
		rows = append(rows, note("Could not read the grants: "+err.Error()))
	case len(list) == 0:
		l, none := widgets.Subtle("None. When you answer \"Always\" for a tool, it is listed here.")
		l.Wrapping = fyne.TextWrapWord
		rows = append(rows, none)
	}
	for _, g := range list {
		tool := g.Tool
		detail := "runs without asking"
		if !g.Time.IsZero() {
			detail += ", since " + g.Time.Local().Format("2 Jan 2006, 15:04")
		}
		if g.Foreign {
			detail = "not written by Deckhand: ignored (something that could write Deckhand's log put it there)"
		}
		var revoke *widgets.RingButton
		revoke = widgets.NewRingButtonWithIcon("Revoke", theme.CancelIcon(), func() {
			revoke.Disable()
			f.host.RevokeGrant(tool, func(err error) {
				if err != nil {
					revoke.Enable()
					widgets.ShowError(fmt.Errorf("revoking %s: %w", tool, err), f.w)
					return
				}
				f.listGrants()
			})
		})
		rows = append(rows, permissionRow(tool, detail, revoke))
	}
	f.grants.Objects = rows
	f.grants.Refresh()
}

// showRules lists the config's auto_approve rules.
func (f *Form) showRules() {
	rules := f.host.Config().MCP.AutoApprove
	var rows []fyne.CanvasObject
	if len(rules) == 0 {
		_, none := widgets.Subtle("None.")
		rows = append(rows, none)
	}
	for _, rule := range slices.Sorted(maps.Keys(rules)) {
		rows = append(rows, permissionRow(rule, ruleText(rule, rules[rule]), widgets.NewRingButtonWithIcon("Remove", theme.DeleteIcon(), func() {
			if err := f.removeRule(rule); err != nil {
				widgets.ShowError(err, f.w)
			}
		})))
	}
	f.RulesList.Objects = rows
	f.RulesList.Refresh()
}

// removeRule takes one rule out of the config file at once; the
// conversations get the new rules with the config.
func (f *Form) removeRule(rule string) error {
	rest := map[string]any{}
	for k, v := range f.host.Config().MCP.AutoApprove {
		if k != rule {
			rest[k] = v
		}
	}
	if err := f.host.WriteConfig(nil, map[string]map[string]any{"mcp.auto_approve": rest}); err != nil {
		return err
	}
	f.Rules.SetText(config.FormatRules(f.host.Config().MCP.AutoApprove))
	f.showRules()
	return nil
}
