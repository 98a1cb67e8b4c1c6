package conversation

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/redact"
	"deckhand/tools"
)

// A result the limit cut is kept whole for the person, with the secrets
// taken out as they are from the part the model saw, and the Cut says so
// (Saved); one that was not cut is not kept, and one Deckhand could not
// keep is said not to be. The rest of a 4 MiB result was kept nowhere
// (new-user pass 13, F3).
func TestKeepWholeResult(t *testing.T) {
	secrets := &redact.Set{}
	secrets.Add("sk-live-0123456789abcdef")
	whole := strings.Repeat("log line\n", 1000) + "token sk-live-0123456789abcdef\n" + strings.Repeat("more\n", 1000)
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: whole}}}
	_, cut := tools.CapCut(tools.RenderResult(res), 1024)

	kept := map[string]string{}
	d := &convDeps{secrets: secrets, keep: func(conv, run, call, text string) error {
		kept[conv+"/"+run+"/"+call] = text
		return nil
	}}
	got := d.keepWhole("c1", "r1", "x", res, cut)
	text, ok := kept["c1/r1/x"]
	switch {
	case !got.Saved || !ok:
		t.Fatalf("the cut result: Cut %+v, kept %v; want it kept and Saved", got, ok)
	case strings.Contains(text, "sk-live"):
		t.Error("the kept result holds the secret")
	case len(text) < len(whole)-64 || !strings.HasPrefix(text, "log line") || !strings.HasSuffix(text, "more\n"):
		t.Errorf("the kept result is %d bytes of %d, not the whole", len(text), len(whole))
	}

	clear(kept)
	if got := d.keepWhole("c1", "r1", "y", res, tools.Cut{}); got.Saved || len(kept) != 0 {
		t.Errorf("a result not cut was kept (%+v, %d kept)", got, len(kept))
	}
	d.keep = func(string, string, string, string) error { return errors.New("disk full") }
	if got := d.keepWhole("c1", "r1", "z", res, cut); got.Saved || got.Whole != cut.Whole {
		t.Errorf("a result that could not be kept: %+v, want Saved false and the cut as it was", got)
	}
}
