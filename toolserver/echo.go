package toolserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Echo prefixes: what a client sent, what the server answered, and the
// server's own complaints (Ahma's R8.3 names them).
const (
	echoIn  = "→ STDIN: "
	echoOut = "← STDOUT: "
	echoErr = "⚠ STDERR: "
)

// echoer writes the HTTP server's traffic to a terminal for debugging
// (`tools serve --http --echo`): each JSON-RPC message a client posts, and
// each the server answers (a JSON body, or each SSE event's data),
// pretty-printed with two-space indents after its prefix; what is not
// JSON is written as it is. Colour when the terminal takes it. Headers
// (the bearer token) are never written.
type echoer struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
}

func (e *echoer) write(prefix string, data []byte) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return
	}
	text := string(data)
	var pretty bytes.Buffer
	if json.Indent(&pretty, data, "", "  ") == nil {
		text = pretty.String()
	}
	head := prefix
	if e.color {
		c := "\x1b[36m" // cyan: in
		switch prefix {
		case echoOut:
			c = "\x1b[32m"
		case echoErr:
			c = "\x1b[33m"
		}
		head = c + prefix + "\x1b[0m"
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	io.WriteString(e.w, head+text+"\n")
}

// Errorf writes a complaint of the server's.
func (e *echoer) Errorf(text string) { e.write(echoErr, []byte(text)) }

func (e *echoer) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Method == http.MethodPost {
			body, err := io.ReadAll(io.LimitReader(r.Body, maxEchoBody+1))
			r.Body.Close()
			if err != nil {
				e.Errorf("reading a request: " + err.Error())
			}
			if len(body) > maxEchoBody {
				e.write(echoIn, []byte("(a request of more than 1 MiB, not shown)"))
			} else {
				e.write(echoIn, body)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		ew := &echoWriter{ResponseWriter: w, e: e}
		h.ServeHTTP(ew, r)
		ew.finish()
	})
}

// maxEchoBody is the largest request body echoed; the handler still gets
// it whole (it has its own limits).
const maxEchoBody = 1 << 20

// echoWriter passes a response on and echoes it: a JSON body whole at its
// end, an event stream event by event.
type echoWriter struct {
	http.ResponseWriter
	e       *echoer
	sse     *bool
	pending bytes.Buffer
}

func (w *echoWriter) Write(p []byte) (int, error) {
	if w.sse == nil {
		sse := strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream")
		w.sse = &sse
	}
	if w.pending.Len() < maxEchoBody {
		w.pending.Write(p)
	}
	if *w.sse {
		w.events()
	}
	return w.ResponseWriter.Write(p)
}

// events echoes each whole SSE event's data that has arrived.
func (w *echoWriter) events() {
	for {
		buf := w.pending.Bytes()
		i := bytes.Index(buf, []byte("\n\n"))
		if i < 0 {
			return
		}
		if data := eventData(buf[:i]); len(data) > 0 {
			w.e.write(echoOut, data)
		}
		w.pending.Next(i + 2)
	}
}

func (w *echoWriter) finish() {
	if w.sse == nil || !*w.sse {
		w.e.write(echoOut, w.pending.Bytes())
	}
}

// Flush keeps streaming working through the wrapper.
func (w *echoWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *echoWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
