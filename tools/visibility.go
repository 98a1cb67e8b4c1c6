package tools

import sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
