package llm

import (
	"errors"
	"fmt"
	"net/http"
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
	// (Client.KeyFrom).
	Key string
}

func (e *HTTPError) Error() string {
	status := fmt.Sprintf("%d %s", e.Status, statusText(e.Status))
	msg := "model server: " + status
	if e.Message != "" && !strings.EqualFold(e.Message, status) && !strings.EqualFold(e.Message, statusText(e.Status)) {
		msg += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (retry after %v)", e.RetryAfter)
	}
	if e.Key != "" {
		msg += ". Deckhand sent " + e.Key + ": check or replace it in Settings"
	}
	return msg
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
