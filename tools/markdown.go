package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Markdown describes a tool: name, description, annotations, schemas.
func Markdown(t Tool) string {
	d := t.Def
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", t.Display)
	if d.Title != "" {
		fmt.Fprintf(&b, "**%s**\n\n", d.Title)
	}
	if d.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", d.Description)
	}
	if t.ReadOnly {
		b.WriteString("Read-only: calls may run in parallel.\n\n")
	}
	if t.Trusted {
		b.WriteString("From a trusted server: its annotations are believed.\n\n")
	} else if d.Annotations != nil {
		b.WriteString("From an untrusted server: its annotations are hints.\n\n")
	}
	add := func(label string, v any) {
		if v == nil {
			return
		}
		fmt.Fprintf(&b, "### %s\n\n```json\n%s\n```\n\n", label, PrettyJSON(mustJSON(v)))
	}
	if d.Annotations != nil {
		add("Annotations", d.Annotations)
	}
	add("Input schema", d.InputSchema)
	add("Output schema", d.OutputSchema)
	return b.String()
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return b
}
