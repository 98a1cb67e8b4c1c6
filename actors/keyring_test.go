package actors

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/testutil"
)

// A key kept in the keyring (no api_key_env) is sent to the model that
// refuses a request without it, and never reaches a tool result or the
// log, though nobody listed it in Options.Secrets: it joins the secrets
// when it is read, not at start (a locked keyring holds up no start).
func TestKeyringKey(t *testing.T) {
	keys.MockInit()
	const secret = "sk-keyring-8d2e6f0a4c"
	t.Setenv("DECKHAND_KEYRING_PLANTED", secret) // for the tool to read
	db := openLog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "a", Name: "mem__getenv", Arguments: `{"name":"DECKHAND_KEYRING_PLANTED"}`}),
		answer("done"),
	)
	model.RequireKey(secret)
	if err := keys.Store(model.URL, secret); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { keys.Remove(model.URL) })
	c := startChatWith(t, func(o *Options) { o.Log = db }, model,
		map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"))
	if strings.Contains(c.sys.secrets.Get().String(secret), "[redacted]") {
		t.Error("the keyring was read at start, before the model asked for a key")
	}
	c.send("read it")
	f := expect[*conversation.ToolCallFinished](c)
	if strings.Contains(f.Output, secret) {
		t.Fatalf("the tool's result holds the key: %q", f.Output)
	}
	expect[*conversation.RunFinished](c)
	syncLog(t, c)
	if model.Refused() != 1 {
		t.Errorf("the model refused %d requests, want the first only (without the key)", model.Refused())
	}
	if h := model.Headers()[0].Get("Authorization"); h != "Bearer "+secret {
		t.Fatalf("the keyring's key was not sent to the model (Authorization %q)", strings.ReplaceAll(h, secret, "<the key>"))
	}
	logLacks(t, db, secret, "the key")
}

// model.system_prompt follows Deckhand's own system prompt in every
// request, and a change of config changes it for the next one.
func TestSystemPrompt(t *testing.T) {
	model := testutil.NewModelServer(t, answer("oui"), answer("si"))
	var started *config.Config
	c := startChat(t, model, nil, func(cfg *config.Config) { cfg.Model.SystemPrompt, started = "Answer in French.", cfg })
	c.send("hello")
	expect[*conversation.RunFinished](c)
	msgs, _ := c.request(0)
	sys, _ := msgs[0]["content"].(string)
	if msgs[0]["role"] != "system" || !strings.HasPrefix(sys, "You are Deckhand") || !strings.HasSuffix(sys, "\n\nAnswer in French.") {
		t.Fatalf("system message: %v", msgs[0])
	}
	cfg := *started
	cfg.Model.SystemPrompt = "Answer in Italian."
	c.sys.Root.Send(c.conv, &conversation.ConfigChanged{Config: &cfg}) // as UpdateConfig forwards it, ahead of the message
	c.send("again")
	expect[*conversation.RunFinished](c)
	msgs, _ = c.request(1)
	if sys, _ := msgs[0]["content"].(string); !strings.HasSuffix(sys, "\n\nAnswer in Italian.") {
		t.Fatalf("after the change: %q", sys)
	}
}
