package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// streamBody is n OpenAI chunks of a few characters each, as a real server
// streams an answer, then a finish and [DONE].
func streamBody(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-A1\",\"object\":\"chat.completion.chunk\",\"created\":1731000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok%d \"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n", i)
	}
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkStreamParse reads the same SSE bytes three ways and reports
// deltas per second of each, with ratios against the baselines:
//
//	raw-lines: a bufio.Scanner line loop that only finds the data lines (the
//	           floor: no JSON at all)
//	raw-json:  the same loop, decoding each data line into the chunk type
//	deckhand:  Stream.Next (r3labs' event reader, field parsing, decoding)
//	           and the Accumulator
func BenchmarkStreamParse(b *testing.B) {
	const n = 5000
	body := streamBody(n)
	var tLines, tJSON, tOurs time.Duration
	rounds := 0
	for b.Loop() {
		t0 := time.Now()
		if got := rawLines(body); got != n+1 {
			b.Fatalf("raw loop saw %d data lines", got)
		}
		t1 := time.Now()
		if got := rawJSON(body); got != n+1 {
			b.Fatalf("raw JSON loop saw %d chunks", got)
		}
		t2 := time.Now()
		if got := ours(body); got != n+1 {
			b.Fatalf("deckhand saw %d deltas", got)
		}
		t3 := time.Now()
		tLines += t1.Sub(t0)
		tJSON += t2.Sub(t1)
		tOurs += t3.Sub(t2)
		rounds++
	}
	deltas := float64(rounds * (n + 1))
	b.ReportMetric(deltas/tLines.Seconds(), "raw-lines-deltas/s")
	b.ReportMetric(deltas/tJSON.Seconds(), "raw-json-deltas/s")
	b.ReportMetric(deltas/tOurs.Seconds(), "deckhand-deltas/s")
	b.ReportMetric(tLines.Seconds()/tOurs.Seconds(), "ratio-vs-lines")
	b.ReportMetric(tJSON.Seconds()/tOurs.Seconds(), "ratio-vs-json")
	b.ReportMetric(0, "ns/op")
}

func rawLines(body []byte) int {
	sc := bufio.NewScanner(bytes.NewReader(body))
	n := 0
	for sc.Scan() {
		if line := sc.Bytes(); bytes.HasPrefix(line, []byte("data: ")) && !bytes.Equal(line[6:], []byte("[DONE]")) {
			n++
		}
	}
	return n
}

func rawJSON(body []byte) int {
	sc := bufio.NewScanner(bytes.NewReader(body))
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data: ")) || bytes.Equal(line[6:], []byte("[DONE]")) {
			continue
		}
		var c chunk
		if json.Unmarshal(line[6:], &c) == nil {
			n++
		}
	}
	return n
}

func ours(body []byte) int {
	s := &Stream{client: &Client{}, body: io.NopCloser(bytes.NewReader(body)), ctx: context.Background(), cancel: func(error) {}}
	s.watchdog = time.NewTimer(time.Hour)
	defer s.watchdog.Stop()
	s.events = newEventReader(bytes.NewReader(body))
	var acc Accumulator
	n := 0
	for {
		d, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			panic(err)
		}
		acc.Add(d)
		n++
	}
	if t, err := acc.Turn(); err != nil || !strings.HasPrefix(t.Text, "tok0 ") {
		panic(fmt.Sprint(err))
	}
	return n
}
