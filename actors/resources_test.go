package actors

import (
	"context"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/testutil"
)

// updates spawns a subscriber that passes on every ResourceUpdated.
func updates(t *testing.T, sys *System) (*actor.PID, <-chan *servers.ResourceUpdated) {
	ch := make(chan *servers.ResourceUpdated, 100)
	pid := sys.Root.Spawn(propsFunc(func(m any) {
		if u, ok := m.(*servers.ResourceUpdated); ok {
			ch <- u
		}
	}))
	t.Cleanup(func() { sys.Root.Stop(pid) })
	return pid, ch
}

// server-everything (2025-11-25) over stdio: its resources and templates
// are listed, read (text, and a blob that is text) and turned into
// attachments named with their URIs; a URI is found by its template; a
// subscription hears of updates; its prompts are listed and filled in.
func TestResourcesAndPromptsEverything(t *testing.T) {
	p := testutil.RequirePeers(t)
	sys := start(t, map[string]config.Server{"ev": {Command: p.Node, Args: []string{p.Everything, "stdio"}}})
	st := statuses(t, sys, true)["ev"]
	if st.State != servers.StateReady {
		t.Fatalf("status = %+v", st)
	}
	t.Logf("server-everything negotiated protocol %s", st.ProtocolVersion)
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()

	l, err := sys.Resources(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if !l.Offered || !l.Subscribe || len(l.Resources) == 0 || len(l.Templates) < 2 {
		t.Fatalf("listing = %+v, want resources, two templates and subscriptions", l)
	}
	var doc servers.Resource
	for _, r := range l.Resources {
		if strings.HasPrefix(r.URI, "demo://resource/static/document/") {
			doc = r
		}
	}
	if doc.URI == "" || doc.Name == "" {
		t.Fatalf("no static document among %+v", l.Resources)
	}
	var text servers.ResourceTemplate
	for _, tp := range l.Templates {
		if tp.URITemplate == "demo://resource/dynamic/text/{resourceId}" {
			text = tp
		}
	}
	if text.Name == "" || !strings.Contains(text.Description, "integer") {
		t.Fatalf("templates = %+v", l.Templates)
	}

	read, err := sys.ReadResource(ctx, "ev", "demo://resource/dynamic/text/7")
	if err != nil {
		t.Fatal(err)
	}
	ats, err := conversation.ResourceAttachments(read.URI, read.Contents)
	if err != nil || len(ats) != 1 || ats[0].Name != "demo://resource/dynamic/text/7" || ats[0].Image() || !strings.Contains(string(ats[0].Data), "Resource 7: This is a plaintext resource") {
		t.Fatalf("attachments = %+v, %v", ats, err)
	}
	blob, err := sys.ReadResource(ctx, "ev", "demo://resource/dynamic/blob/3")
	if err != nil {
		t.Fatal(err)
	}
	if ats, err := conversation.ResourceAttachments(blob.URI, blob.Contents); err != nil || len(ats) != 1 || !strings.Contains(string(ats[0].Data), "Resource 3: This is a base64 blob") {
		t.Fatalf("blob attachments = %+v, %v", ats, err)
	}
	if _, err := sys.ReadResource(ctx, "ev", "demo://resource/dynamic/text/0"); err == nil {
		t.Error("reading an unknown resource succeeded")
	}
	if _, err := sys.ReadResource(ctx, "nope", "demo://x"); err == nil || !strings.Contains(err.Error(), `no server named "nope"`) {
		t.Errorf("reading from an unknown server = %v", err)
	}
	if found, err := sys.FindResource(ctx, "demo://resource/dynamic/text/12"); err != nil || len(found) != 1 || found[0] != "ev" {
		t.Errorf("FindResource(templated) = %v, %v", found, err)
	}
	if found, _ := sys.FindResource(ctx, doc.URI); len(found) != 1 {
		t.Errorf("FindResource(listed) = %v", found)
	}

	pid, ch := updates(t, sys)
	uri := "demo://resource/dynamic/text/1"
	if err := sys.Subscribe(ctx, "ev", uri, pid, false); err != nil {
		t.Fatal(err)
	}
	call(t, sys, "ev.toggle-subscriber-updates", `{}`) // sends one update at once, then every 5 s
	if u := testutil.Receive(t, ch, wait, "an update"); u.Alias != "ev" || u.URI != uri {
		t.Errorf("update = %+v", u)
	}
	if err := sys.Subscribe(ctx, "ev", uri, pid, true); err != nil {
		t.Fatal(err)
	}
	call(t, sys, "ev.toggle-subscriber-updates", `{}`)

	pl, err := sys.Prompts(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]servers.Prompt{}
	for _, p := range pl.Prompts {
		byName[p.Name] = p
	}
	args := byName["args-prompt"]
	if _, ok := byName["simple-prompt"]; !ok || len(args.Arguments) != 2 || !args.Arguments[0].Required || args.Arguments[0].Name != "city" {
		t.Fatalf("prompts = %+v", pl.Prompts)
	}
	res, err := sys.GetPrompt(ctx, "ev", "args-prompt", map[string]string{"city": "Lyon"})
	if err != nil {
		t.Fatal(err)
	}
	if msg, ats, _ := conversation.PromptMessage(res); !strings.Contains(msg, "Lyon") || len(ats) != 0 {
		t.Errorf("args-prompt = %q, %d attachments", msg, len(ats))
	}
	res, err = sys.GetPrompt(ctx, "ev", "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "5"})
	if err != nil {
		t.Fatal(err)
	}
	msg, ats, notes := conversation.PromptMessage(res)
	if msg == "" || len(ats) != 1 || ats[0].Name != "demo://resource/dynamic/text/5" || !strings.Contains(string(ats[0].Data), "Resource 5") || len(notes) != 0 {
		t.Errorf("resource-prompt = %q, %+v, %v", msg, ats, notes)
	}
	if _, err := sys.GetPrompt(ctx, "ev", "args-prompt", nil); err == nil {
		t.Error("args-prompt without its required argument succeeded")
	}
}

// hostileServer offers resources and prompts with dirty names, a URI with
// an escape sequence, an image, and subscriptions (go-sdk: the 2026-07-28
// protocol).
func hostileServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "res", Version: "1"}, &sdk.ServerOptions{
		SubscribeHandler:   func(context.Context, *sdk.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *sdk.UnsubscribeRequest) error { return nil },
	})
	read := func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		uri := req.Params.URI
		switch uri {
		case "mem://pic":
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "image/png", Blob: testutil.TestPNG(3, 2)}}}, nil
		case "mem://bin":
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, Blob: []byte{0, 1, 2, 0xff}}}}, nil
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "notes of " + uri}}}, nil
	}
	s.AddResource(&sdk.Resource{URI: "mem://notes", Name: "notes\x1b[31m", Title: "Notes\u202e", Description: "what\x07 we know"}, read)
	s.AddResource(&sdk.Resource{URI: "mem://pic", Name: "pic", MIMEType: "image/png"}, read)
	s.AddResource(&sdk.Resource{URI: "mem://bin", Name: "bin"}, read)
	s.AddResource(&sdk.Resource{URI: "mem://evil\u202egnp.exe", Name: "evil"}, read)
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "mem://day/{date}", Name: "day"}, read)
	s.AddPrompt(&sdk.Prompt{Name: "brief", Description: "A brief", Arguments: []*sdk.PromptArgument{{Name: "topic", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "Brief me on " + req.Params.Arguments["topic"] + "\x1b[2J"}},
				{Role: "assistant", Content: &sdk.TextContent{Text: "Sure."}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://notes", Text: "the notes"}}},
				{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: testutil.TestPNG(2, 2)}},
				{Role: "user", Content: &sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")}},
			}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "two words"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{}, nil
	})
	return s
}

