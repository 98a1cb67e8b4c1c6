package transcript

import (
	"fmt"
	"strings"
	"time"

	"deckhand/clean"
	"deckhand/store"
)

// AnswerInfo is what an answer's header tells on hover: the model, the
// request's tokens in and out (~ when estimated), and how fast the answer
// came (output tokens over the time from its first text to its end; "all
// at once" when that took under 100 ms, too short to measure: a new user's
// short answer from a fast server showed tokens and no speed, as if the
// README's promise of one were not kept; none when it did not stream).
func AnswerInfo(model string, in, out int, estimated bool, from, to time.Time) string {
	var parts []string
	if model = clean.Line(model); model != "" {
		parts = append(parts, model)
	}
	if in+out > 0 {
		mark := ""
		if estimated {
			mark = "~"
		}
		parts = append(parts, fmt.Sprintf("%s%s in, %s%s out tokens", mark, store.Count(in), mark, store.Count(out)))
	}
	if d := to.Sub(from); out > 0 && !from.IsZero() && !to.Before(from) {
		if d >= 100*time.Millisecond {
			parts = append(parts, fmt.Sprintf("%.1f tokens/s", float64(out)/d.Seconds()))
		} else {
			parts = append(parts, "all at once")
		}
	}
	return strings.Join(parts, " · ")
}

// SetInfo gives the last answer's header its Info. With from zero, the
// answer's speed is counted from its header's time (its first text).
func (t *Transcript) SetInfo(model string, in, out int, estimated bool, from, to time.Time) {
	for i := len(t.rows) - 1; i >= 0; i-- {
		r := t.rows[i]
		if r.Kind == Header && r.Role == "user" {
			return
		}
		if r.Kind == Header && r.Role == "assistant" {
			if from.IsZero() {
				from = r.Time
				if i == t.header && !t.first.IsZero() {
					from = t.first // a continuation's own text
				}
			}
			r.Info = AnswerInfo(model, in, out, estimated, from, to)
			t.set(i, r)
			return
		}
	}
}
