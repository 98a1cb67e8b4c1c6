package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/r3labs/sse/v2"

	"deckhand/redact"
	"deckhand/transport/errbody"
)

// MaxEventSize bounds one SSE event (one chunk); a larger one is an error.
const MaxEventSize = 8 << 20

// Client talks to one OpenAI-compatible endpoint, or to the Anthropic
// Messages API when Provider is ProviderAnthropic.
type Client struct {
	// Provider is the wire format: ProviderOpenAI ("" too) or
	// ProviderAnthropic.
	Provider string
	// BaseURL is the API root; requests go to BaseURL/chat/completions
	// (for Anthropic BaseURL/v1/messages, BaseURL with or without /v1:
	// see AnthropicEndpoint).
	BaseURL string
	// Model is sent as "model".
	Model string
	// APIKey, if set, is sent as a bearer token (x-api-key for Anthropic).
	// It never appears in errors.
	APIKey string
	// HTTPClient sends requests. Default http.DefaultClient.
	HTTPClient *http.Client
	// Timeout is the longest wait for the first byte and the longest silence
	// between chunks. Default 2m.
	Timeout time.Duration
	// KeyFrom says where APIKey came from, in words ("the key in the
	// keyring for https://api.openai.com/v1"): a refused key (401, 403)
	// names it, never the key itself.
	KeyFrom string
	// ToolResults is how tool results are sent (OpenAI's wire format
	// only): ToolResultsAuto (the default), ToolResultsRole or
	// ToolResultsPrefix.
	ToolResults string
	// Silence, if set, is told how long the server has sent nothing once
	// that is SilenceAfter, and again every SilenceEvery while it lasts;
	// then 0 when a byte comes again, or the stream ends. Called from a
	// timer's goroutine or a reader's, one call at a time.
	Silence func(silent time.Duration)
}

// SilenceAfter is how long a model may send nothing before
// Client.Silence hears of it, and SilenceEvery how often after that.
const (
	SilenceAfter = 20 * time.Second
	SilenceEvery = 10 * time.Second
)

// Stream starts a streamed completion. A refused request is an *HTTPError
// with the status and the server's message. The stream must be closed.
//
// A server that refuses role "tool" messages as a strict chat template does
// (400 "roles must alternate") is asked again at once with the tool results
// as a prefixed user turn (ToolResultsPrefix), and so is every later
// request for that model; Stream.Prefixed says so. ToolResultsRole turns
// this off.
func (c *Client) Stream(ctx context.Context, req *Request) (*Stream, error) {
	prefix := c.Provider != ProviderAnthropic && c.usePrefix()
	s, err := c.stream(ctx, req, prefix)
	var herr *HTTPError
	if !prefix && c.Provider != ProviderAnthropic && c.ToolResults == ToolResultsAuto && errors.As(err, &herr) && toolRoleRefused(herr, req) {
		prefixed.Store(modelKey(c), true)
		s, err = c.stream(ctx, req, true)
		if s != nil {
			s.Switched = true
		}
	}
	if s != nil {
		s.Prefixed = prefix || s.Switched
	}
	return s, err
}

