// Command deckhand-view shows one MCP App's view (an HTML resource) in a
// WebKitGTK web view, in a window of its own, for Deckhand. Deckhand starts
// it beside its own binary and speaks to it in lines of JSON (apps.Frame):
// the first line on stdin says what to show; then the JSON-RPC messages
// for the view arrive on stdin and those the view posts leave on stdout.
// It exits when its window closes or its stdin does (Deckhand gone or the
// card closed).
//
// WebKit lives here, not in deckhand, so that deckhand's start and memory
// pay nothing for it until a view is opened (see the README).
//
// Who owns its state: GTK's main thread owns the window and the web view;
// one goroutine reads stdin and hands each frame to it, and one writes
// the frames the view sends (queued, so that a stalled reader never holds
// up the main thread) to stdout.
package main

/*
#cgo pkg-config: webkit2gtk-4.1 gtk+-3.0
#include <stdlib.h>
#include "view.h"
*/
import "C"

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"deckhand/apps"
)

func init() { runtime.LockOSThread() } // GTK's main loop runs on the main thread

// out carries frames to stdout; a full queue drops (counted and said), so
// a stalled reader never blocks GTK's main thread.
var out = make(chan apps.Frame, 256)

var dropped struct {
	sync.Mutex
	n int
}

func send(f apps.Frame) {
	select {
	case out <- f:
	default:
		dropped.Lock()
		dropped.n++
		dropped.Unlock()
	}
}

//export goViewMessage
func goViewMessage(data *C.char, n C.long) {
	if n > apps.MaxMessageBytes {
		send(apps.Frame{Event: apps.EventOversize, Detail: fmt.Sprint(int64(n))})
		return
	}
	send(apps.Frame{Message: C.GoStringN(data, C.int(n))})
}

//export goViewEvent
func goViewEvent(kind, detail *C.char) {
	d := C.GoString(detail)
	if len(d) > 500 {
		d = d[:500]
	}
	send(apps.Frame{Event: C.GoString(kind), Detail: d})
}

func main() {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		fail("reading the view to open: %v", err)
	}
	var first apps.Frame
	if err := json.Unmarshal(line, &first); err != nil || first.Open == nil {
		fail("the first line is not an open frame: %v", err)
	}
	o := first.Open
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 640, 480
	}
	done := make(chan struct{})
	go write(done)
	go read(in)
	cs := func(s string) *C.char { return C.CString(s) } // kept for the process's life
	title, html, csp := cs(o.Title), cs(o.HTML), cs(o.CSP)
	sandbox := C.int(0)
	if o.Sandbox {
		sandbox = 1
	}
	// Confined by Deckhand, the helper's network is its egress proxy,
	// whose address the sandbox put in the environment; with none, it
	// has no way out at all.
	proxy := ""
	if o.Confined {
		proxy = os.Getenv("http_proxy")
		if proxy == "" {
			proxy = "http://127.0.0.1:9" // nothing listens: every load fails
		}
	}
	cproxy := cs(proxy)
	if C.dv_run(title, html, csp, C.int(o.Width), C.int(o.Height), sandbox, cproxy) != 0 {
		fail("no display to open the view's window on")
	}
	C.free(unsafe.Pointer(title))
	close(out)
	<-done
}

// read passes Deckhand's frames to the view until stdin closes, then quits.
func read(in *bufio.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var f apps.Frame
		if json.Unmarshal(sc.Bytes(), &f) != nil {
			continue
		}
		switch {
		case f.Deliver != nil && json.Valid(f.Deliver):
			js := "window.__deckhandReceive(" + jsLiteral(f.Deliver) + ");"
			c := C.CString(js)
			C.dv_eval(c)
			C.free(unsafe.Pointer(c))
		case f.Resize != nil:
			C.dv_resize(C.int(f.Resize.Width), C.int(f.Resize.Height))
		case f.Raise:
			C.dv_raise()
		}
	}
	C.dv_quit()
}

// jsLiteral makes JSON safe to splice into a script: JSON is a JavaScript
// expression except that U+2028 and U+2029 ended lines in older engines.
func jsLiteral(j []byte) string {
	return strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`).Replace(string(j))
}

func write(done chan<- struct{}) {
	defer close(done)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	for f := range out {
		dropped.Lock()
		n := dropped.n
		dropped.n = 0
		dropped.Unlock()
		if n > 0 {
			enc.Encode(apps.Frame{Event: apps.EventDropped, Detail: fmt.Sprint(n)})
		}
		enc.Encode(f)
		if len(out) == 0 {
			w.Flush()
		}
	}
	w.Flush()
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "deckhand-view: "+format+"\n", args...)
	os.Exit(2)
}
