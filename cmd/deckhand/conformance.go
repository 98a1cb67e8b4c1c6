//go:build deckhand_testhooks

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/terminal"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// testCommands are the commands only a build with the test hooks has:
// the conformance suite's client adapter.
func testCommands() []command {
	return []command{{name: "conformance", summary: "client adapter for the MCP conformance suite", run: runConformance, hidden: true}}
}

// conformanceAlias is the suite's server's alias in the adapter's config.
const conformanceAlias = "conformance"

// runConformance is the client adapter for @modelcontextprotocol/conformance:
// the suite runs `deckhand conformance URL` with MCP_CONFORMANCE_SCENARIO set,
// and the adapter does the scenario's work through the same actors as every
// other command, exiting 0 on success.
func runConformance(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return usagef("usage: deckhand conformance URL (the conformance suite appends the URL)")
	}
	url := args[len(args)-1]
	scenario, _ := e.getenv("MCP_CONFORMANCE_SCENARIO")
	cfg := &config.Config{MCP: config.MCP{
		ConnectTimeout: 20 * time.Second,
		Servers:        map[string]config.Server{conformanceAlias: {URL: url}},
	}}
	cfg.ApplyDefaults()
	sys := actors.Start(actors.Options{
		Config:    cfg,
		Logger:    e.log,
		Version:   version,
		LookupEnv: e.getenv,
		Paths:     &mcp.PathResolver{},
		SignIn:    conformanceSignIn(e),
	})
	defer e.stopSystem(sys)
	answerElicitations(sys)
	wctx, cancel := context.WithTimeout(ctx, 25*time.Second)
	list, err := sys.ServerStatuses(wctx, true)
	cancel()
	if err != nil {
		return err
	}
	if st := list[0]; st.State != servers.StateReady {
		return fmt.Errorf("scenario %s: %s", scenario, terminal.StateText(st))
	}
	cat, err := sys.Catalog(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "scenario %q: connected, protocol %s, %d %s\n", scenario, list[0].ProtocolVersion, cat.Len(), plural(cat.Len(), "tool", "tools"))
	if scenario == "initialize" {
		return nil
	}
	for _, c := range conformanceCalls(e, scenario, cat) {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		res, err := sys.CallTool(cctx, c.tool, c.args, nil)
		cancel()
		if err != nil {
			return err
		}
		if res.Err != nil {
			return fmt.Errorf("%s: %w", c.tool, res.Err)
		}
		fmt.Fprintf(e.stdout, "%s(%s): isError=%v\n", c.tool, c.args, res.Result.IsError)
	}
	return nil
}

// conformanceCall is one tool call a scenario asks for: the tool's display
// name and the arguments.
type conformanceCall struct {
	tool string
	args json.RawMessage
}

// conformanceCalls says which tools a scenario calls, with what:
//   - the calls the suite's context (MCP_CONFORMANCE_CONTEXT) lists, with
//     their arguments as given (http-custom-headers: values that must be
//     mirrored into Mcp-Param headers, some needing Base64);
//   - json-schema-2020-12-preservation: the echo tool, given the other
//     tool's input schema as Deckhand received it, to show no keyword was
//     lost;
//   - otherwise every tool, with arguments built from its schema.
func conformanceCalls(e *env, scenario string, cat *tools.Catalog) []conformanceCall {
	var calls []conformanceCall
	if raw, ok := e.getenv("MCP_CONFORMANCE_CONTEXT"); ok {
		var c struct {
			ToolCalls []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"toolCalls"`
		}
		if json.Unmarshal([]byte(raw), &c) == nil && len(c.ToolCalls) > 0 {
			for _, tc := range c.ToolCalls {
				calls = append(calls, conformanceCall{tool: conformanceAlias + "." + tc.Name, args: tc.Arguments})
			}
			return calls
		}
	}
	if scenario == "json-schema-2020-12-preservation" {
		for _, t := range cat.Tools() {
			if t.Name == "json_schema_echo" {
				continue
			}
			args, err := json.Marshal(map[string]any{"schema": t.Raw.InputSchema})
			if err == nil {
				calls = append(calls, conformanceCall{tool: conformanceAlias + ".json_schema_echo", args: args})
			}
		}
		return calls
	}
	for _, t := range cat.Tools() {
		args, err := json.Marshal(exampleArgs(t.Def.InputSchema))
		if err == nil {
			calls = append(calls, conformanceCall{tool: t.Display, args: args})
		}
	}
	return calls
}

// exampleArgs builds an object satisfying a simple JSON schema: each
// required property gets a value of its type (its default or first enum
// value when given).
func exampleArgs(schema any) map[string]any {
	out := map[string]any{}
	data, _ := json.Marshal(schema)
	var s struct {
		Properties map[string]struct {
			Type    any   `json:"type"`
			Default any   `json:"default"`
			Enum    []any `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(data, &s) != nil {
		return out
	}
	for _, name := range s.Required {
		p := s.Properties[name]
		switch {
		case p.Default != nil:
			out[name] = p.Default
		case len(p.Enum) > 0:
			out[name] = p.Enum[0]
		default:
			switch fmt.Sprint(p.Type) {
			case "number", "integer":
				out[name] = 1
			case "boolean":
				out[name] = true
			case "array":
				out[name] = []any{}
			case "object":
				out[name] = map[string]any{}
			default:
				out[name] = "test"
			}
		}
	}
	return out
}

// conformanceSignIn signs in as the suite expects of a client: at once,
// whenever a server asks, with the browser step done by an HTTP client
// that follows the authorization server's redirect to Deckhand's loopback
// redirect. Tokens stay in memory. The suite's context
// (MCP_CONFORMANCE_CONTEXT) may give a pre-registered client.
func conformanceSignIn(e *env) *servers.SignInOptions {
	o := &servers.SignInOptions{
		AtStart: true,
		Browser: followRedirects,
		OAuth: mcp.OAuth{
			Tokens: &keys.Tokens{Memory: true},
			// A client ID metadata document URL, for servers that take one
			// (the suite does not fetch it).
			ClientMetadataURL: "https://conformance-test.local/client-metadata.json",
		},
	}
	if raw, ok := e.getenv("MCP_CONFORMANCE_CONTEXT"); ok {
		var c struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		if json.Unmarshal([]byte(raw), &c) == nil {
			o.OAuth.ClientID, o.OAuth.ClientSecret = c.ClientID, c.ClientSecret
		}
	}
	return o
}

// followRedirects is the automated browser: it opens the authorization
// page and follows its redirects, the last of which is Deckhand's loopback
// redirect with the code.
func followRedirects(ctx context.Context, url string) error {
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	return nil
}

// answerElicitations answers every server question as a person who
// accepts the form as it comes (its defaults), and agrees to open a page.
func answerElicitations(sys *actors.System) {
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if m, ok := c.Message().(*servers.ElicitationRequested); ok {
			var content map[string]any
			if m.Form != nil {
				content = m.Form.Defaults()
			}
			c.Send(sys.Servers, &servers.ElicitationAnswer{ID: m.ID, Action: servers.ElicitAccept, Content: content})
		}
	}))
	sys.Root.Send(sys.Servers, &servers.WatchServers{PID: pid})
}
