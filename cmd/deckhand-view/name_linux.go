package main

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"deckhand/apps"
)

// Deckhand runs this file from a descriptor (see apps.OpenHelper), and the
// kernel names the process after the path it was given (/proc/self/fd/N:
// "N"): it is named again, for ps, top and Deckhand's tests. Init runs on
// the main thread, whose name is the process's.
func init() {
	name := append([]byte(apps.HelperName), 0)
	unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(&name[0])), 0, 0, 0)
}
