package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
)

// BenchmarkCallTool compares Deckhand's call path (CallTool → registry →
// server actor → transport) with a raw go-sdk ClientSession.CallTool loop
// against the same kind of server, alternating one call of each per
// iteration so that both see the same machine. It reports calls per second
// of each and their ratio (deckhand/raw; 1.0 means no overhead).
func BenchmarkCallTool(b *testing.B) {
	b.Run("server-everything-stdio", func(b *testing.B) {
		p := testutil.RequirePeers(b)
		raw := rawSession(b, &sdk.CommandTransport{Command: exec.Command(p.Node, p.Everything, "stdio")})
		sys := benchSystem(b, map[string]config.Server{"ev": {Command: p.Node, Args: []string{p.Everything, "stdio"}}}, nil)
		benchPair(b, raw, sys, "echo", "ev.echo", `{"message":"hello"}`)
	})
	b.Run("in-process", func(b *testing.B) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := testutil.NewServer("raw").Connect(b.Context(), st, nil); err != nil {
			b.Fatal(err)
		}
		raw := rawSession(b, ct)
		sys := benchSystem(b, nil, map[string]*sdk.Server{"mem": testutil.NewServer("deckhand")})
		benchPair(b, raw, sys, "echo", "mem.echo", `{"text":"hello"}`)
	})
}

func rawSession(b *testing.B, t sdk.Transport) *sdk.ClientSession {
	client := sdk.NewClient(&sdk.Implementation{Name: "raw", Version: "1"}, &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}})
	cs, err := client.Connect(b.Context(), t, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func benchSystem(b *testing.B, srvs map[string]config.Server, inProcess map[string]*sdk.Server) *System {
	cfg := &config.Config{MCP: config.MCP{Servers: srvs}}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, InProcess: inProcess})
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	})
	ctx, cancel := context.WithTimeout(b.Context(), wait)
	defer cancel()
	list, err := sys.ServerStatuses(ctx, true)
	if err != nil || len(list) != 1 || list[0].State != servers.StateReady {
		b.Fatalf("server not ready: %+v, %v", list, err)
	}
	return sys
}

func benchPair(b *testing.B, raw *sdk.ClientSession, sys *System, rawTool, tool, args string) {
	ctx := context.Background()
	rawParams := &sdk.CallToolParams{Name: rawTool, Arguments: json.RawMessage(args)}
	rawCall := func() {
		res, err := raw.CallTool(ctx, rawParams)
		if err != nil || res.IsError {
			b.Fatalf("raw call: %v %+v", err, res)
		}
	}
	ourCall := func() {
		res, err := sys.CallTool(ctx, tool, json.RawMessage(args), nil)
		if err != nil || res.Err != nil || res.Result.IsError {
			b.Fatalf("deckhand call: %v %+v", err, res)
		}
	}
	timed := func(f func()) time.Duration {
		t := time.Now()
		f()
		return time.Since(t)
	}
	var tRaw, tOurs time.Duration
	n := 0
	for b.Loop() {
		// Alternate which goes first, so that neither always pays for the
		// garbage the other left behind.
		if n%2 == 0 {
			tRaw += timed(rawCall)
			tOurs += timed(ourCall)
		} else {
			tOurs += timed(ourCall)
			tRaw += timed(rawCall)
		}
		n++
	}
	b.ReportMetric(float64(n)/tRaw.Seconds(), "raw-calls/s")
	b.ReportMetric(float64(n)/tOurs.Seconds(), "deckhand-calls/s")
	b.ReportMetric(tRaw.Seconds()/tOurs.Seconds(), "ratio")
	b.ReportMetric(0, "ns/op") // the pair's total time is not a meaningful figure
}

