//go:build linux && cgo

package memtrim

/*
#include <malloc.h>
*/
import "C"

// Trim gives the C heap's free memory back to the system (glibc's
// malloc_trim): the GL driver and the windowing code allocate outside Go's
// heap, and glibc keeps what they free for reuse, so without it the
// window's resident memory only grows after a window or a big redraw.
func Trim() { C.malloc_trim(0) }

// Stats is what the C heap holds for the program (in use, glibc's
// malloc'd blocks and its mmapped ones) and what it holds free for reuse,
// in bytes, over all its arenas (mallinfo2).
func Stats() (inUse, free uint64) {
	m := C.mallinfo2()
	return uint64(m.uordblks) + uint64(m.hblkhd), uint64(m.fordblks)
}
