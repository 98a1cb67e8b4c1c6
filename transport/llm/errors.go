package llm

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrIncomplete means the stream ended before a finish_reason: the answer
// was cut off. The text received so far is kept in the Turn.
var ErrIncomplete = errors.New("the model's answer stopped before it was finished")

// ErrClosed means the model server closed the connection before any answer
// arrived (an overloaded or restarting server, a proxy's idle cut): nothing
// was received, so the request may be sent again.
var ErrClosed = errors.New("the model server closed the connection before answering")

// ErrDropped means the connection broke while the answer streamed, in the
// middle of an event or between two. The text received so far is kept in
// the Turn, as for ErrIncomplete; the request is not sent again, since the
// model had begun answering.
var ErrDropped = errors.New("the connection to the model server dropped in the middle of the answer")

// ErrStreamTimeout is the cause when the server stays silent longer than the
// stream timeout.
var ErrStreamTimeout = errors.New("the model server stopped sending")

// HTTPError is a refused request: the status and the server's own message.
type HTTPError struct {
	Status     int
	Message    string
	RetryAfter time.Duration // from Retry-After, when given
	// Key is where the key that was refused came from, for a 401 or 403
	// (Client.KeyFrom); NoKey, that none was sent.
	Key   string
	NoKey bool
	// Method and URL are the request refused, the URL without credentials,
	// query or fragment (Shown).
	Method, URL string
	// Model is the model asked for, to tell a model the server does not
	// know from an address that is not an API.
	Model string
}

// GaveUp is the refusal of a request's last try, after Tries in all
// (StreamRetried): its text says so, without the server's "retry after"
// (read beside a Retry button, it said Deckhand would try again).
type GaveUp struct {
	Err   error
	Tries int
}

func (e *GaveUp) Error() string {
	msg := e.Err.Error()
	var he *HTTPError
	if errors.As(e.Err, &he) && he.RetryAfter > 0 {
		msg = strings.Replace(msg, retryAfterNote(he.RetryAfter), "", 1)
	}
	return fmt.Sprintf("%s; gave up after %d tries", msg, e.Tries)
}

func (e *GaveUp) Unwrap() error { return e.Err }

// retryAfterNote is how an HTTPError's text gives the server's
// Retry-After (GaveUp takes it out again, from text already redacted).
func retryAfterNote(d time.Duration) string { return fmt.Sprintf(" (retry after %v)", d) }

func (e *HTTPError) Error() string {
	status := fmt.Sprintf("%d %s", e.Status, statusText(e.Status))
	msg := "model server: " + status
	if e.URL != "" {
		msg += " from " + strings.TrimSpace(e.Method+" "+e.URL)
	}
	if e.Message != "" && !strings.EqualFold(e.Message, status) && !strings.EqualFold(e.Message, statusText(e.Status)) {
		msg += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		msg += retryAfterNote(e.RetryAfter)
	}
	var hint string
	switch e.Fix() {
	case FixKey:
		switch {
		case e.Key != "" && e.NoKey:
			hint = "Deckhand sent " + e.Key + ": add one in Settings"
		case e.Key != "":
			hint = "Deckhand sent " + e.Key + ": check or replace it in Settings"
		default:
			hint = "It wants an API key, and Deckhand sent none: give one in Settings"
		}
	case FixModel:
		hint = fmt.Sprintf("The server does not know the model %q: pick one it lists in Settings (Check lists them)", e.Model)
	case FixAddress:
		hint = "Nothing answers at that path: the model's address (Model URL in Settings, model.base_url) is likely wrong, " +
			"with /v1 missing or one too many, or not the root of an OpenAI-compatible or Anthropic API"
	}
	if hint != "" {
		if !strings.HasSuffix(msg, ".") {
			msg += "."
		}
		msg += " " + hint
	}
	return msg
}

// Fix is what in the settings likely makes a failed request work.
type Fix string

const (
	FixNone    Fix = ""
	FixKey     Fix = "key"     // the key was refused, or one is wanted (401, 403)
	FixAddress Fix = "address" // nothing answers at the model's address, or not the API (404, 405, unreachable)
	FixModel   Fix = "model"   // the server does not know the model (a 404 that says so)
)

// Fix says what in the settings likely makes the request work.
func (e *HTTPError) Fix() Fix {
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return FixKey
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		// Ollama: "model 'x' not found"; OpenAI: "The model `x` does not
		// exist"; a wrong path says nothing of models, or only a page.
		if e.Status == http.StatusNotFound && e.Model != "" && strings.Contains(strings.ToLower(e.Message), "model") {
			return FixModel
		}
		return FixAddress
	}
	return FixNone
}

// FixFor says what in the settings likely makes a request that failed
// with err work: the key, the address, the model, or nothing there.
func FixFor(err error) Fix {
	var he *HTTPError
	var ue *UnreachableError
	switch {
	case errors.As(err, &he):
		return he.Fix()
	case errors.As(err, &ue):
		return FixAddress
	}
	return FixNone
}

// Shown is rawURL as an error may show it: without credentials, query or
// fragment (an API key may ride in any of them).
func Shown(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(an address that does not parse)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// statusText is the status's name, Anthropic's 529 too.
func statusText(code int) string {
	if code == 529 {
		return "Overloaded"
	}
	return http.StatusText(code)
}

// Temporary reports whether trying again later may work: 408, 409, 429 and
// 5xx (Anthropic's 529, overloaded, too).
func (e *HTTPError) Temporary() bool {
	return e.Status == http.StatusRequestTimeout || e.Status == http.StatusConflict ||
		e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// StreamError is an error object the server sent inside the stream.
type StreamError struct{ Message string }

func (e *StreamError) Error() string { return "model server: " + e.Message }

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}
