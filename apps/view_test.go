package apps

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResourceURI(t *testing.T) {
	tests := []struct {
		name string
		meta sdk.Meta
		want string
	}{
		{"none", nil, ""},
		{"ui.resourceUri", sdk.Meta{"ui": map[string]any{"resourceUri": "ui://a/b.html"}}, "ui://a/b.html"},
		{"the older key", sdk.Meta{"ui/resourceUri": "ui://a/c.html"}, "ui://a/c.html"},
		{"not ui://", sdk.Meta{"ui": map[string]any{"resourceUri": "https://evil.example/"}}, ""},
		{"not a string", sdk.Meta{"ui": map[string]any{"resourceUri": 5}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ResourceURI(&sdk.Tool{Name: "x", Meta: tc.meta}); got != tc.want {
				t.Errorf("ResourceURI = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReadView(t *testing.T) {
	uri := "ui://app/view.html"
	csp := func(c map[string]any) sdk.Meta { return sdk.Meta{"ui": map[string]any{"csp": c}} }
	tests := []struct {
		name    string
		c       *sdk.ResourceContents
		wantErr string
		wantCSP string // in Policy(view.CSP)
	}{
		{name: "plain", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "<p>hi</p>"}, wantCSP: "connect-src 'none'"},
		{name: "declared origins", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "<p>hi</p>",
			Meta: csp(map[string]any{"connectDomains": []any{"https://api.example.com"}, "resourceDomains": []any{"https://*.cdn.example"}})},
			wantCSP: "connect-src https://api.example.com"},
		{name: "plain HTML is not a view", c: &sdk.ResourceContents{URI: uri, MIMEType: "text/html", Text: "<p>"}, wantErr: "not an MCP App view"},
		{name: "empty", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType}, wantErr: "empty"},
		{name: "too big", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: strings.Repeat("a", MaxViewBytes+1)}, wantErr: "over the cap"},
		{name: "a keyword smuggled in", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "x",
			Meta: csp(map[string]any{"connectDomains": []any{"'unsafe-eval'"}})}, wantErr: "connectDomains"},
		{name: "a directive smuggled in", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "x",
			Meta: csp(map[string]any{"connectDomains": []any{"https://a.example; script-src *"}})}, wantErr: "connectDomains"},
		{name: "a bare wildcard", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "x",
			Meta: csp(map[string]any{"resourceDomains": []any{"https://*"}})}, wantErr: "wildcard"},
		{name: "a path", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "x",
			Meta: csp(map[string]any{"frameDomains": []any{"https://a.example/x"}})}, wantErr: "nothing more"},
		{name: "file:", c: &sdk.ResourceContents{URI: uri, MIMEType: MIMEType, Text: "x",
			Meta: csp(map[string]any{"connectDomains": []any{"file:///"}})}, wantErr: "not an http"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ReadView(uri, []*sdk.ResourceContents{tc.c})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ReadView = %v, want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p := Policy(v.CSP); !strings.Contains(p, tc.wantCSP) || !strings.HasPrefix(p, "default-src 'none'") {
				t.Errorf("Policy = %q, want it to hold %q", p, tc.wantCSP)
			}
		})
	}
}

// A view is read once per definition; the first is pinned, and a new
// definition's different view is reported changed until accepted.
func TestViewsPinned(t *testing.T) {
	reads := 0
	html := "<p>one</p>"
	read := func(context.Context, string) ([]*sdk.ResourceContents, error) {
		reads++
		return []*sdk.ResourceContents{{URI: "ui://a", MIMEType: MIMEType, Text: html}}, nil
	}
	b := NewViews()
	ctx := t.Context()
	v1, changed, err := b.Get(ctx, "s.t", "h1", "ui://a", read)
	if err != nil || changed {
		t.Fatalf("first Get = %v, changed %v", err, changed)
	}
	html = "<p>two</p>" // the server now serves another view
	if v, changed, _ := b.Get(ctx, "s.t", "h1", "ui://a", read); v.HTML != v1.HTML || changed || reads != 1 {
		t.Errorf("same definition: read %d times, got %q (changed %v), want the first view, read once", reads, v.HTML, changed)
	}
	v2, changed, _ := b.Get(ctx, "s.t", "h2", "ui://a", read)
	if !changed || v2.HTML != "<p>two</p>" {
		t.Errorf("new definition, new view: changed %v, %q", changed, v2.HTML)
	}
	b.Accept("s.t", v2)
	if _, changed, _ := b.Get(ctx, "s.t", "h2", "ui://a", read); changed {
		t.Error("still changed after Accept")
	}
	failing := func(context.Context, string) ([]*sdk.ResourceContents, error) { return nil, errors.New("down") }
	if _, _, err := b.Get(ctx, "s.u", "h", "ui://b", failing); err == nil {
		t.Error("a failed read gave a view")
	}
}

func FuzzReadView(f *testing.F) {
	f.Add("text/html;profile=mcp-app", "<p>", `{"connectDomains":["https://a.example"]}`)
	f.Add("text/html;profile=mcp-app", "x", `{"resourceDomains":["https://*.b.example:8443"]}`)
	f.Fuzz(func(t *testing.T, mime, html, csp string) {
		var c map[string]any
		meta := sdk.Meta{}
		if err := jsonUnmarshal(csp, &c); err == nil {
			meta["ui"] = map[string]any{"csp": c}
		}
		v, err := ReadView("ui://x", []*sdk.ResourceContents{{URI: "ui://x", MIMEType: mime, Text: html, Meta: meta}})
		if err != nil {
			return
		}
		p := Policy(v.CSP)
		// Whatever was declared, the policy has exactly its directives:
		// no origin added one of its own.
		if n := strings.Count(p, ";"); n != 12 {
			t.Errorf("Policy = %q: %d separators, want 12", p, n)
		}
		for _, bad := range []string{"'unsafe-eval'", " * ", "file:"} {
			if strings.Contains(p, bad) {
				t.Errorf("Policy = %q holds %q", p, bad)
			}
		}
	})
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
