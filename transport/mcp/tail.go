package mcp

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"

	"deckhand/clean"
)

// tailBuffer is a child's stderr: it keeps the last lines written and the
// first lines that say error, for error reasons (Reason), and hands each
// complete line to a callback, for the log.
type tailBuffer struct {
	max    int
	onLine func(string)

	mu      sync.Mutex
	last    []stderrLine // the last lines, up to max bytes
	size    int          // bytes in last
	causes  []stderrLine // the first lines that say error, up to maxCauses
	final   stderrLine   // the last line that says error
	partial []byte       // a line not yet ended
	seen    int          // lines seen
}

// stderrLine is a line of stderr and its place in it.
type stderrLine struct {
	n    int
	text string
}

// maxCauses is how many lines that say error a tailBuffer keeps, whatever
// comes after them: npm says why it failed first, then notices and a log
// path, which alone would fill the tail.
const maxCauses = 16

func newTailBuffer(max int, onLine func(string)) *tailBuffer {
	return &tailBuffer{max: max, onLine: onLine}
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.partial = append(t.partial, p...)
	var lines []string
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		line := string(bytes.TrimRight(t.partial[:i], "\r"))
		t.partial = t.partial[i+1:]
		lines = append(lines, line)
		t.keep(line)
	}
	if len(t.partial) > t.max {
		t.partial = t.partial[len(t.partial)-t.max:]
	}
	t.mu.Unlock()
	if t.onLine != nil {
		for _, l := range lines {
			t.onLine(l)
		}
	}
	return len(p), nil
}

// keep records a complete line (under mu).
func (t *tailBuffer) keep(line string) {
	t.seen++
	if len(line) > t.max {
		line = line[len(line)-t.max:]
	}
	l := stderrLine{n: t.seen, text: line}
	t.last = append(t.last, l)
	t.size += len(line)
	for t.size > t.max && len(t.last) > 1 {
		t.size -= len(t.last[0].text)
		t.last = t.last[1:]
	}
	if text := cleanLine(line); isCause(text) {
		t.final = stderrLine{n: l.n, text: text}
		if len(t.causes) < maxCauses {
			t.causes = append(t.causes, t.final)
		}
	}
}

// ReadFrom copies a child's stderr pipe in with a small buffer: exec's
// copy would hold 32 KiB for every server for its life (3 MiB of a start
// with 100 servers, live), and stderr is a trickle.
func (t *tailBuffer) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, 512)
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			t.Write(buf[:k])
			n += int64(k)
		}
		switch {
		case errors.Is(err, io.EOF):
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// maxReasonLine bounds each line of a Reason, in bytes.
const maxReasonLine = 512

// Reason is what the child wrote on stderr that most likely says why it
// failed, in up to n lines joined with " | ", cleaned (it is untrusted) and
// each cut to maxReasonLine bytes. The lines that say error win over the
// tail: the first n-1 of them (npm's "npm error code E404" and the
// request that failed) and the last (a Python traceback's exception), not
// the notices and log paths that may follow them. Without such lines it is
// the last n lines.
func (t *tailBuffer) Reason(n int) string {
	if t == nil || n <= 0 {
		return ""
	}
	t.mu.Lock()
	causes, final := append([]stderrLine(nil), t.causes...), t.final
	last := append([]stderrLine(nil), t.last...)
	if tail := strings.TrimSpace(string(t.partial)); tail != "" {
		last = append(last, stderrLine{n: t.seen + 1, text: tail})
		if text := cleanLine(tail); isCause(text) {
			final = stderrLine{n: t.seen + 1, text: text}
		}
	}
	t.mu.Unlock()
	if final.n > 0 && (len(causes) == 0 || causes[len(causes)-1].n < final.n) {
		causes = append(causes, final)
	}

	var picked []string
	add := func(text string) bool {
		for _, p := range picked {
			// npm repeats a bare "npm error 404" between its lines.
			if strings.HasPrefix(p, text) {
				return false
			}
		}
		picked = append(picked, text)
		return true
	}
	var useful []string
	for _, c := range causes {
		useful = append(useful, c.text)
	}
	if len(useful) > 0 {
		for _, c := range useful[:len(useful)-1] {
			if len(picked) == n-1 {
				break
			}
			add(c)
		}
		if !add(useful[len(useful)-1]) && len(picked) < n {
			// The last was a repeat: the next one before it that is not.
			for i := len(useful) - 2; i >= 0 && len(picked) < n; i-- {
				if add(useful[i]) {
					break
				}
			}
		}
		if len(picked) > n {
			picked = picked[:n]
		}
	} else {
		for i := len(last) - 1; i >= 0 && len(picked) < n; i-- {
			if text := cleanLine(last[i].text); text != "" {
				picked = append(picked, text)
			}
		}
		for i, j := 0, len(picked)-1; i < j; i, j = i+1, j-1 {
			picked[i], picked[j] = picked[j], picked[i]
		}
	}
	for i, p := range picked {
		picked[i] = cut(p, maxReasonLine)
	}
	return strings.Join(picked, " | ")
}

// cleanLine is a line of stderr as it may be shown: escape sequences and
// control characters gone, spaces trimmed.
func cleanLine(s string) string { return strings.TrimSpace(clean.Line(s)) }

var (
	// causeRE matches a line that says why a program failed: an error or
	// exception (npm's "npm error", "ERR!", "Error:", Python's
	// "ModuleNotFoundError:", Java's "…Exception"), a Go panic, a shell's
	// "command not found", an errno code (ENOENT, EADDRINUSE, E404).
	causeRE = regexp.MustCompile(`(?i:\berr(or)?\b|\bexception\b|\bfatal\b|\bfailed\b|command not found|no such file or directory|permission denied|cannot find module)|ERR!|\w(Error|Exception)\b|^panic:|: not found$|\bE(NOENT|ACCES|PERM|ADDRINUSE|CONNREFUSED|NOTFOUND|\d{3})\b`)
	// noiseRE matches lines that say error but never why: npm's pointer to
	// a log file (inside the sandbox, so not there to read), stack frames.
	noiseRE = regexp.MustCompile(`(?i)a complete log of this run can be found in|^npm (notice|warn)\b|^at\s|^File "|^throw \w+;$|^goroutine \d+ \[|\.go:\d+( \+0x[0-9a-f]+)?$`)
)

func isCause(line string) bool { return line != "" && causeRE.MatchString(line) && !isNoise(line) }

func isNoise(line string) bool { return noiseRE.MatchString(line) }