func (c *Client) stream(ctx context.Context, req *Request, prefix bool) (*Stream, error) {
	anthropic := c.Provider == ProviderAnthropic
	var body []byte
	var err error
	endpoint := strings.TrimRight(c.BaseURL, "/") + "/chat/completions"
	if anthropic {
		endpoint = AnthropicEndpoint(c.BaseURL, "messages")
		body, err = anthropicBody(c.Model, req)
	} else {
		if prefix {
			r := *req
			r.Messages = prefixToolResults(req.Messages)
			req = &r
		}
		body, err = openAIBody(c.Model, req)
	}
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithCancelCause(ctx)
	watchdog := time.AfterFunc(timeout, func() { cancel(ErrStreamTimeout) })
	quiet := newSilence(c.Silence)
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		watchdog.Stop()
		quiet.stop()
		cancel(nil)
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	switch {
	case anthropic:
		hreq.Header.Set("anthropic-version", AnthropicVersion)
		if c.APIKey != "" {
			hreq.Header.Set("x-api-key", c.APIKey)
		}
	case c.APIKey != "":
		hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		watchdog.Stop()
		quiet.stop()
		if cause := context.Cause(ctx); errors.Is(cause, ErrStreamTimeout) {
			err = cause
		}
		cancel(nil)
		if closedEarly(err) {
			return nil, c.clean(fmt.Errorf("%w (%s)", ErrClosed, c.BaseURL))
		}
		return nil, c.clean(unreachable(c.BaseURL, err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		defer cancel(nil)
		watchdog.Stop()
		quiet.stop()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		msg := errbody.Summary(data)
		if anthropic {
			msg = anthropicErrorText(data, msg)
		}
		herr := &HTTPError{
			Status:     resp.StatusCode,
			Message:    c.redact(msg),
			RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now()),
			Method:     http.MethodPost,
			URL:        c.redact(Shown(endpoint)),
			Model:      c.Model,
		}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			herr.Key, herr.NoKey = c.KeyFrom, c.APIKey == ""
			if herr.Key == "" && c.APIKey != "" {
				herr.Key = "an API key"
			}
		}
		return nil, herr
	}
	s := &Stream{body: resp.Body, cancel: cancel, client: c}
	if anthropic {
		s.anthropic = &anthropicState{}
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "application/json" {
		// The server ignored stream:true and sent the whole completion.
		s.whole = true
	}
	s.idle = &idleReader{r: resp.Body, timer: watchdog, timeout: timeout, quiet: quiet}
	s.events = newEventReader(s.idle)
	s.watchdog = watchdog
	s.ctx = ctx
	return s, nil
}

// clean removes the API key from an error's text.
func (c *Client) clean(err error) error { return redact.New(c.APIKey).Error(err) }

// redact removes the API key from text.
func (c *Client) redact(s string) string { return redact.New(c.APIKey).String(s) }

func newEventReader(r io.Reader) *sse.EventStreamReader {
	return sse.NewEventStreamReader(r, MaxEventSize)
}

// idleReader resets the watchdog on every read that returns data.
type idleReader struct {
	r       io.Reader
	timer   *time.Timer
	timeout time.Duration
	quiet   *silence // nil when no one listens
	tail    []byte   // the last bytes read, up to 4
	ended   bool     // a read returned an error (io.EOF too)
}

func (r *idleReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.timer.Reset(r.timeout)
		r.quiet.data()
		r.tail = append(r.tail, p[:n]...)
		r.tail = r.tail[max(0, len(r.tail)-4):]
	}
	if err != nil {
		r.ended = true
	}
	return n, err
}

// cut reports whether the body ended (or broke) in the middle of an event:
// its last bytes are not the blank line that closes one. The SSE reader
// hands such a tail on as if it were a whole event.
func (r *idleReader) cut() bool {
	if !r.ended || len(r.tail) == 0 {
		return false
	}
	t := string(r.tail)
	return !strings.HasSuffix(t, "\n\n") && !strings.HasSuffix(t, "\r\r") && !strings.HasSuffix(t, "\r\n\r\n")
}

// closedEarly reports whether a request failed because the server closed
// the connection before sending a status line: EOF where the response
// should begin, or a reset.
func closedEarly(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// dropped reports whether a read error is the connection breaking (a
// chunked body cut short, a reset) rather than our timeout or a cancel.
func dropped(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// Stream is a response being read.
type Stream struct {
	client   *Client
	body     io.ReadCloser
	events   *sse.EventStreamReader
	idle     *idleReader
	ctx      context.Context
	cancel   context.CancelCauseFunc
	watchdog *time.Timer
	whole    bool // a plain JSON body, not SSE
	// anthropic, when set, reads the body as Anthropic Messages events
	// (anthropic.go) instead of chat-completion chunks.
	anthropic *anthropicState
	done      bool
	once      sync.Once
	// Prefixed says the request sent tool results as a prefixed user turn
	// (ToolResultsPrefix); Switched, that this request found the model's
	// server refusing role "tool" and switched to it.
	Prefixed, Switched bool
}

// nextData is the data of the next event that has some (comments, keep-
// alives and events without data are skipped); io.EOF at the end of the
// body, unless a cancellation ended it.
func (s *Stream) nextData() ([]byte, error) {
	for {
		raw, err := s.events.ReadEvent()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if cause := context.Cause(s.ctx); cause != nil && s.ctx.Err() != nil {
					return nil, s.readError(cause)
				}
				s.done = true
				return nil, io.EOF
			}
			return nil, s.readError(err)
		}
		if data, ok := eventData(raw); ok && len(bytes.TrimSpace(data)) > 0 {
			return data, nil
		}
	}
}

