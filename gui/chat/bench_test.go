package chat

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"deckhand/transcript"
)

// benchView is the chat view with no actors behind it: the benchmarks
// drive it directly, as the bridge's frames would.
func benchView(b testing.TB) (u *testUI, drain func()) {
	b.Helper()
	u = newTestUI(b)
	return u, u.drain
}

// delta is the i-th piece of a long streamed answer: words, a line break
// now and then, a new paragraph every few lines.
func delta(i int) string {
	switch {
	case i%97 == 96:
		return "\n\n"
	case i%16 == 15:
		return "\n"
	}
	return "word "
}

// BenchmarkStreamDeltas appends 50,000 streamed deltas to one assistant
// message, drawing every delta as its own frame (the worst case: a frame
// carries many deltas when the model is fast), and compares the cost of the
// last 1,000 with that of the first 1,000. The goal is a ratio of at most
// 1.5: a delta costs the same however long the message already is.
func BenchmarkStreamDeltas(b *testing.B) {
	const total, window = 50_000, 1_000
	var first, last time.Duration
	var heapMB float64
	var rows int
	heap := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapInuse) / (1 << 20)
	}
	for b.Loop() {
		u, _ := benchView(b)
		before := heap()
		tr := transcript.New()
		tr.User("write a lot", time.Now())
		n, changed := tr.Changes()
		u.chat.Update(n, changed)
		var start time.Time
		for i := range total {
			if i == 0 || i == total-window {
				start = time.Now()
			}
			tr.Delta(delta(i), time.Now())
			n, changed := tr.Changes()
			u.chat.Update(n, changed)
			switch i {
			case window - 1:
				first += time.Since(start)
			case total - 1:
				last += time.Since(start)
			}
		}
		rows = tr.Len()
		heapMB = heap() - before
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N)/window, "µs/delta-first1k")
	b.ReportMetric(float64(last.Microseconds())/float64(b.N)/window, "µs/delta-last1k")
	b.ReportMetric(float64(last)/float64(first), "last/first")
	b.ReportMetric(heapMB, "heap-MB-growth")
	b.ReportMetric(float64(rows), "rows")
}

// sampleConversation is a transcript of messages exchanges: questions, answers
// of a few paragraphs with a code block now and then, and a tool card in
// every fourth exchange.
func sampleConversation(messages int) []transcript.Row {
	tr := transcript.New()
	at := time.Now()
	for i := range messages / 2 {
		tr.User(fmt.Sprintf("Question %d: how do I read the file number %d and count its lines?", i, i), at)
		if i%4 == 0 {
			args, _ := json.Marshal(map[string]any{"path": fmt.Sprintf("/home/me/notes/%d.txt", i)})
			id := fmt.Sprintf("call-%d", i)
			tr.ToolRequested(id, "fs.read_file", args)
			tr.ToolFinished(id, "fs.read_file", args, strings.Repeat("a line of the file\n", 5+i%20), false, false, 40*time.Millisecond)
		}
		answer := fmt.Sprintf("Here is answer %d. %s\n\nA second paragraph explains it further. %s",
			i, strings.Repeat("It has a few sentences of text that wrap over lines. ", 3), strings.Repeat("More words. ", 8))
		if i%3 == 0 {
			answer += "\n\n```go\nlines := strings.Count(string(data), \"\\n\")\nfmt.Println(lines)\n```\n\nThat is all."
		}
		tr.Assistant(answer, at)
		tr.Calls()
	}
	rows := make([]transcript.Row, tr.Len())
	for i := range rows {
		rows[i] = tr.Row(i)
	}
	return rows
}

// BenchmarkOpenConversation opens a conversation of 2,000 messages and
// scrolls it end to end, a screenful at a time; the baseline is the same
// for 200 messages, measured in the same run, so the ratios say how the
// cost grows with the conversation (10× the messages).
func BenchmarkOpenConversation(b *testing.B) {
	type result struct {
		open, scroll time.Duration
		screens      int
	}
	measure := func(messages int) result {
		rows := sampleConversation(messages)
		u, drain := benchView(b)
		start := time.Now()
		u.chat.Reset("c1", rows)
		drain()
		open := time.Since(start)

		start = time.Now()
		l := u.chat.List
		l.ScrollToTop()
		total := float32(0)
		for _, h := range u.chat.Heights {
			total += h
		}
		step := l.Size().Height
		screens := 0
		for y := float32(0); y < total; y += step {
			l.ScrollToOffset(y)
			drain()
			screens++
		}
		l.ScrollToBottom()
		drain()
		return result{open, time.Since(start), screens}
	}
	var small, large result
	for b.Loop() {
		s, l := measure(200), measure(2000)
		small.open += s.open
		small.scroll += s.scroll
		large.open += l.open
		large.scroll += l.scroll
		large.screens = l.screens
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(large.open), "ms-open-2000")
	b.ReportMetric(ms(large.scroll), "ms-scroll-2000")
	b.ReportMetric(ms(large.scroll)/float64(large.screens), "ms/screen")
	b.ReportMetric(float64(large.open)/float64(small.open), "open-2000/200")
	b.ReportMetric(float64(large.scroll)/float64(small.scroll), "scroll-2000/200")
}

// BenchmarkLongParagraph opens, scrolls and streams an answer of one
// 20,411-character paragraph (cut in ten rows, each drawn on from the
// last line of the one before: flow.go), against the same words in
// paragraphs of a sentence (no cut), measured in the same run: the
// ratios say what the paragraph's rows flowing as one text cost.
func BenchmarkLongParagraph(b *testing.B) {
	long := story(380)
	short := strings.ReplaceAll(long, "going. ", "going.\n\n") // a paragraph a sentence
	type result struct{ open, scroll, stream time.Duration }
	measure := func(text string) result {
		var r result
		tr := transcript.New()
		tr.User("a long story please", time.Now())
		tr.Assistant(text, time.Now())
		rows := make([]transcript.Row, tr.Len())
		for i := range rows {
			rows[i] = tr.Row(i)
		}
		u, drain := benchView(b)
		start := time.Now()
		u.chat.Reset("c1", rows)
		drain()
		r.open = time.Since(start)

		start = time.Now()
		l := u.chat.List
		var total float32
		for _, h := range u.chat.Heights {
			total += h
		}
		for y := float32(0); y < total; y += l.Size().Height / 2 {
			l.ScrollToOffset(y)
			drain()
		}
		r.scroll = time.Since(start)

		u.chat.Reset("c2", nil)
		drain()
		tr = transcript.New()
		tr.User("a long story please", time.Now())
		start = time.Now()
		for i := 0; i < len(text); i += 20 {
			tr.Delta(text[i:min(i+20, len(text))], time.Now())
			u.chat.Update(tr.Changes())
		}
		drain()
		r.stream = time.Since(start)
		return r
	}
	var l, s result
	for b.Loop() {
		ml, ms := measure(long), measure(short)
		l.open += ml.open
		l.scroll += ml.scroll
		l.stream += ml.stream
		s.open += ms.open
		s.scroll += ms.scroll
		s.stream += ms.stream
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(l.open), "ms-open")
	b.ReportMetric(ms(l.scroll), "ms-scroll")
	b.ReportMetric(ms(l.stream), "ms-stream")
	b.ReportMetric(float64(l.open)/float64(s.open), "open-long/short")
	b.ReportMetric(float64(l.scroll)/float64(s.scroll), "scroll-long/short")
	b.ReportMetric(float64(l.stream)/float64(s.stream), "stream-long/short")
}
