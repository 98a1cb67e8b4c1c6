package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"deckhand/actors"
	"deckhand/config"
)

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
		Servers:        map[string]config.Server{"conformance": {URL: url}},
	}}
	cfg.ApplyDefaults()
	sys, list, err := e.connect(ctx, cfg, 25*time.Second)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	if st := list[0]; st.State != actors.StateReady {
		return fmt.Errorf("scenario %s: %s", scenario, stateText(st))
	}
	cat, err := sys.Catalog(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "scenario %q: connected, protocol %s, %d tools\n", scenario, list[0].ProtocolVersion, cat.Len())
	if scenario == "initialize" {
		return nil
	}
	// Every other scenario: call each tool with arguments built from its
	// schema, and report what came back.
	for _, t := range cat.Tools() {
		args, err := json.Marshal(exampleArgs(t.Def.InputSchema))
		if err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		res, err := sys.CallTool(cctx, t.Display, args, nil)
		cancel()
		if err != nil {
			return err
		}
		if res.Err != nil {
			return fmt.Errorf("%s: %w", t.Display, res.Err)
		}
		fmt.Fprintf(e.stdout, "%s(%s): isError=%v\n", t.Display, args, res.Result.IsError)
	}
	return nil
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