// Next returns the next delta; io.EOF after [DONE] or the end of the body.
// An error object in the stream is a *StreamError; a silence longer than
// the timeout is ErrStreamTimeout.
func (s *Stream) Next() (Delta, error) {
	if s.done {
		return Delta{}, io.EOF
	}
	if s.anthropic != nil {
		return s.nextAnthropic()
	}
	if s.whole {
		s.done = true
		data, err := io.ReadAll(io.LimitReader(s.body, MaxEventSize))
		if err != nil {
			return Delta{}, s.readError(err)
		}
		return parseChunk(data)
	}
	data, err := s.nextData()
	if err != nil {
		return Delta{}, err
	}
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		s.done = true
		return Delta{}, io.EOF
	}
	d, err := parseChunk(data)
	return d, s.malformed(err)
}

// malformed turns a chunk that would not parse into ErrDropped when the
// body ended in the middle of it: half an event is a broken connection,
// not a server speaking nonsense.
func (s *Stream) malformed(err error) error {
	if err == nil || s.idle == nil || !s.idle.cut() {
		return err
	}
	var se *StreamError
	if errors.As(err, &se) {
		return err
	}
	return ErrDropped
}

func (s *Stream) readError(err error) error {
	if cause := context.Cause(s.ctx); s.ctx.Err() != nil && cause != nil {
		err = cause
	} else if dropped(err) {
		return ErrDropped
	}
	return s.client.clean(fmt.Errorf("reading the model's stream: %w", err))
}

// StreamRetried is Stream, asked again after a refusal that may pass
// (a 429 or 5xx, a server not yet listening, a connection closed before
// any answer) up to retry.Max times, after the server's Retry-After or 1 s,
// 2 s, 4 s… (at most a minute), or at once when retry.Now names the try
// waited for. A
// request whose answer had begun streaming is never sent again: its
// errors come from reading the Stream. Cancelling ctx ends the wait and
// the request. Only one request is in flight at a time: a wait cut short
// sends the next try in its place.
func (c *Client) StreamRetried(ctx context.Context, req *Request, retry Retries) (*Stream, error) {
	for attempt := 0; ; attempt++ {
		s, err := c.Stream(ctx, req)
		if err == nil {
			return s, nil
		}
		wait, ok := retryable(err, attempt)
		if ok && attempt > 0 && attempt >= retry.Max && ctx.Err() == nil {
			return nil, &GaveUp{Err: err, Tries: attempt + 1}
		}
		if !ok || attempt >= retry.Max || ctx.Err() != nil {
			return nil, err
		}
		r := Retrying{Err: err, Wait: wait, Next: attempt + 2, Tries: retry.Max + 1}
		// A signal sent before this wait was told of was meant for one
		// that is over (a click as the try went): it is dropped.
		select {
		case <-retry.Now:
		default:
		}
		if retry.Waiting != nil {
			retry.Waiting(r)
		}
		if !pause(ctx, wait, retry.Now, r.Next) {
			return nil, err
		}
		if retry.Trying != nil {
			retry.Trying(r)
		}
	}
}

// pause waits d, or until try is received from now (any other number
// was meant for a wait that is over, and is dropped); false when ctx
// ended first.
func pause(ctx context.Context, d time.Duration, now <-chan int, try int) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return true
		case n := <-now:
			if n == try {
				return true
			}
		case <-ctx.Done():
			return false
		}
	}
}

