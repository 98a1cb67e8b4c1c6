package toolserver

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves the server over streamable HTTP, for loopback
// clients that hold token only: a request whose Host or Origin is not a
// loopback name is refused (DNS rebinding: a web page whose name resolves
// to 127.0.0.1 cannot reach it), and so is one without "Authorization:
// Bearer <token>" (another user of this computer reaches loopback too).
// An empty token refuses every request.
func (s *Server) HTTPHandler(token string) http.Handler {
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.MCP },
		&sdk.StreamableHTTPOptions{Logger: s.log, SessionTimeout: time.Hour})
	if s.opts.Echo != nil {
		h = (&echoer{w: s.opts.Echo, color: s.opts.EchoColor}).wrap(h)
	}
	return loopbackOnly(bearerOnly(token, jsonWhenAsked(h)))
}

// bearerOnly refuses a request without the token, in constant time.
func bearerOnly(token string, h http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="deckhand-tools"`)
			http.Error(w, "Unauthorized: send the header Authorization: Bearer <token>, with the token `deckhand tools serve --http` printed (it is kept in Deckhand's config folder, readable by its owner only)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Token reads the bearer token of `tools serve --http` from file, making
// one (32 random bytes, 0600) when there is none. A file that others may
// read is refused: anyone who can read it can run commands as its owner.
func Token(file string) (string, error) {
	if data, err := os.ReadFile(file); err == nil {
		st, err := os.Stat(file)
		if err != nil {
			return "", err
		}
		if st.Mode().Perm()&0o077 != 0 {
			return "", fmt.Errorf("the token file %s may be read by others (mode %v): chmod 600 it, or delete it for a new token", file, st.Mode().Perm())
		}
		if tok := strings.TrimSpace(string(data)); len(tok) >= 32 {
			return tok, nil
		}
		return "", fmt.Errorf("the token file %s holds no token of at least 32 characters: delete it for a new one", file)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", err
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	tok := base64.RawURLEncoding.EncodeToString(raw)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return Token(file) // made meanwhile by another tools serve
		}
		return "", err
	}
	defer f.Close()
	if _, err := f.WriteString(tok + "\n"); err != nil {
		return "", err
	}
	return tok, nil
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

// ServeHTTP serves on l at /mcp, to clients holding token, until ctx ends.
func (s *Server) ServeHTTP(ctx context.Context, l net.Listener, token string) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(token))
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
