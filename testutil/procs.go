package testutil

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces and
		// parentheses, so split after its last closing parenthesis.
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 3 {
			continue
		}
		p := Proc{Name: s[open+1 : close], State: f[0]}
		p.PID, _ = strconv.Atoi(strings.TrimSpace(s[:open]))
		p.PPID, _ = strconv.Atoi(f[1])
		p.PGID, _ = strconv.Atoi(f[2])
		procs = append(procs, p)
	}
	return procs
}