// Retries says how StreamRetried asks again.
type Retries struct {
	// Max is how many times a refused request is asked again (0: never).
	Max int
	// Waiting, if set, is told of each wait before it begins; Trying,
	// if set, when it is over, just before the try it waited for. Both
	// are called on StreamRetried's goroutine.
	Waiting, Trying func(Retrying)
	// Now, if set, cuts a wait short: the number of the try waited for
	// (Retrying.Next), received from it while StreamRetried waits, sends
	// that try at once (the person's "Retry now" on the notice that
	// announced it). Any other number, or a value left from before a wait,
	// is dropped: a click on a notice whose try has gone never cuts the
	// next wait. Its sender sends without blocking on a channel with a
	// buffer of one.
	Now <-chan int
}

// Retrying is a refused try that StreamRetried follows with another after
// Wait: Next is that try's number (2 for the first one again), of Tries in
// all.
type Retrying struct {
	Err         error
	Wait        time.Duration
	Next, Tries int
}

// maxRetryWait caps how long a Retry-After may hold a request.
const maxRetryWait = time.Minute

// retryable says whether a refused request may work later, and after how
// long: the server's Retry-After, or 1s, 2s, 4s….
func retryable(err error, attempt int) (time.Duration, bool) {
	wait := time.Second << min(attempt, 5)
	var he *HTTPError
	var op *net.OpError
	switch {
	case errors.As(err, &he):
		if !he.Temporary() {
			return 0, false
		}
		if he.RetryAfter > 0 {
			wait = he.RetryAfter
		}
	case errors.As(err, &op) && op.Op == "dial":
	case errors.Is(err, ErrClosed): // closed before any answer: nothing was received
	default:
		return 0, false
	}
	return min(wait, maxRetryWait), true
}

// Turn reads the stream to its end and joins its deltas into the turn;
// each, if not nil, sees every delta as it comes (the text to show while
// the answer streams). On an error the turn holds what arrived.
func (s *Stream) Turn(each func(Delta)) (Turn, error) {
	var acc Accumulator
	for {
		d, err := s.Next()
		if errors.Is(err, io.EOF) {
			return acc.Turn()
		}
		if err != nil {
			turn, _ := acc.Turn()
			return turn, err
		}
		acc.Add(d)
		if each != nil {
			each(d)
		}
	}
}

// Close ends the request; reading stops at once.
func (s *Stream) Close() error {
	s.once.Do(func() {
		s.watchdog.Stop()
		if s.idle != nil {
			s.idle.quiet.stop()
		}
		if s.done {
			// Read what little follows [DONE] (the end of the chunked body), so
			// that the connection can carry the next request.
			io.Copy(io.Discard, io.LimitReader(s.body, 64<<10))
		}
		s.cancel(nil)
		s.body.Close()
	})
	return nil
}

// parseChunk decodes one chunk's JSON.
func parseChunk(data []byte) (Delta, error) {
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return Delta{}, fmt.Errorf("the model server sent a malformed chunk (%v): %.200s", err, data)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return Delta{}, &StreamError{Message: errbody.Summary(data)}
	}
	return c.delta(), nil
}