// A go-sdk server (2026-07-28): what it says is cleaned, a URI that is not
// a clean line is left out, an image resource attaches as an image and a
// binary one is refused; a subscription (subscriptions/listen under this
// protocol) hears of updates; a prompt's messages become one message with
// its resource and image attached and its audio noted.
func TestResourcesHostileNewProtocol(t *testing.T) {
	srv := hostileServer()
	sys := Start(Options{Config: func() *config.Config { c := &config.Config{}; c.ApplyDefaults(); return c }(), InProcess: map[string]*sdk.Server{"res": srv}})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	})
	st := statuses(t, sys, true)["res"]
	t.Logf("the go-sdk server negotiated protocol %s", st.ProtocolVersion)
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	l, err := sys.Resources(ctx, "res")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Resources) != 3 || l.LeftOut != 1 || len(l.Templates) != 1 || !l.Subscribe {
		t.Fatalf("listing = %+v", l)
	}
	for _, r := range l.Resources {
		if r.URI == "mem://notes" && (strings.ContainsAny(r.Name+r.Title+r.Description, "\x1b\x07\u202e") || r.Name != "notes" || r.Description != "what we know") {
			t.Errorf("not cleaned: %+v", r)
		}
	}
	pic, err := sys.ReadResource(ctx, "res", "mem://pic")
	if err != nil {
		t.Fatal(err)
	}
	if ats, err := conversation.ResourceAttachments(pic.URI, pic.Contents); err != nil || len(ats) != 1 || ats[0].Type != "image/png" {
		t.Errorf("image resource = %+v, %v", ats, err)
	}
	bin, _ := sys.ReadResource(ctx, "res", "mem://bin")
	if _, err := conversation.ResourceAttachments(bin.URI, bin.Contents); err == nil || !strings.Contains(err.Error(), "binary files cannot") {
		t.Errorf("binary resource = %v, want refused", err)
	}
	if found, _ := sys.FindResource(ctx, "mem://day/2026-01-02"); len(found) != 1 {
		t.Errorf("FindResource(templated) = %v", found)
	}

	pid, ch := updates(t, sys)
	if err := sys.Subscribe(ctx, "res", "mem://notes", pid, false); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, wait, func() bool {
		srv.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: "mem://notes"})
		select {
		case u := <-ch:
			return u.URI == "mem://notes"
		default:
			return false
		}
	}, "no update under %s", st.ProtocolVersion)

	pl, err := sys.Prompts(ctx, "res")
	if err != nil || len(pl.Prompts) != 1 || pl.Prompts[0].Name != "brief" {
		t.Fatalf("prompts = %+v, %v (a name with a space is left out)", pl, err)
	}
	res, err := sys.GetPrompt(ctx, "res", "brief", map[string]string{"topic": "tides"})
	if err != nil {
		t.Fatal(err)
	}
	msg, ats, notes := conversation.PromptMessage(res)
	if !strings.HasPrefix(msg, "Brief me on tides") || strings.Contains(msg, "\x1b") || !strings.Contains(msg, "(The prompt's words for the assistant:) Sure.") {
		t.Errorf("message = %q", msg)
	}
	if len(ats) != 2 || ats[0].Name != "mem://notes" || ats[1].Type != "image/png" || len(notes) != 1 {
		t.Errorf("attachments = %+v, notes = %v", ats, notes)
	}
}

// A resource read and attached to a message reaches the model, fenced and
// named with its URI.
func TestResourceAttachmentReachesModel(t *testing.T) {
	model := testutil.NewModelServer(t, answer("noted"))
	c := startChat(t, model, map[string]*sdk.Server{"res": hostileServer(), "t": testutil.NewServer("t")})
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	read, err := c.sys.ReadResource(ctx, "res", "mem://notes")
	if err != nil {
		t.Fatal(err)
	}
	ats, err := conversation.ResourceAttachments(read.URI, read.Contents)
	if err != nil {
		t.Fatal(err)
	}
	c.sys.Root.Send(c.conv, &conversation.UserMessage{Text: "summarise", Attachments: ats})
	expect[*conversation.RunFinished](c)
	msgs, _ := c.request(0)
	last, _ := msgs[len(msgs)-1]["content"].(string)
	if !strings.Contains(last, `[Attached file "mem://notes"`) || !strings.Contains(last, "notes of mem://notes") {
		t.Errorf("the model got %q", last)
	}
}
