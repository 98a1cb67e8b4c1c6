package servers

import (
	"bytes"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/redact"
)

// redactResult removes every secret from a result as it leaves its server,
// whoever reads it next (the model, the window, `mcp call`, the log): a
// server that echoes a token it was given hands it to no one. Text,
// structured content, resource links and embedded resources alike; the
// result is returned as it is when it holds none.
func redactResult(s redact.Secrets, res *sdk.CallToolResult) *sdk.CallToolResult {
	if s.Empty() || res == nil {
		return res
	}
	data, err := json.Marshal(res)
	if err != nil {
		return res
	}
	cleaned := s.Bytes(data)
	if bytes.Equal(cleaned, data) {
		return res
	}
	var out sdk.CallToolResult
	if err := json.Unmarshal(cleaned, &out); err != nil {
		return &sdk.CallToolResult{IsError: res.IsError, Content: []sdk.Content{&sdk.TextContent{Text: redact.Mark}}}
	}
	return &out
}
