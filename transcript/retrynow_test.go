package transcript

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A retry's notice offers Retry now while its run waits, and no longer
// once the try goes (saying when), the run ends, or another retry or the
// failure takes its place with its own.
func TestRetryNowOffered(t *testing.T) {
	type notice struct {
		Text, Action string
		Try          int
	}
	tests := []struct {
		name string
		then func(tr *Transcript)
		want []notice
	}{
		{name: "waiting", then: func(*Transcript) {},
			want: []notice{{"429; trying again in 1m0s", ActionRetryNow, 2}}},
		{name: "the try went", then: func(tr *Transcript) { tr.Retried("r1", "429; tried again at 01:23:50") },
			want: []notice{{"429; tried again at 01:23:50", "", 0}}},
		{name: "another run's try", then: func(tr *Transcript) { tr.Retried("r0", "429; tried again at 01:23:50") },
			want: []notice{{"429; trying again in 1m0s", ActionRetryNow, 2}}},
		{name: "stopped while it waited", then: func(tr *Transcript) {
			tr.Retried("r1", "")
			tr.NoteAction("Stopped.", false, ActionContinue)
		}, want: []notice{{"429; trying again in 1m0s", "", 0}, {"Stopped.", ActionContinue, 0}}},
		{name: "the next retry", then: func(tr *Transcript) { tr.RetryWaiting("r1", "503; trying again in 2s", 3) },
			want: []notice{{"503; trying again in 2s", ActionRetryNow, 3}}},
		{name: "failed", then: func(tr *Transcript) { tr.NoteAction("429", true, ActionRetry) },
			want: []notice{{"429", ActionRetry, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New()
			tr.StartRun("r1")
			tr.User("hello", time.Now())
			tr.RetryWaiting("r1", "429; trying again in 1m0s", 2)
			tt.then(tr)
			var got []notice
			for _, r := range rows(tr) {
				if r.Kind == Notice {
					got = append(got, notice{r.Text, r.Action, r.Try})
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
		})
	}
}
