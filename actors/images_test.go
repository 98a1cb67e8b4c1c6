package actors

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transcript"
)

// A tool's images are kept beside the log, once each, and a chat read back
// from the log shows them as when the call ended; a kept file changed on
// disk is named, not shown; deleting the session removes them.
func TestToolImagesReadBackFromTheLog(t *testing.T) {
	db := openLog(t)
	png := testutil.TestPNG(3, 2)
	srv := sdk.NewServer(&sdk.Implementation{Name: "pic", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "shot"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{
			&sdk.TextContent{Text: "here"},
			&sdk.ImageContent{MIMEType: "image/png", Data: png},
			&sdk.ImageContent{MIMEType: "image/png", Data: png}, // the same again: one file
		}}, nil, nil
	})
	model := testutil.NewModelServer(t, calls(testutil.ToolCallSpec{ID: "s", Name: "pic__shot", Arguments: `{}`}), answer("done"))
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"pic": srv}, autoApprove("pic.shot"))
	c.send("take a shot")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)
	id := c.conversationID(t)

	images := func() []tools.Image {
		t.Helper()
		events, err := db.Events(t.Context(), store.Filter{SessionID: id})
		if err != nil {
			t.Fatal(err)
		}
		tr := transcript.FromEventsImages(events, func(sum string) []byte { return db.KeptImage(id, sum) })
		for i := range tr.Len() {
			if r := tr.Row(i); r.Media != nil {
				return r.Media.Images
			}
		}
		t.Fatal("no card with images in the chat read back")
		return nil
	}
	got := images()
	if len(got) != 2 {
		t.Fatalf("images read back = %d, want 2", len(got))
	}
	for _, img := range got {
		if !bytes.Equal(img.Data, png) || img.Refused != "" || img.MIME != "image/png" {
			t.Fatalf("image read back: %d bytes, refused %q; want the PNG shown", len(img.Data), img.Refused)
		}
	}
	p := db.ImagePath(id, got[0].SHA256)
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "*.img"))
	if len(files) != 1 {
		t.Errorf("image files = %v, want one for the image returned twice", files)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("kept image %s: %v, %v; want mode 0600", p, fi, err)
	}

	// Changed on disk: named with why, not shown.
	bad := append(bytes.Clone(png[:len(png)-1]), png[len(png)-1]^1)
	if err := os.WriteFile(p, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, img := range images() {
		if img.Data != nil || img.Refused == "" {
			t.Fatalf("a changed file: %d bytes shown, refused %q; want the placeholder", len(img.Data), img.Refused)
		}
	}

	if err := db.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the image is still there after its session was deleted: %v", err)
	}
}
