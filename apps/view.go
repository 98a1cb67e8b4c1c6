package apps

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MIMEType is the type of a view's resource.
const MIMEType = "text/html;profile=mcp-app"

// MaxViewBytes caps a view's HTML: a larger resource is refused.
const MaxViewBytes = 4 << 20

// ResourceURI is the ui:// resource a tool's definition names for its
// view (_meta.ui.resourceUri, or the older _meta["ui/resourceUri"]), or ""
// for a tool without one (or with one that is not a ui:// URI).
func ResourceURI(t *sdk.Tool) string {
	if t == nil || t.Meta == nil {
		return ""
	}
	var uri string
	if ui, ok := t.Meta["ui"].(map[string]any); ok {
		uri, _ = ui["resourceUri"].(string)
	}
	if uri == "" {
		uri, _ = t.Meta["ui/resourceUri"].(string)
	}
	if !strings.HasPrefix(uri, "ui://") || len(uri) > 2048 {
		return ""
	}
	return uri
}

// CSP is what a view's resource declares it may reach (_meta.ui.csp):
// origins for fetch and sockets, for scripts, styles, images and fonts,
// for frames, and for <base>. Nothing declared is nothing reachable.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// View is a tool's view as its server sent it.
type View struct {
	URI  string
	HTML string
	CSP  CSP
	Hash string // of the HTML and the CSP: what a pin holds
}

// ErrNotView: the resource is not an MCP App's view.
var ErrNotView = errors.New("not an MCP App view")

// ReadView makes a View of what a server answered to resources/read for
// uri: one text content of type MIMEType, at most MaxViewBytes, with its
// declared CSP (whose origins must each be a plain scheme://host[:port]).
func ReadView(uri string, contents []*sdk.ResourceContents) (View, error) {
	var c *sdk.ResourceContents
	for _, rc := range contents {
		if rc != nil && rc.URI == uri {
			c = rc
			break
		}
	}
	if c == nil && len(contents) == 1 && contents[0] != nil {
		c = contents[0]
	}
	if c == nil {
		return View{}, fmt.Errorf("reading view %s: the server sent no contents for it: %w", uri, ErrNotView)
	}
	if mt := strings.ReplaceAll(strings.ToLower(c.MIMEType), " ", ""); mt != MIMEType {
		return View{}, fmt.Errorf("reading view %s: type %q, want %q: %w", uri, c.MIMEType, MIMEType, ErrNotView)
	}
	html := c.Text
	if html == "" && len(c.Blob) > 0 {
		html = string(c.Blob)
	}
	if html == "" {
		return View{}, fmt.Errorf("reading view %s: empty: %w", uri, ErrNotView)
	}
	if len(html) > MaxViewBytes {
		return View{}, fmt.Errorf("reading view %s: %d bytes, over the cap of %d", uri, len(html), MaxViewBytes)
	}
	v := View{URI: uri, HTML: html}
	if ui, ok := c.Meta["ui"].(map[string]any); ok && ui["csp"] != nil {
		raw, _ := json.Marshal(ui["csp"])
		if err := json.Unmarshal(raw, &v.CSP); err != nil {
			return View{}, fmt.Errorf("reading view %s: _meta.ui.csp: %v", uri, err)
		}
		if err := v.CSP.check(); err != nil {
			return View{}, fmt.Errorf("reading view %s: _meta.ui.csp: %w", uri, err)
		}
	}
	sum := sha256.New()
	csp, _ := json.Marshal(v.CSP)
	fmt.Fprintf(sum, "%d:%s%s", len(html), html, csp)
	v.Hash = hex.EncodeToString(sum.Sum(nil))[:16]
	return v, nil
}

// check refuses an origin that is not a plain scheme://host[:port] (with
// at most a leading *. in the host): anything else (a path, a quote, a
// semicolon, a bare *, a keyword such as 'unsafe-eval') could widen or
// break the policy built from it.
func (c CSP) check() error {
	for field, list := range map[string][]string{"connectDomains": c.ConnectDomains, "resourceDomains": c.ResourceDomains,
		"frameDomains": c.FrameDomains, "baseUriDomains": c.BaseURIDomains} {
		if len(list) > 32 {
			return fmt.Errorf("%s: %d origins, at most 32", field, len(list))
		}
		for _, o := range list {
			if err := checkOrigin(o); err != nil {
				return fmt.Errorf("%s: %q: %w", field, o, err)
			}
		}
	}
	return nil
}

func checkOrigin(o string) error {
	u, err := url.Parse(o)
	if err != nil {
		return errors.New("not a URL")
	}
	switch u.Scheme {
	case "https", "wss", "http", "ws":
	default:
		return errors.New("not an http(s) or ws(s) origin")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return errors.New("an origin is a scheme, a host and a port, nothing more")
	}
	host := strings.TrimPrefix(u.Hostname(), "*.")
	if host == "" || strings.ContainsAny(host, "*;,' \"\t\n") {
		return errors.New("no host, or a wildcard other than a leading *.")
	}
	return nil
}

// Policy is the Content-Security-Policy a view is served with: nothing
// from anywhere (default-src 'none'), its own inline scripts and styles
// (a view is one HTML file), data: and blob: images and fonts, and only
// the origins its resource declared for each kind of load. No forms
// sent, no plugins, no <base> unless declared, not framed by anything.
func Policy(c CSP) string {
	list := func(base string, origins []string) string {
		if len(origins) == 0 {
			if base == "" {
				return "'none'"
			}
			return base
		}
		s := strings.Join(origins, " ")
		if base != "" {
			s = base + " " + s
		}
		return s
	}
	res := c.ResourceDomains
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + list("'self' 'unsafe-inline'", res),
		"style-src " + list("'self' 'unsafe-inline'", res),
		"img-src " + list("'self' data: blob:", res),
		"font-src " + list("'self' data:", res),
		"media-src " + list("'self' data: blob:", res),
		"connect-src " + list("", c.ConnectDomains),
		"frame-src " + list("", c.FrameDomains),
		"base-uri " + list("", c.BaseURIDomains),
		"form-action 'none'",
		"object-src 'none'",
		"worker-src 'self' blob:",
		"frame-ancestors 'none'",
	}, "; ")
}
