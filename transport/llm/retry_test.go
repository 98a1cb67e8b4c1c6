package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// answers is a RoundTripper that gives its answers in order, in memory (so
// that the request's timers run in a synctest bubble).
type answers []*http.Response

func (a *answers) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(*a) == 0 {
		return nil, errors.New("no answer left")
	}
	res := (*a)[0]
	*a = (*a)[1:]
	res.Request = r
	return res, nil
}

func answer(status int, header, body string) *http.Response {
	h := http.Header{"Content-Type": {"text/event-stream"}}
	if header != "" {
		k, v, _ := strings.Cut(header, ": ")
		h.Set(k, v)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

const okBody = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hel\"}}]}\n\n" +
	"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\n" +
	"data: [DONE]\n\n"

func TestStreamRetried(t *testing.T) {
	tests := []struct {
		name    string
		answers []*http.Response
		retries int
		waits   []time.Duration // told to waiting, in order
		wantErr string          // "" for the turn "hello"
	}{
		{
			name:    "a 503 passes",
			answers: []*http.Response{answer(503, "", "busy"), answer(200, "", okBody)},
			retries: 3,
			waits:   []time.Duration{time.Second},
		},
		{
			name:    "Retry-After is honoured",
			answers: []*http.Response{answer(429, "Retry-After: 7", "slow down"), answer(200, "", okBody)},
			retries: 3,
			waits:   []time.Duration{7 * time.Second},
		},
		{
			name:    "Retry-After is capped at a minute",
			answers: []*http.Response{answer(429, "Retry-After: 3600", ""), answer(200, "", okBody)},
			retries: 3,
			waits:   []time.Duration{time.Minute},
		},
		{
			name:    "waits grow",
			answers: []*http.Response{answer(500, "", ""), answer(502, "", ""), answer(503, "", ""), answer(200, "", okBody)},
			retries: 3,
			waits:   []time.Duration{time.Second, 2 * time.Second, 4 * time.Second},
		},
		{
			name:    "the retries run out",
			answers: []*http.Response{answer(503, "", ""), answer(503, "", ""), answer(503, "", "")},
			retries: 2,
			waits:   []time.Duration{time.Second, 2 * time.Second},
			wantErr: "model server: 503 Service Unavailable from POST http://model.test/v1/chat/completions; gave up after 3 tries",
		},
		{
			name:    "the retries run out after a Retry-After: given up, not to be retried",
			answers: []*http.Response{answer(429, "Retry-After: 5", "slow down"), answer(429, "Retry-After: 5", "slow down")},
			retries: 1,
			waits:   []time.Duration{5 * time.Second},
			wantErr: "model server: 429 Too Many Requests from POST http://model.test/v1/chat/completions: slow down; gave up after 2 tries",
		},
		{
			name:    "no retries: not given up",
			answers: []*http.Response{answer(429, "Retry-After: 5", "slow down")},
			retries: 0,
			wantErr: "model server: 429 Too Many Requests from POST http://model.test/v1/chat/completions: slow down (retry after 5s)",
		},
		{
			name:    "a 400 is not asked again",
			answers: []*http.Response{answer(400, "", "bad request"), answer(200, "", okBody)},
			retries: 3,
			wantErr: "model server: 400 Bad Request",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rt := answers(tt.answers)
				c := &Client{BaseURL: "http://model.test/v1", Model: "m", HTTPClient: &http.Client{Transport: &rt}}
				var waits []time.Duration
				start := time.Now()
				var tried []int
				s, err := c.StreamRetried(t.Context(), &Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}, Retries{
					Max: tt.retries,
					Waiting: func(r Retrying) {
						waits = append(waits, r.Wait)
						if want := (Retrying{Err: r.Err, Wait: r.Wait, Next: len(waits) + 1, Tries: tt.retries + 1}); r != want {
							t.Errorf("retry %d: told %+v, want %+v", len(waits), r, want)
						}
					},
					Trying: func(r Retrying) { tried = append(tried, r.Next) },
				})
				// Each wait's end is told, but for the last when the
				// retries ran out.
				var wantTried []int
				for i := range tt.waits {
					wantTried = append(wantTried, i+2)
				}
				if diff := cmp.Diff(wantTried, tried); diff != "" {
					t.Errorf("tries told (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.waits, waits); diff != "" {
					t.Errorf("waits (-want +got):\n%s", diff)
				}
				var total time.Duration
				for _, w := range tt.waits {
					total += w
				}
				if got := time.Since(start); got != total {
					t.Errorf("StreamRetried took %v, want the waits' %v", got, total)
				}
				if tt.wantErr != "" {
					if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
						t.Fatalf("StreamRetried() = %v, want %q", err, tt.wantErr)
					}
					if he := (*HTTPError)(nil); !errors.As(err, &he) {
						t.Errorf("StreamRetried() = %v, not an *HTTPError underneath", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("StreamRetried() = %v", err)
				}
				defer s.Close()
				var deltas []string
				turn, err := s.Turn(func(d Delta) { deltas = append(deltas, d.Text) })
				if err != nil || turn.Text != "hello" || turn.FinishReason != "stop" {
					t.Errorf("Turn() = %+v, %v; want hello, stop", turn, err)
				}
				if diff := cmp.Diff([]string{"hel", "lo"}, deltas); diff != "" {
					t.Errorf("deltas (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// Stop during a wait ends it at once, with the refusal.
func TestStreamRetriedStopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt := answers{answer(503, "Retry-After: 30", ""), answer(200, "", okBody)}
		c := &Client{BaseURL: "http://model.test/v1", Model: "m", HTTPClient: &http.Client{Transport: &rt}}
		ctx, cancel := context.WithCancel(t.Context())
		start := time.Now()
		_, err := c.StreamRetried(ctx, &Request{}, Retries{Max: 3, Waiting: func(Retrying) {
			time.AfterFunc(time.Second, cancel)
		}})
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != 503 {
			t.Errorf("StreamRetried() = %v, want the 503", err)
		}
		if got := time.Since(start); got != time.Second {
			t.Errorf("StreamRetried returned after %v, want 1s (at Stop)", got)
		}
	})
}

// Retry now: a signal during a wait that names the try waited for sends
// it at once, in the wait's place (one request at a time); a signal left
// from before the wait began, or naming another try (a click on a notice
// whose try has gone), is dropped, and the wait runs its course.
func TestStreamRetriedNow(t *testing.T) {
	tests := []struct {
		name   string
		before bool // signalled before StreamRetried, not during its wait
		try    int  // the try named by the signal during the wait
		want   time.Duration
	}{
		{name: "during the wait: the try goes at once", try: 2, want: 0},
		{name: "before the wait: dropped", before: true, want: 60 * time.Second},
		{name: "another try's: dropped", try: 1, want: 60 * time.Second},
		{name: "a later try's: dropped", try: 3, want: 60 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rt := answers{answer(429, "Retry-After: 60", "slow down"), answer(200, "", okBody)}
				c := &Client{BaseURL: "http://model.test/v1", Model: "m", HTTPClient: &http.Client{Transport: &rt}}
				now := make(chan int, 1)
				if tt.before {
					now <- 2
				}
				var tried []int
				start := time.Now()
				s, err := c.StreamRetried(t.Context(), &Request{}, Retries{Max: 2, Now: now,
					Waiting: func(Retrying) {
						if !tt.before {
							now <- tt.try
						}
					},
					Trying: func(r Retrying) { tried = append(tried, r.Next) },
				})
				if err != nil {
					t.Fatalf("StreamRetried() = %v, want the second answer", err)
				}
				defer s.Close()
				if got := time.Since(start); got != tt.want {
					t.Errorf("the second try went after %v, want %v", got, tt.want)
				}
				if diff := cmp.Diff([]int{2}, tried); diff != "" {
					t.Errorf("tries told (-want +got):\n%s", diff)
				}
				if len(rt) != 0 {
					t.Errorf("%d answers left, want both used", len(rt))
				}
			})
		})
	}
}
