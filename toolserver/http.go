package toolserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves the server over streamable HTTP, for loopback
// clients only: a request whose Host or Origin is not a loopback name is
// refused (DNS rebinding: a web page whose name resolves to 127.0.0.1
// cannot reach it).
func (s *Server) HTTPHandler() http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.MCP },
		&sdk.StreamableHTTPOptions{Logger: s.log, SessionTimeout: time.Hour})
	return loopbackOnly(h)
}

func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: the Host %q is not this computer's loopback address", r.Host), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || !loopbackHost(u.Host) {
				http.Error(w, fmt.Sprintf("Forbidden: requests from the origin %q are not accepted", origin), http.StatusForbidden)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header (host or host:port) names
// this computer's loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Listen opens addr for ServeHTTP: a loopback address only.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--http %s: %w (want 127.0.0.1:PORT)", addr, err)
	}
	if host == "" || !loopbackHost(host) {
		return nil, fmt.Errorf("--http %s: the tools server listens on loopback only (127.0.0.1, [::1] or localhost)", addr)
	}
	return net.Listen("tcp", addr)
}

// ServeHTTP serves on l at /mcp until ctx ends.
func (s *Server) ServeHTTP(ctx context.Context, l net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
