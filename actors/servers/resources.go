package servers

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"deckhand/clean"
	"deckhand/transport/mcp"
)

// Resources and prompts: what a server offers besides tools. The window and
// the terminal send these requests to the servers supervisor (agent.System.Servers),
// which hands each to the server's actor; that actor makes the request in a
// worker goroutine and the answer goes straight to the sender, so no
// actor's Receive waits for a server. An idle on-demand server connects for
// the request, as for a tool call.
//
// Everything a server says here is untrusted: names, titles, descriptions
// and URIs are cleaned (package clean) and cut to a length; listings are
// bounded (mcp.MaxResources and friends); a URI that is not one clean line
// is left out, so that the URI shown is the one read.

// Requests about resources and prompts. Each is answered to its sender.
type (
	// ListResources asks for a server's resources and resource
	// templates. The answer is a *ResourceListing.
	ListResources struct{ Alias string }
	// ReadResource reads one resource. The answer is a *ResourceRead.
	ReadResource struct{ Alias, URI string }
	// SubscribeResource asks that PID be sent a *ResourceUpdated each time
	// the server says URI changed (Off: no longer). The answer is a *Done;
	// a server that does not offer subscriptions says so in its Err. A
	// subscription outlives reconnections: it is made again on each new
	// connection.
	SubscribeResource struct {
		Alias, URI string
		PID        *actor.PID
		Off        bool
	}
	// ListPrompts asks for a server's prompts. The answer is a
	// *PromptListing.
	ListPrompts struct{ Alias string }
	// GetPrompt asks for a prompt filled in with its arguments. The answer
	// is a *PromptResult.
	GetPrompt struct {
		Alias, Name string
		Args        map[string]string
	}
)

// Answers and events.
type (
	// ResourceListing answers ListResources. Without resources in the
	// server's capabilities, both lists are empty and Offered is false.
	ResourceListing struct {
		Alias     string
		Offered   bool // the server declared resources
		Subscribe bool // it offers subscriptions
		Resources []Resource
		Templates []ResourceTemplate
		// Truncated: the server listed more than Deckhand keeps; LeftOut
		// counts entries dropped for an unusable URI.
		Truncated bool
		LeftOut   int
		Err       error
	}
	// ResourceRead answers ReadResource: the contents as the server sent
	// them (untrusted: see ResourceAttachments).
	ResourceRead struct {
		Alias, URI string
		Contents   []*sdk.ResourceContents
		Err        error
	}
	// ResourceUpdated tells a subscriber that a resource changed.
	ResourceUpdated struct{ Alias, URI string }
	// PromptListing answers ListPrompts.
	PromptListing struct {
		Alias     string
		Offered   bool
		Prompts   []Prompt
		Truncated bool
		Err       error
	}
	// PromptResult answers GetPrompt: the prompt's messages, raw (see
	// PromptMessage).
	PromptResult struct {
		Alias, Name string
		Description string // cleaned
		Messages    []*sdk.PromptMessage
		Err         error
	}
)

// Resource is one resource of a server, cleaned. URI is exactly the
// server's (a clean line, else the resource is left out).
type Resource struct {
	URI, Name, Title, Description, MIMEType string
	Size                                    int64
}

// ResourceTemplate is a parameterised resource (RFC 6570: {var}), cleaned.
type ResourceTemplate struct {
	URITemplate, Name, Title, Description, MIMEType string
}

// Prompt is one prompt of a server, cleaned.
type Prompt struct {
	Name, Title, Description string
	Arguments                []PromptArgument
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name, Title, Description string
	Required                 bool
}

// Label is how a listing names a thing: its title, else its name.
func Label(name, title string) string {
	if title != "" {
		return title
	}
	return name
}

// Lengths of what is kept of a server's words.
const (
	maxNameLen = 200
	maxDescLen = 2000
	maxURILen  = 2048
	maxArgs    = 32 // arguments of one prompt
)

