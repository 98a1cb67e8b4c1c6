package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Size formats a byte count for people: 512 B, 1.5 KiB, 3.0 MiB.
func Size(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
	}
}

// PrettyArgs shows a tool call's arguments: indented JSON, and {} for none.
func PrettyArgs(raw []byte) string {
	if len(raw) == 0 {
		return "{}"
	}
	return PrettyJSON(raw)
}

// PrettyJSON indents raw JSON for display, returning it unchanged if it is
// not valid JSON.
func PrettyJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
