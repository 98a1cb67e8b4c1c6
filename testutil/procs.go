package testutil

import (
	"path/filepath"

	"deckhand/procstat"
)

// Proc is one process as /proc/PID/stat tells it.
type Proc struct {
	PID, PPID, PGID int
	Name            string // comm: at most 15 bytes of the program's name
	State           string // "R", "S", "Z" (a zombie) …
}

// Processes lists the processes this one can see in /proc (those that end
// while it reads are left out).
func Processes() []Proc {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var procs []Proc
	for _, path := range stats {
		st, err := procstat.ReadFile(path)
		if err != nil || len(st.Fields) < 3 {
			continue
		}
		procs = append(procs, Proc{PID: st.PID, PPID: int(st.Int(procstat.PPID)), PGID: int(st.Int(procstat.PGRP)),
			Name: st.Comm, State: st.Field(procstat.State)})
	}
	return procs
}
