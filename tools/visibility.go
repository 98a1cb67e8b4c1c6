package tools

import sdk "github.com/modelcontextprotocol/go-sdk/mcp"

// Visibility says who may see and call a tool, as an MCP App's server
// declares it (_meta.ui.visibility: ["model"], ["app"], or both, the
// default). An app-only tool is left out of what the model is offered
// and refused at the gate when the model calls it; a model-only tool is
// refused to a view. The zero value is the default: both.
type Visibility struct {
	HiddenFromModel bool // "model" is not listed: only its server's views may call it
	HiddenFromApps  bool // "app" is not listed: views may not call it
}

// ForModel reports whether the model may be offered and call the tool.
func (v Visibility) ForModel() bool { return !v.HiddenFromModel }

// ForApps reports whether a view of the tool's server may call it.
func (v Visibility) ForApps() bool { return !v.HiddenFromApps }

// VisibilityOf reads a definition's _meta.ui.visibility: absent (or not a
// list) is both; a list is exactly the known values it holds ("model",
// "app"; others ignored), so [] is neither. A single string is taken as a
// list of one, as a server that writes "app" for ["app"] means it.
func VisibilityOf(d *sdk.Tool) Visibility {
	if d == nil || d.Meta == nil {
		return Visibility{}
	}
	ui, ok := d.Meta["ui"].(map[string]any)
	if !ok {
		return Visibility{}
	}
	var list []any
	switch v := ui["visibility"].(type) {
	case []any:
		list = v
	case []string: // a definition made in Go, not decoded from JSON
		for _, e := range v {
			list = append(list, e)
		}
	case string:
		list = []any{v}
	default:
		return Visibility{}
	}
	model, app := false, false
	for _, e := range list {
		switch e {
		case "model":
			model = true
		case "app":
			app = true
		}
	}
	return Visibility{HiddenFromModel: !model, HiddenFromApps: !app}
}