// eventData returns an SSE event's data: the "data" fields joined with
// newlines, the optional space after the colon removed. ok is false for an
// event with no data field (only comments, an id, a retry). Written by hand:
// r3labs/sse does this only inside its own client, which can only GET.
func eventData(event []byte) (data []byte, ok bool) {
	var out []byte
	for len(event) > 0 {
		var line []byte
		if i := bytes.IndexAny(event, "\r\n"); i >= 0 {
			line = event[:i]
			if event[i] == '\r' && i+1 < len(event) && event[i+1] == '\n' {
				i++
			}
			event = event[i+1:]
		} else {
			line, event = event, nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue // comments, event names, ids, retries, unknown fields
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if ok {
			out = append(out, '\n')
		}
		out = append(out, value...) // a copy: the reader reuses its buffer
		ok = true
	}
	return out, ok
}

// Turn is one complete assistant answer.
type Turn struct {
	Text         string
	Reasoning    string
	ToolCalls    []ToolCall
	Usage        *Usage
	FinishReason string
}

// Accumulator joins deltas into a Turn. Tool calls are joined by index; a
// server that sends no index (some do) starts a new call whenever a fragment
// brings a new id, or a name when the current call has one.
type Accumulator struct {
	text, reasoning strings.Builder
	calls           []*callBuilder
	byIndex         map[int]*callBuilder
	usage           *Usage
	finish          string
}

type callBuilder struct {
	id, name string
	args     strings.Builder
}

// Add takes one delta.
func (a *Accumulator) Add(d Delta) {
	a.text.WriteString(d.Text)
	a.reasoning.WriteString(d.Reasoning)
	for _, f := range d.ToolCalls {
		b := a.target(f)
		if b.id == "" {
			b.id = f.ID
		}
		if b.name == "" {
			b.name = f.Name
		}
		b.args.WriteString(f.Arguments)
	}
	if d.Usage != nil {
		a.usage = d.Usage
	}
	if d.FinishReason != "" {
		a.finish = d.FinishReason
	}
}

func (a *Accumulator) target(f ToolCallFragment) *callBuilder {
	if f.Index >= 0 {
		if b, ok := a.byIndex[f.Index]; ok {
			return b
		}
		if a.byIndex == nil {
			a.byIndex = map[int]*callBuilder{}
		}
		b := &callBuilder{}
		a.byIndex[f.Index] = b
		a.calls = append(a.calls, b)
		return b
	}
	var last *callBuilder
	if n := len(a.calls); n > 0 {
		last = a.calls[n-1]
	}
	startsNew := last == nil ||
		(f.ID != "" && last.id != "" && f.ID != last.id) ||
		(f.ID == "" && f.Name != "" && last.name != "")
	if startsNew {
		b := &callBuilder{}
		a.calls = append(a.calls, b)
		return b
	}
	return last
}

// Text is the text received so far.
func (a *Accumulator) Text() string { return a.text.String() }

// Turn returns what was received. Calls without an id get one
// ("call_<n>"), so that every call can be answered. Without a finish_reason
// the error is ErrIncomplete, and the Turn holds what arrived.
func (a *Accumulator) Turn() (Turn, error) {
	t := Turn{Text: a.text.String(), Reasoning: a.reasoning.String(), Usage: a.usage, FinishReason: a.finish}
	seen := map[string]bool{}
	for i, b := range a.calls {
		id := b.id
		if id == "" || seen[id] {
			id = fmt.Sprintf("call_%d", i)
		}
		seen[id] = true
		t.ToolCalls = append(t.ToolCalls, ToolCall{ID: id, Name: b.name, Arguments: b.args.String()})
	}
	if a.finish == "" {
		return t, ErrIncomplete
	}
	return t, nil
}

// silence tells Client.Silence how long the server has sent nothing: a
// model that stalls mid-answer shows more than "working…" until the
// stream's timeout. A nil *silence does nothing.
type silence struct {
	tell  func(time.Duration)
	mu    sync.Mutex
	last  time.Time // the last byte, or the request
	timer *time.Timer
	told  bool // a silence was told and not yet its end
	done  bool
}

func newSilence(tell func(time.Duration)) *silence {
	if tell == nil {
		return nil
	}
	s := &silence{tell: tell, last: time.Now()}
	s.timer = time.AfterFunc(SilenceAfter, s.fire)
	return s
}

func (s *silence) fire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.told = true
	s.tell(time.Since(s.last).Round(time.Second))
	s.timer.Reset(SilenceEvery)
}

// data: a byte came.
func (s *silence) data() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.last = time.Now()
	s.timer.Reset(SilenceAfter)
	if s.told {
		s.told = false
		s.tell(0)
	}
}

// stop: the stream ended; a silence told ends with it.
func (s *silence) stop() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	s.timer.Stop()
	if s.told {
		s.told = false
		s.tell(0)
	}
}
