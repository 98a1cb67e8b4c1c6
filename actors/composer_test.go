package actors

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transport/llm"
)

// modelOf is the "model" of a model request.
func modelOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var req struct{ Model string }
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	return req.Model
}

// SetModel changes the model of the conversation's next run: its request,
// RunStarted.Model (which the log keeps) and the cost, at that model's
// price. A run in progress keeps its model; "" goes back to the default.
func TestSetModel(t *testing.T) {
	model := testutil.NewModelServer(t, answer("one"), answer("two"), answer("three"))
	db := openLog(t)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil, func(cfg *config.Config) {
		cfg.Model.Prices = map[string]config.Price{"big": {InputPerMTok: 1e6}}
	})
	c.send("q1")
	if got := expect[*conversation.RunStarted](c).Model; got != "scripted" {
		t.Errorf("first run's model = %q", got)
	}
	if fin := expect[*conversation.RunFinished](c); fin.CostUSD != 0 {
		t.Errorf("cost at the default price = %v", fin.CostUSD)
	}
	c.sys.Root.Send(c.conv, &conversation.SetModel{Name: "big"})
	c.send("q2")
	started := expect[*conversation.RunStarted](c)
	if started.Model != "big" {
		t.Errorf("after SetModel, RunStarted.Model = %q", started.Model)
	}
	if fin := expect[*conversation.RunFinished](c); fin.CostUSD <= 0 {
		t.Errorf("cost at big's price = %v, want its input tokens at $1 each", fin.CostUSD)
	}
	c.sys.Root.Send(c.conv, &conversation.SetModel{})
	c.send("q3")
	expect[*conversation.RunFinished](c)
	reqs := model.Requests()
	for i, want := range []string{"scripted", "big", "scripted"} {
		if got := modelOf(t, reqs[i]); got != want {
			t.Errorf("request %d asked %q, want %q", i, got, want)
		}
	}
	syncLog(t, c)
	runs, err := db.Runs(context.Background(), started.Conversation)
	if err != nil {
		t.Fatal(err)
	}
	var models []string
	for _, r := range runs {
		models = append(models, r.Model)
	}
	if strings.Join(models, ",") != "scripted,big,scripted" {
		t.Errorf("the log's runs name %v", models)
	}
}

// Attachments reach the model: a text file fenced and named in the
// person's message (a fence its backticks cannot close), an image as an
// image_url part; the log keeps their names, sizes and digests, never an
// image's bytes; Retry sends them again.
func TestAttachmentsReachTheModel(t *testing.T) {
	model := testutil.NewModelServer(t, answer("seen"), answer("seen again"))
	db := openLog(t)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil)
	text := "line one\n```\nnot the end of the file\n"
	png := testutil.TestPNG(3, 2)
	c.sys.Root.Send(c.conv, &conversation.UserMessage{Text: "look", Attachments: []conversation.Attachment{
		{Name: "notes.md", Type: "text/plain; charset=utf-8", Data: []byte(text)},
		{Name: "dot.png", Type: "image/png", Data: png},
	}})
	started := expect[*conversation.RunStarted](c)
	if started.Text != "look" || len(started.Attachments) != 2 || started.Attachments[1].Size != len(png) || len(started.Attachments[0].SHA256) != 64 {
		t.Errorf("RunStarted = %+v", started)
	}
	expect[*conversation.RunFinished](c)

	var req struct{ Messages []llm.Message }
	if err := json.Unmarshal(model.Requests()[0], &req); err != nil {
		t.Fatal(err)
	}
	user := req.Messages[len(req.Messages)-1]
	if !strings.HasPrefix(user.Content, "look\n\n[Attached file \"notes.md\" (") {
		t.Errorf("user text = %q", user.Content)
	}
	if !strings.Contains(user.Content, "\n````\n"+text+"````\n\n[Attached image") {
		t.Errorf("the file is not fenced by four backticks: %q", user.Content)
	}
	if !strings.Contains(user.Content, `[Attached image "dot.png" (image/png, `) {
		t.Errorf("the image is not named: %q", user.Content)
	}
	if len(user.Parts) != 1 || user.Parts[0].Type != "image_url" || user.Parts[0].ImageURL.URL != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png) {
		t.Errorf("parts = %+v", user.Parts)
	}
	// The raw request has the content array, the system prompt a string.
	if !bytes.Contains(model.Requests()[0], []byte(`"content":[{"type":"text","text":"look\n\n`)) {
		t.Errorf("request = %.300s", model.Requests()[0])
	}

	c.sys.Root.Send(c.conv, &conversation.RemoveRun{Resend: true})
	expect[*conversation.RunFinished](c)
	if err := json.Unmarshal(model.Requests()[1], &req); err != nil {
		t.Fatal(err)
	}
	if again := req.Messages[len(req.Messages)-1]; again.Content != user.Content || len(again.Parts) != 1 {
		t.Errorf("Retry sent %+v", again)
	}

	syncLog(t, c)
	events, err := db.Events(context.Background(), store.Filter{SessionID: started.Conversation})
	if err != nil {
		t.Fatal(err)
	}
	var logged bool
	for _, e := range events {
		if bytes.Contains(e.Data, []byte(base64.StdEncoding.EncodeToString(png))) || bytes.Contains(e.Data, []byte("not the end of the file")) {
			t.Errorf("%s logged a file's contents: %s", e.Kind, e.Data)
		}
		if e.Kind == store.KindRunStarted && e.RunID == started.Run {
			logged = true
			var d struct {
				Text        string
				Attachments []struct {
					Name, Type, SHA256 string
					Size               int
				}
			}
			json.Unmarshal(e.Data, &d)
			if d.Text != "look" || len(d.Attachments) != 2 || d.Attachments[0].Name != "notes.md" || d.Attachments[1].Size != len(png) || d.Attachments[1].SHA256 != started.Attachments[1].SHA256 {
				t.Errorf("run.started = %s", e.Data)
			}
		}
	}
	if !logged {
		t.Error("no run.started for the run")
	}
}
