package main

import (
	"encoding/json"
	"io"
	"time"

	"deckhand/actors/servers"
)

type statusJSON struct {
	Alias           string    `json:"alias"`
	State           string    `json:"state"`
	Reason          string    `json:"reason,omitempty"`
	Transport       string    `json:"transport"`
	Endpoint        string    `json:"endpoint"`
	ProtocolVersion string    `json:"protocol_version,omitempty"`
	Server          string    `json:"server,omitempty"`
	Tools           int       `json:"tools"`
	NextRetry       time.Time `json:"next_retry,omitzero"`
}

func toStatusJSON(s servers.ServerStatus) statusJSON {
	server := s.ServerName
	if s.ServerVersion != "" {
		server += " " + s.ServerVersion
	}
	return statusJSON{
		Alias: s.Alias, State: string(s.State), Reason: s.Reason, Transport: s.Transport, Endpoint: s.Endpoint,
		ProtocolVersion: s.ProtocolVersion, Server: server, Tools: s.Tools, NextRetry: s.NextRetry,
	}
}

const addServerHint = `Add one with, for example:
  deckhand mcp connect --save -- npx -y @modelcontextprotocol/server-filesystem ~/Documents
  deckhand mcp connect --save https://example.com/mcp --alias example --auth-env EXAMPLE_TOKEN
  deckhand import ~/.config/Claude/claude_desktop_config.json
or edit the config file (see the README's config reference).
`

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
