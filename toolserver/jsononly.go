package toolserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// jsonWhenAsked lets a client that takes only JSON (Accept:
// application/json alone, or no Accept at all) get its answer as one JSON
// body (Ahma's R8.2.2, R8.2.3), where the go-sdk's handler, following the
// MCP spec's rule for clients, refuses a POST that does not accept both
// JSON and an event stream. The request is passed on accepting both, and
// an event stream that comes back is replaced by the JSON-RPC response in
// it; the notifications sent meanwhile (progress) are left out, since the
// client cannot take them. Content-Type always says what the body is
// (R8.2.4). Other requests pass as they are.
func jsonWhenAsked(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || acceptsStream(r.Header.Values("Accept")) {
			h.ServeHTTP(w, r)
			return
		}
		r = r.Clone(r.Context())
		r.Header.Set("Accept", "application/json, text/event-stream")
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		body := rec.body.Bytes()
		if ct, _, _ := mime.ParseMediaType(rec.header.Get("Content-Type")); ct == "text/event-stream" {
			if msg := responseIn(body); msg != nil {
				body = msg
				rec.header.Set("Content-Type", "application/json")
			} else {
				body = nil
				rec.header.Del("Content-Type")
				if rec.status == http.StatusOK {
					rec.status = http.StatusAccepted
				}
			}
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		if body != nil {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(rec.status)
		w.Write(body)
	})
}

func acceptsStream(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if mt, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && (mt == "text/event-stream" || mt == "text/*") {
				return true
			}
		}
	}
	return false
}

// responseIn is the JSON-RPC response (an id, with a result or an error)
// among an event stream's events, or nil.
func responseIn(stream []byte) []byte {
	var found []byte
	for _, event := range bytes.Split(bytes.ReplaceAll(stream, []byte("\r\n"), []byte("\n")), []byte("\n\n")) {
		msg := eventData(event)
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(msg, &probe) == nil && len(probe.ID) > 0 && (probe.Result != nil || probe.Error != nil) {
			found = msg
		}
	}
	return found
}

// recorder keeps a response to pass on once it is whole.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
func (r *recorder) Flush() {}

// eventData is one server-sent event's data: its data lines, joined by
// newlines, each without "data:" and one space after it.
func eventData(event []byte) []byte {
	var data []string
	sc := bufio.NewScanner(bytes.NewReader(event))
	sc.Buffer(make([]byte, 64<<10), 32<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
			data = append(data, strings.TrimPrefix(d, " "))
		}
	}
	return []byte(strings.Join(data, "\n"))
}