// BenchmarkToolRoundTrip measures what Deckhand adds to one tool round trip:
// from the moment the scripted model has written its whole answer (a call to
// an echo tool, approved by rule) to the moment the next request, carrying
// the result, arrives at the model. One op is one round trip. Runs of 10
// rounds each, in fresh conversations, keep the context the size of a real
// chat's. The tool is in process, registered as the built-in tools server
// registers its tools (a handler of raw arguments), or a stdio server in a
// process of its own, sandboxed; either way the garbage Deckhand's process
// collects is what it would in use. The model's answer is made once, so
// that the model server, which in use is in another process, adds little.
func BenchmarkToolRoundTrip(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		toolRoundTrip(b, map[string]*sdk.Server{"mem": rawEchoServer()}, nil)
	})
	b.Run("stdio", func(b *testing.B) {
		toolRoundTrip(b, nil, func(cfg *config.Config) {
			cfg.MCP.Servers = map[string]config.Server{"mem": testutil.StdioServer(b)}
		})
	})
}

func toolRoundTrip(b *testing.B, inProcess map[string]*sdk.Server, tweak func(*config.Config)) {
	const rounds = 10
	model := testutil.NewModelServer(b)
	always := calls(testutil.ToolCallSpec{ID: "c", Name: "mem__echo", Arguments: `{"text":"ping"}`})
	model.Always = &always
	c := startChat(b, model, inProcess, autoApprove("mem.*"), func(cfg *config.Config) {
		cfg.MCP.MaxToolDepth = rounds
		if tweak != nil {
			tweak(cfg)
		}
	})
	testutil.Eventually(b, wait, func() bool {
		cat, _ := c.sys.Catalog(b.Context())
		return cat.Len() > 0
	}, "the echo tool in the catalog")
	// gaps are whole round trips; own are the same less the time the
	// call spent on the server's connection (the tool, the transport and
	// the server), which is what Deckhand itself adds.
	var gaps, own []time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += rounds {
		c.restart()
		c.seen = c.seen[:0]
		before := model.Count()
		c.send("go")
		expect[*conversation.RunFinished](c)
		var elapsed []time.Duration
		for _, e := range c.seen {
			if f, ok := e.(*conversation.ToolCallFinished); ok {
				elapsed = append(elapsed, f.ServerElapsed)
			}
		}
		t := model.TimingsFrom(before)
		for i := 0; i+1 < len(t) && i < len(elapsed) && len(gaps) < b.N; i++ {
			gap := t[i+1].Arrived.Sub(t[i].Answered)
			gaps = append(gaps, gap)
			own = append(own, gap-elapsed[i])
		}
	}
	b.StopTimer()
	pct := func(d []time.Duration, p int) float64 {
		slices.Sort(d)
		return float64(d[len(d)*p/100].Microseconds())
	}
	b.ReportMetric(pct(gaps, 50), "p50-µs")
	b.ReportMetric(pct(gaps, 99), "p99-µs")
	b.ReportMetric(pct(own, 50), "own-p50-µs")
	b.ReportMetric(pct(own, 99), "own-p99-µs")
}

// rawEchoServer has one tool, echo, registered the way the built-in tools
// server registers its tools: a schema and a handler of raw arguments.
func rawEchoServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "mem", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{
		Name:        "echo",
		Description: "Echo the text back",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
	}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in struct{ Text string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Text}}}, nil
	})
	return s
}

