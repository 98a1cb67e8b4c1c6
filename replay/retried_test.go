package replay

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/store"
)

// A retry's notice whose try went is read back as the person last saw it:
// "tried again at", in the announcement's place, once per try; a notice
// marked tried with no retry's notice before it stands on its own.
func TestRetryNoticeTried(t *testing.T) {
	tests := []struct {
		name string
		log  []string
		want []string // the run's notices
	}{
		{
			name: "two tries",
			log: []string{
				store.KindNotice, `{"text":"429; trying again in 1m0s (try 2 of 3, at 10:01:00)","retry":true}`,
				store.KindNotice, `{"text":"429; tried again at 10:00:03 (try 2 of 3)","retry":true,"tried":true}`,
				store.KindNotice, `{"text":"503; trying again in 2s (try 3 of 3, at 10:00:05)","retry":true}`,
				store.KindNotice, `{"text":"503; tried again at 10:00:05 (try 3 of 3)","retry":true,"tried":true}`,
			},
			want: []string{"429; tried again at 10:00:03 (try 2 of 3)", "503; tried again at 10:00:05 (try 3 of 3)"},
		},
		{
			name: "stopped while it waited",
			log:  []string{store.KindNotice, `{"text":"429; trying again in 1m0s (try 2 of 3, at 10:01:00)","retry":true}`},
			want: []string{"429; trying again in 1m0s (try 2 of 3, at 10:01:00)"},
		},
		{
			name: "after a note that is no retry's",
			log: []string{
				store.KindNotice, `{"text":"cut off at the output limit"}`,
				store.KindNotice, `{"text":"429; tried again at 10:00:03 (try 2 of 3)","retry":true,"tried":true}`,
			},
			want: []string{"cut off at the output limit", "429; tried again at 10:00:03 (try 2 of 3)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Read(events(append([]string{store.KindRunStarted, `{"text":"go"}`}, tt.log...)...))
			var got []string
			for _, st := range s.Runs[0].Steps {
				if st.Notice != nil {
					got = append(got, st.Notice.Text)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
		})
	}
}
