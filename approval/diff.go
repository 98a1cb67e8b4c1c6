package approval

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
)

// Diff says, for people, what changed between two definitions of a tool:
// title, description, parameters, annotations, a line each; a general
// line when none of these changed (or a definition is unknown).
func Diff(before, after *sdk.Tool) string {
	if before == nil || after == nil {
		return "its definition changed"
	}
	var lines []string
	if before.Title != after.Title {
		lines = append(lines, fmt.Sprintf("title: %q → %q", clean.Line(before.Title), clean.Line(after.Title)))
	}
	if before.Description != after.Description {
		lines = append(lines, fmt.Sprintf("description: %q → %q", clean.Line(before.Description), clean.Line(after.Description)))
	}
	bp, ap := params(before.InputSchema), params(after.InputSchema)
	var added, removed []string
	for name := range ap {
		if !bp[name] {
			added = append(added, name)
		}
	}
	for name := range bp {
		if !ap[name] {
			removed = append(removed, name)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	if len(added) > 0 {
		lines = append(lines, "new parameters: "+clean.Line(strings.Join(added, ", ")))
	}
	if len(removed) > 0 {
		lines = append(lines, "removed parameters: "+clean.Line(strings.Join(removed, ", ")))
	}
	if ba, aa := Claims(Request{Annotations: before.Annotations, Trusted: true}), Claims(Request{Annotations: after.Annotations, Trusted: true}); ba != aa {
		lines = append(lines, fmt.Sprintf("annotations: %q → %q", ba, aa))
	}
	if len(lines) == 0 {
		lines = append(lines, "its input schema or other details changed")
	}
	return strings.Join(lines, "\n")
}

// params are the names of a schema's top-level properties.
func params(schema any) map[string]bool {
	out := map[string]bool{}
	data, err := json.Marshal(schema)
	if err != nil {
		return out
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(data, &s)
	for name := range s.Properties {
		out[name] = true
	}
	return out
}
