package config

import (
	"fmt"
	"slices"
)

// ReadOnly marks a server's tools as read-only: `read_only = true` for all of
// them, or `read_only = ["read_file", "list_directory"]` for some.
type ReadOnly struct {
	All   bool
	Tools []string
}

// Has reports whether tool (the server's own name for it) is read-only.
func (r ReadOnly) Has(tool string) bool {
	return r.All || slices.Contains(r.Tools, tool)
}

// IsZero reports whether nothing is marked.
func (r ReadOnly) IsZero() bool { return !r.All && len(r.Tools) == 0 }

// UnmarshalTOML accepts a boolean or an array of strings.
func (r *ReadOnly) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case bool:
		*r = ReadOnly{All: v}
		return nil
	case []any:
		tools := make([]string, 0, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok || s == "" {
				return fmt.Errorf("element %d: want a tool name, got %#v", i, e)
			}
			tools = append(tools, s)
		}
		*r = ReadOnly{Tools: tools}
		return nil
	default:
		return fmt.Errorf("want true, false or a list of tool names, got %#v", v)
	}
}
