package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources and prompts: what a server offers besides tools. Everything
// here comes from the server and is untrusted; callers clean names and
// texts before showing them, and bound what they keep.

// Listing bounds: a server that lists more than this is cut short
// (truncated reports it), so that a hostile or huge listing cannot fill
// memory or the window.
const (
	MaxResources         = 2000
	MaxResourceTemplates = 500
	MaxPrompts           = 500
)

// newProtocol is the first protocol version in which a subscription is a
// long-lived subscriptions/listen request rather than resources/subscribe.
const newProtocol = "2026-07-28"

// Offers says what the server declared in the handshake.
type Offers struct {
	Resources bool // resources/list and resources/read
	Subscribe bool // resources/subscribe
	Prompts   bool // prompts/list and prompts/get
}

// Offers is what the server declared it serves besides tools.
func (c *Conn) Offers() Offers {
	var o Offers
	r := c.session.InitializeResult()
	if r == nil || r.Capabilities == nil {
		return o
	}
	if res := r.Capabilities.Resources; res != nil {
		o.Resources, o.Subscribe = true, res.Subscribe
	}
	o.Prompts = r.Capabilities.Prompts != nil
	return o
}

// ListResources returns the server's resources (following pagination), at
// most MaxResources; truncated says there were more.
func (c *Conn) ListResources(ctx context.Context) (list []*sdk.Resource, truncated bool, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	for r, err := range c.session.Resources(ctx, nil) {
		if err != nil {
			return nil, false, c.callError(ctx, "listing resources", err)
		}
		if len(list) == MaxResources {
			return list, true, nil
		}
		if r != nil {
			list = append(list, r)
		}
	}
	return list, false, nil
}

// ListResourceTemplates returns the server's resource templates, at most
// MaxResourceTemplates.
func (c *Conn) ListResourceTemplates(ctx context.Context) (list []*sdk.ResourceTemplate, truncated bool, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	for r, err := range c.session.ResourceTemplates(ctx, nil) {
		if err != nil {
			return nil, false, c.callError(ctx, "listing resource templates", err)
		}
		if len(list) == MaxResourceTemplates {
			return list, true, nil
		}
		if r != nil {
			list = append(list, r)
		}
	}
	return list, false, nil
}

// ReadResource reads one resource. Its size is bounded by the largest
// message the connection takes (Options.MaxMessageBytes).
func (c *Conn) ReadResource(ctx context.Context, uri string) (*sdk.ReadResourceResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	res, err := c.session.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, c.callError(ctx, "reading "+uri, err)
	}
	return res, nil
}

// Subscribe asks the server to announce changes to uri; they come to
// Options.OnResourceUpdated. Under 2026-07-28 the subscription is a
// subscriptions/listen request that lasts until Unsubscribe (or the end of
// the session): it is opened in the background and Subscribe returns at
// once.
func (c *Conn) Subscribe(ctx context.Context, uri string) error {
	if c.ProtocolVersion() >= newProtocol {
		go func() {
			if err := c.session.Subscribe(c.life, &sdk.SubscribeParams{URI: uri}); err != nil && c.life.Err() == nil {
				c.log.Debug("resource subscription ended", "uri", uri, "err", c.secrets().Error(err))
			}
		}()
		return nil
	}
	ctx, done := c.bind(ctx)
	defer done()
	if err := c.session.Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
		return c.callError(ctx, "subscribing to "+uri, err)
	}
	return nil
}

// Unsubscribe ends a subscription made with Subscribe.
func (c *Conn) Unsubscribe(ctx context.Context, uri string) error {
	ctx, done := c.bind(ctx)
	defer done()
	if err := c.session.Unsubscribe(ctx, &sdk.UnsubscribeParams{URI: uri}); err != nil {
		return c.callError(ctx, "unsubscribing from "+uri, err)
	}
	return nil
}

// ListPrompts returns the server's prompts, at most MaxPrompts.
func (c *Conn) ListPrompts(ctx context.Context) (list []*sdk.Prompt, truncated bool, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	for p, err := range c.session.Prompts(ctx, nil) {
		if err != nil {
			return nil, false, c.callError(ctx, "listing prompts", err)
		}
		if len(list) == MaxPrompts {
			return list, true, nil
		}
		if p != nil {
			list = append(list, p)
		}
	}
	return list, false, nil
}

// GetPrompt asks for prompt name filled in with args.
func (c *Conn) GetPrompt(ctx context.Context, name string, args map[string]string) (*sdk.GetPromptResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	res, err := c.session.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, c.callError(ctx, "getting prompt "+name, err)
	}
	return res, nil
}

// resourceUpdated adapts a URI callback to the SDK's handler.
func resourceUpdated(f func(uri string)) func(context.Context, *sdk.ResourceUpdatedNotificationRequest) {
	if f == nil {
		return nil
	}
	return func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
		if req != nil && req.Params != nil && req.Params.URI != "" {
			f(req.Params.URI)
		}
	}
}