// BenchmarkParallelReadOnly runs one turn of 8 calls of a 200 ms tool and
// reports how long the tool phase took (first call started to last call
// finished) against one such call alone: read-only calls run together, so
// the goal is under 1.25×; other calls run one after another, about 8×.
func BenchmarkParallelReadOnly(b *testing.B) {
	phase := func(n int, readOnly bool) time.Duration {
		var specs []testutil.ToolCallSpec
		for i := range n {
			specs = append(specs, testutil.ToolCallSpec{ID: fmt.Sprintf("c%d", i), Name: "mem__slow", Arguments: `{"ms":200}`})
		}
		model := testutil.NewModelServer(b, calls(specs...), answer("done"))
		c := startChat(b, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"), func(cfg *config.Config) {
			if readOnly {
				cfg.MCP.Servers = map[string]config.Server{"mem": {ReadOnly: config.ReadOnly{All: true}}}
			}
		})
		var first, last time.Time
		c.send("go")
		for {
			m := <-c.events
			switch m.(type) {
			case *conversation.ToolCallStarted:
				if first.IsZero() {
					first = time.Now()
				}
			case *conversation.ToolCallFinished:
				last = time.Now()
			case *conversation.RunFinished:
				return last.Sub(first)
			}
		}
	}
	var one, par, seq time.Duration
	for b.Loop() {
		one += phase(1, false)
		par += phase(8, true)
		seq += phase(8, false)
	}
	b.ReportMetric(float64(par)/float64(one), "parallel-8/one")
	b.ReportMetric(float64(seq)/float64(one), "sequential-8/one")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkStoreEvents pushes conversation events through the store actor
// (encoding, redaction, batching, the writer goroutine) and, in the same
// run, writes the same number of rows with raw INSERTs in one transaction;
// it reports events per second of each and their ratio.
func BenchmarkStoreEvents(b *testing.B) {
	const n = 20000
	dir := b.TempDir()
	var tOurs, tRaw time.Duration
	round := 0
	for b.Loop() {
		round++
		// Deckhand: events from a conversation, as they come during runs.
		db, err := store.Open(b.Context(), filepath.Join(dir, fmt.Sprintf("ours-%d.db", round)))
		if err != nil {
			b.Fatal(err)
		}
		cfg := &config.Config{}
		cfg.ApplyDefaults()
		sys := Start(Options{Config: cfg, Log: db, Secrets: []string{"not-in-these-events"}})
		start := time.Now()
		conv := "conv-bench"
		sys.Root.Send(sys.Store, &conversation.ConversationOpened{Conversation: conv, Model: "m"})
		for i := 0; i < n; i += 4 {
			run := fmt.Sprintf("run-%d", i/400)
			if i%400 == 0 {
				sys.Root.Send(sys.Store, &conversation.RunStarted{Conversation: conv, Run: run, Text: "a question"})
			}
			call := fmt.Sprint("c", i)
			sys.Root.Send(sys.Store, &conversation.ToolCallRequested{Conversation: conv, Run: run, Call: call, Tool: "fs.read_text_file", Arguments: json.RawMessage(`{"path":"/tmp/a.txt"}`)})
			sys.Root.Send(sys.Store, &conversation.ToolCallStarted{Conversation: conv, Run: run, Call: call, Tool: "fs.read_text_file", Arguments: json.RawMessage(`{"path":"/tmp/a.txt"}`)})
			sys.Root.Send(sys.Store, &conversation.ToolCallFinished{Conversation: conv, Run: run, Call: call, Tool: "fs.read_text_file", Output: "the file's first line\nand the second", Elapsed: time.Millisecond})
			sys.Root.Send(sys.Store, &conversation.AssistantMessage{Conversation: conv, Run: run, Text: "Here is what the file says."})
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if err := sys.SyncLog(ctx); err != nil {
			b.Fatal(err)
		}
		tOurs += time.Since(start)
		cancel()
		ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
		sys.Shutdown(ctx)
		cancel()
		db.Close()

		// Raw: the same number of rows, one prepared INSERT each, one transaction.
		raw, err := store.Open(b.Context(), filepath.Join(dir, fmt.Sprintf("raw-%d.db", round)))
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		if err := store.RawInsert(b.Context(), raw, "conv-bench", n); err != nil {
			b.Fatal(err)
		}
		tRaw += time.Since(start)
		raw.Close()
	}
	events := float64(round * n)
	b.ReportMetric(events/tOurs.Seconds(), "deckhand-events/s")
	b.ReportMetric(events/tRaw.Seconds(), "raw-events/s")
	b.ReportMetric(tRaw.Seconds()/tOurs.Seconds(), "ratio")
	b.ReportMetric(0, "ns/op")
}
