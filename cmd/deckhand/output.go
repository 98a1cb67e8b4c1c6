package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"deckhand/servers"
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

func printStatuses(w io.Writer, list []servers.ServerStatus) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ALIAS\tTRANSPORT\tPROTOCOL\tTOOLS\tENDPOINT\tSTATE")
	for _, s := range list {
		tools, proto := "-", "-"
		if s.State == servers.StateReady {
			tools = fmt.Sprint(s.Tools)
		}
		if s.ProtocolVersion != "" {
			proto = s.ProtocolVersion
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Alias, s.Transport, proto, tools, shorten(s.Endpoint, 48), stateText(s))
	}
	tw.Flush()
}

// stateText is the state with its reason, and when the next attempt is due.
func stateText(s servers.ServerStatus) string {
	out := string(s.State)
	if s.Reason != "" {
		out += ": " + s.Reason
	}
	if !s.NextRetry.IsZero() && s.State != servers.StateReady {
		if d := time.Until(s.NextRetry); d >= time.Second {
			out += fmt.Sprintf(" (retrying in %v)", d.Round(time.Second))
		}
	}
	return out
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