// cut cleans s to one line of at most n runes.
func cut(s string, n int) string {
	s = strings.TrimSpace(clean.Line(s))
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// cutText cleans s (keeping its lines) to at most n runes.
func cutText(s string, n int) string {
	s = strings.TrimSpace(clean.Text(s))
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// UsableURI reports whether a server's URI can be shown and asked for as
// it is: one clean line of a bounded length.
func UsableURI(uri string) bool {
	return uri != "" && len(uri) <= maxURILen && clean.Line(uri) == uri && strings.TrimSpace(uri) == uri
}

// serverRequest is a request one server's actor runs in a worker.
type serverRequest interface {
	alias() string
	// run makes the request; its answer goes to the sender.
	run(ctx context.Context, conn *mcp.Conn) any
	// failed is the answer when the request cannot be made.
	failed(err error) any
}

func (m *ListResources) alias() string     { return m.Alias }
func (m *ReadResource) alias() string      { return m.Alias }
func (m *SubscribeResource) alias() string { return m.Alias }
func (m *ListPrompts) alias() string       { return m.Alias }
func (m *GetPrompt) alias() string         { return m.Alias }

func (m *ListResources) failed(err error) any {
	return &ResourceListing{Alias: m.Alias, Err: err}
}
func (m *ReadResource) failed(err error) any {
	return &ResourceRead{Alias: m.Alias, URI: m.URI, Err: err}
}
func (m *SubscribeResource) failed(err error) any {
	return &Done{Err: err}
}
func (m *ListPrompts) failed(err error) any { return &PromptListing{Alias: m.Alias, Err: err} }
func (m *GetPrompt) failed(err error) any {
	return &PromptResult{Alias: m.Alias, Name: m.Name, Err: err}
}

func (m *ListResources) run(ctx context.Context, conn *mcp.Conn) any {
	out := &ResourceListing{Alias: m.Alias}
	offers := conn.Offers()
	if !offers.Resources {
		return out
	}
	out.Offered, out.Subscribe = true, offers.Subscribe
	list, truncated, err := conn.ListResources(ctx)
	if err != nil {
		out.Err = err
		return out
	}
	out.Truncated = truncated
	for _, r := range list {
		if !UsableURI(r.URI) {
			out.LeftOut++
			continue
		}
		out.Resources = append(out.Resources, Resource{
			URI: r.URI, Name: cut(r.Name, maxNameLen), Title: cut(r.Title, maxNameLen),
			Description: cutText(r.Description, maxDescLen), MIMEType: cut(r.MIMEType, 100), Size: max(r.Size, 0),
		})
	}
	templates, truncated, err := conn.ListResourceTemplates(ctx)
	if err != nil {
		// Resources without templates are still worth having; a server
		// that lists none may not know the method.
		return out
	}
	out.Truncated = out.Truncated || truncated
	for _, t := range templates {
		if !UsableURI(t.URITemplate) {
			out.LeftOut++
			continue
		}
		out.Templates = append(out.Templates, ResourceTemplate{
			URITemplate: t.URITemplate, Name: cut(t.Name, maxNameLen), Title: cut(t.Title, maxNameLen),
			Description: cutText(t.Description, maxDescLen), MIMEType: cut(t.MIMEType, 100),
		})
	}
	return out
}

func (m *ReadResource) run(ctx context.Context, conn *mcp.Conn) any {
	out := &ResourceRead{Alias: m.Alias, URI: m.URI}
	if !UsableURI(m.URI) {
		out.Err = fmt.Errorf("%q is not a resource URI", m.URI)
		return out
	}
	res, err := conn.ReadResource(ctx, m.URI)
	if err != nil {
		out.Err = err
		return out
	}
	out.Contents = slices.DeleteFunc(slices.Clone(res.Contents), func(c *sdk.ResourceContents) bool { return c == nil })
	return out
}

// run for a subscription is the wire request alone; the actor keeps the
// subscribers (serverActor.subscribe).
func (m *SubscribeResource) run(ctx context.Context, conn *mcp.Conn) any {
	var err error
	if m.Off {
		err = conn.Unsubscribe(ctx, m.URI)
	} else {
		err = conn.Subscribe(ctx, m.URI)
	}
	return &Done{Err: err}
}

func (m *ListPrompts) run(ctx context.Context, conn *mcp.Conn) any {
	out := &PromptListing{Alias: m.Alias}
	if !conn.Offers().Prompts {
		return out
	}
	out.Offered = true
	list, truncated, err := conn.ListPrompts(ctx)
	if err != nil {
		out.Err = err
		return out
	}
	out.Truncated = truncated
	for _, p := range list {
		// A prompt is typed as /alias.name: its name must be one clean
		// word.
		if p.Name == "" || strings.ContainsAny(p.Name, " \t") || cut(p.Name, maxNameLen) != p.Name {
			continue
		}
		name := p.Name
		pr := Prompt{Name: name, Title: cut(p.Title, maxNameLen), Description: cutText(p.Description, maxDescLen)}
		for _, a := range p.Arguments {
			if a == nil || len(pr.Arguments) == maxArgs {
				continue
			}
			an := cut(a.Name, 100)
			if an == "" || an != a.Name {
				continue
			}
			pr.Arguments = append(pr.Arguments, PromptArgument{Name: an, Title: cut(a.Title, maxNameLen), Description: cutText(a.Description, maxDescLen), Required: a.Required})
		}
		out.Prompts = append(out.Prompts, pr)
	}
	return out
}

func (m *GetPrompt) run(ctx context.Context, conn *mcp.Conn) any {
	out := &PromptResult{Alias: m.Alias, Name: m.Name}
	res, err := conn.GetPrompt(ctx, m.Name, m.Args)
	if err != nil {
		out.Err = err
		return out
	}
	out.Description = cutText(res.Description, maxDescLen)
	out.Messages = slices.DeleteFunc(slices.Clone(res.Messages), func(p *sdk.PromptMessage) bool { return p == nil })
	return out
}

// --- In the server's actor.

type (
	// pendingRequest waits for a server's connection.
	pendingRequest struct {
		sender *actor.PID
		req    serverRequest
	}
	// resourceChanged is a notifications/resources/updated, tagged with
	// its connection.
	resourceChanged struct {
		gen int
		uri string
	}
	// subscribeFailed undoes a subscription the server refused.
	subscribeFailed struct {
		uri string
		pid *actor.PID
	}
)

// maxSubscriptions bounds the resources one server is asked to watch.
const maxSubscriptions = 64

// serve takes a request: at once when connected, after the connection when
// the server is idle or making its first one, else it fails saying why.
func (a *serverActor) serve(c actor.Context, sender *actor.PID, m serverRequest) {
	switch {
	case a.conn != nil:
		a.startRequest(c, sender, m)
	case a.status.State == StateIdle:
		a.pending = append(a.pending, pendingRequest{sender, m})
		a.setState(c, StateConnecting, "connecting for a request")
		a.dial(c)
	case a.status.State == StateConnecting:
		a.pending = append(a.pending, pendingRequest{sender, m})
	default:
		c.Send(sender, m.failed(a.unavailable()))
	}
}

// runPending starts the requests that waited for the connection.
func (a *serverActor) runPending(c actor.Context) {
	for _, p := range a.pending {
		a.startRequest(c, p.sender, p.req)
	}
	a.pending = nil
}

// failPending answers the requests that waited with err.
func (a *serverActor) failPending(c actor.Context, err error) {
	for _, p := range a.pending {
		c.Send(p.sender, p.req.failed(err))
	}
	a.pending = nil
}

func (a *serverActor) startRequest(c actor.Context, sender *actor.PID, m serverRequest) {
	if sub, ok := m.(*SubscribeResource); ok {
		if !a.subscribe(c, sender, sub) {
			return
		}
	}
	conn, root := a.conn.conn, c.ActorSystem().Root
	ctx, cancel := context.WithTimeout(a.life, a.deps.mcp.CallTimeout(a.srv))
	self := c.Self()
	a.deps.workers.run(func() {
		defer cancel()
		ans := m.run(ctx, conn)
		if sub, ok := m.(*SubscribeResource); ok && !sub.Off {
			if d := ans.(*Done); d.Err != nil {
				root.Send(self, &subscribeFailed{uri: sub.URI, pid: sub.PID})
			}
		}
		if sender != nil {
			root.Send(sender, ans)
		}
	})
}

// subscribe keeps (or forgets) a subscriber, and reports whether the
// server must be asked: for the first subscriber of a URI, or when its last
// one leaves. Otherwise it answers the sender itself.
func (a *serverActor) subscribe(c actor.Context, sender *actor.PID, m *SubscribeResource) bool {
	answer := func(err error) {
		if sender != nil {
			c.Send(sender, &Done{Err: err})
		}
	}
	if !UsableURI(m.URI) {
		answer(fmt.Errorf("%q is not a resource URI", m.URI))
		return false
	}
	if a.subs == nil {
		a.subs = map[string][]*actor.PID{}
	}
	subs := a.subs[m.URI]
	if m.Off {
		subs = slices.DeleteFunc(subs, func(p *actor.PID) bool { return p.Equal(m.PID) })
		if len(subs) > 0 {
			a.subs[m.URI] = subs
			answer(nil)
			return false
		}
		if _, had := a.subs[m.URI]; !had {
			answer(nil)
			return false
		}
		delete(a.subs, m.URI)
		return true
	}
	if !a.conn.conn.Offers().Subscribe {
		answer(fmt.Errorf("server %s does not offer resource subscriptions", a.alias))
		return false
	}
	if m.PID == nil {
		answer(fmt.Errorf("a subscription needs a PID to tell"))
		return false
	}
	if slices.ContainsFunc(subs, func(p *actor.PID) bool { return p.Equal(m.PID) }) {
		answer(nil)
		return false
	}
	if len(subs) == 0 && len(a.subs) >= maxSubscriptions {
		answer(fmt.Errorf("server %s already has %d resources watched", a.alias, maxSubscriptions))
		return false
	}
	a.subs[m.URI] = append(subs, m.PID)
	if len(subs) > 0 {
		answer(nil)
		return false
	}
	return true
}

// resubscribe asks a new connection for the subscriptions of the last.
func (a *serverActor) resubscribe(c actor.Context) {
	if len(a.subs) == 0 || !a.conn.conn.Offers().Subscribe {
		return
	}
	conn, log := a.conn.conn, a.log
	ctx, cancel := context.WithTimeout(a.life, a.deps.mcp.CallTimeout(a.srv))
	uris := make([]string, 0, len(a.subs))
	for uri := range a.subs {
		uris = append(uris, uri)
	}
	a.deps.workers.run(func() {
		defer cancel()
		for _, uri := range uris {
			if err := conn.Subscribe(ctx, uri); err != nil {
				log.Warn("subscribing again", "uri", uri, "err", err)
			}
		}
	})
}

// resourceReceive handles the resource messages of a server's actor; it
// reports whether msg was one.
func (a *serverActor) resourceReceive(c actor.Context, msg any) bool {
	switch m := msg.(type) {
	case serverRequest:
		a.serve(c, c.Sender(), m)
	case *egressDecided:
		a.onEgress(c, m)
	case *resourceChanged:
		if m.gen != a.gen {
			return true
		}
		for _, pid := range a.subs[m.uri] {
			c.Send(pid, &ResourceUpdated{Alias: a.alias, URI: m.uri})
		}
	case *subscribeFailed:
		subs := slices.DeleteFunc(a.subs[m.uri], func(p *actor.PID) bool { return p.Equal(m.pid) })
		if len(subs) == 0 {
			delete(a.subs, m.uri)
		} else {
			a.subs[m.uri] = subs
		}
	default:
		return false
	}
	return true
}

// --- In the servers supervisor.

// forwardRequest hands a request to its server's actor, which answers the
// original sender.
func (a *serversActor) forwardRequest(c actor.Context, m serverRequest) {
	pid := a.children[m.alias()]
	if pid == nil {
		err := fmt.Errorf("no server named %q", m.alias())
		if st, ok := a.status[m.alias()]; ok {
			err = fmt.Errorf("server %s is %s", m.alias(), st.State)
			if st.Reason != "" {
				err = fmt.Errorf("%w: %s", err, st.Reason)
			}
		}
		if c.Sender() != nil {
			c.Respond(m.failed(err))
		}
		return
	}
	c.RequestWithCustomSender(pid, m, c.Sender())
}

// --- Blocking helpers, for terminal commands, tests and the window's
// background work.

// TemplateMatches reports whether uri could come from the RFC 6570
// template, as go-sdk's servers decide which template serves a URI: by the
// template's regular expression, which Go's regexp matches in time linear
// in the URI (the library's own Match takes seconds on a server's template
// of hundreds of expressions). A template that does not parse, or whose
// expression Go cannot compile (Regexp panics: a query of over a thousand
// variables), matches nothing.
func TemplateMatches(template, uri string) (matches bool) {
	t, err := uritemplate.New(template)
	if err != nil {
		return false
	}
	defer func() {
		if recover() != nil {
			matches = false
		}
	}()
	return t.Regexp().MatchString(uri)
}

// SplitResource reads ALIAS:URI when ALIAS is a server of list (a URI's own
// scheme is not one); otherwise alias is "".
func SplitResource(arg string, servers []ServerStatus) (alias, uri string) {
	if a, u, ok := strings.Cut(arg, ":"); ok && u != "" {
		for _, st := range servers {
			if st.Alias == a && !strings.HasPrefix(u, "//") {
				return a, u
			}
		}
	}
	return "", arg
}
