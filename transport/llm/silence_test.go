package llm

import (
	"io"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A model that goes silent mid-answer is said to: after SilenceAfter with
// no byte, Silence hears how long, again every SilenceEvery, and 0 when a
// byte comes again; a silence at the end is ended by Close. (New-user pass
// 13, F6: two minutes of "working…" with no sign of the stall.) Time is
// synctest's: no timed assertion.
func TestSilenceIsTold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr, pw := io.Pipe()
		rt := answers{{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: pr}}
		var mu sync.Mutex
		type told struct {
			At     time.Duration // since the request
			Silent time.Duration
		}
		var got []told
		start := time.Now()
		c := &Client{BaseURL: "http://model.test/v1", Model: "m", HTTPClient: &http.Client{Transport: &rt},
			Silence: func(d time.Duration) {
				mu.Lock()
				got = append(got, told{time.Since(start), d})
				mu.Unlock()
			}}
		s, err := c.Stream(t.Context(), &Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan string)
		go func() {
			turn, _ := s.Turn(nil)
			done <- turn.Text
		}()
		chunk := func(text string) {
			io.WriteString(pw, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\""+text+"\"}}]}\n\n")
		}
		time.Sleep(5 * time.Second)
		chunk("The answer begins") // at 5 s
		time.Sleep(45 * time.Second)
		chunk(" and goes on") // at 50 s: 45 s of silence
		time.Sleep(15 * time.Second)
		chunk(" to its end.") // at 65 s: 15 s, not told
		time.Sleep(25 * time.Second)
		pw.Close() // at 90 s: a silence of 25 s, told at 20 s, ends with the stream
		if text := <-done; text != "The answer begins and goes on to its end." {
			t.Errorf("the turn: %q", text)
		}
		s.Close()
		synctest.Wait()
		want := []told{
			{25 * time.Second, 20 * time.Second}, {35 * time.Second, 30 * time.Second}, {45 * time.Second, 40 * time.Second},
			{50 * time.Second, 0},
			{85 * time.Second, 20 * time.Second},
			{90 * time.Second, 0},
		}
		mu.Lock()
		defer mu.Unlock()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Silence was told (-want +got):\n%s", diff)
		}
	})
}
