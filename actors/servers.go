package actors

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
)

// AnswerElicitation answers a server's question (for terminal commands and
// tests; the window sends the same message).
func (s *System) AnswerElicitation(id, action string, content map[string]any) {
	s.Root.Send(s.Servers, &servers.ElicitationAnswer{ID: id, Action: action, Content: content})
}

// ServerListing is a server's whole listing, its disabled tools included
// and marked.
func (s *System) ServerListing(ctx context.Context, alias string) (*servers.ServerListing, error) {
	return ask[*servers.ServerListing](ctx, s, s.Registry, &servers.GetServerListing{Alias: alias})
}

// SetDisabledTools leaves the named tools of a server out of the catalog
// from now on (the config file is the caller's to change).
func (s *System) SetDisabledTools(alias string, names []string) {
	s.Root.Send(s.Registry, &servers.SetDisabledTools{Alias: alias, Tools: slices.Clone(names)})
}

// Settle tells the registry that the start is over (every server ready,
// or given up on): it lets go of the catalog builders' indexes, made again
// at the next change. Before giving memory back (5,000 tools: about 3 MB
// of heap).
func (s *System) Settle(ctx context.Context) error {
	_, err := ask[*servers.Done](ctx, s, s.Registry, &servers.Settle{})
	return err
}

// Resources lists a server's resources and templates.
func (s *System) Resources(ctx context.Context, alias string) (*servers.ResourceListing, error) {
	l, err := ask[*servers.ResourceListing](ctx, s, s.Servers, &servers.ListResources{Alias: alias})
	if err != nil {
		return nil, err
	}
	return l, l.Err
}

// ReadResource reads one resource of a server.
func (s *System) ReadResource(ctx context.Context, alias, uri string) (*servers.ResourceRead, error) {
	r, err := ask[*servers.ResourceRead](ctx, s, s.Servers, &servers.ReadResource{Alias: alias, URI: uri})
	if err != nil {
		return nil, err
	}
	return r, r.Err
}

// Subscribe makes pid hear of changes to a server's resource (off: no
// longer).
func (s *System) Subscribe(ctx context.Context, alias, uri string, pid *actor.PID, off bool) error {
	d, err := ask[*servers.Done](ctx, s, s.Servers, &servers.SubscribeResource{Alias: alias, URI: uri, PID: pid, Off: off})
	if err != nil {
		return err
	}
	return d.Err
}

// Prompts lists a server's prompts.
func (s *System) Prompts(ctx context.Context, alias string) (*servers.PromptListing, error) {
	l, err := ask[*servers.PromptListing](ctx, s, s.Servers, &servers.ListPrompts{Alias: alias})
	if err != nil {
		return nil, err
	}
	return l, l.Err
}

// GetPrompt asks a server for a prompt filled in with args.
func (s *System) GetPrompt(ctx context.Context, alias, name string, args map[string]string) (*servers.PromptResult, error) {
	r, err := ask[*servers.PromptResult](ctx, s, s.Servers, &servers.GetPrompt{Alias: alias, Name: name, Args: args})
	if err != nil {
		return nil, err
	}
	return r, r.Err
}

// FindResource says which ready servers list uri among their resources,
// or whose templates could make it (RFC 6570, see TemplateMatches): for `mcp read
// URI` and `:attach URI` without an alias.
func (s *System) FindResource(ctx context.Context, uri string) ([]string, error) {
	list, err := s.ServerStatuses(ctx, false)
	if err != nil {
		return nil, err
	}
	var listed, templated []string
	for _, st := range list {
		if st.State != servers.StateReady {
			continue
		}
		l, err := s.Resources(ctx, st.Alias)
		if err != nil || l == nil {
			continue
		}
		if slices.ContainsFunc(l.Resources, func(r servers.Resource) bool { return r.URI == uri }) {
			listed = append(listed, st.Alias)
			continue
		}
		if slices.ContainsFunc(l.Templates, func(t servers.ResourceTemplate) bool { return servers.TemplateMatches(t.URITemplate, uri) }) {
			templated = append(templated, st.Alias)
		}
	}
	if len(listed) > 0 {
		return listed, nil
	}
	return templated, nil
}

// SignIn signs in to a server and waits (within ctx) until it is ready or
// the sign-in failed. shown, if not nil, is given the authorization page's
// URL once the browser has been asked to open it.
func (s *System) SignIn(ctx context.Context, alias string, shown func(url string)) (servers.ServerStatus, error) {
	type outcome struct {
		st  *servers.ServerStatus
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		st, err := ask[*servers.ServerStatus](ctx, s, s.Servers, &servers.SignIn{Alias: alias})
		done <- outcome{st, err}
	}()
	lastURL := ""
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			if o.err != nil {
				return servers.ServerStatus{}, o.err
			}
			if o.st.State != servers.StateReady {
				return *o.st, fmt.Errorf("server %s: %s: %s", alias, o.st.State, o.st.Reason)
			}
			return *o.st, nil
		case <-tick.C:
			if shown == nil {
				continue
			}
			list, err := s.ServerStatuses(ctx, false)
			if err != nil {
				continue
			}
			for _, st := range list {
				if st.Alias == alias && st.SignInURL != "" && st.SignInURL != lastURL {
					lastURL = st.SignInURL
					shown(lastURL)
				}
			}
		}
	}
}

// SignOut forgets a server's sign-in and disconnects it.
func (s *System) SignOut(ctx context.Context, alias string) error {
	d, err := ask[*servers.Done](ctx, s, s.Servers, &servers.SignOut{Alias: alias})
	if err != nil {
		return err
	}
	return d.Err
}

// TokensWarning says why sign-ins are kept in memory only (no keyring), or
// "".
func (s *System) TokensWarning() string {
	return s.signIn.TokensWarning()
}
