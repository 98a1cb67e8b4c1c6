// Package memtrim gives memory freed outside Go's heap back to the
// system. Fyne's GL driver and windowing code allocate with C's malloc,
// and glibc keeps what they free for reuse: the window's resident memory
// grew after every window opened and closed, though nothing was held.
//
// Trim is safe to call from any goroutine, at any time; it blocks while
// glibc walks its heap (milliseconds), so call it off the UI thread when the
// heap is large. Off Linux, or built without cgo, it does nothing.
package memtrim
