// Package procstat reads a Linux process's /proc/PID/stat: its pid, its
// command name in parentheses (which may hold spaces and parentheses, so
// the fields are those after the last ')'), then the fields after it. It
// keeps no state: its functions are safe for concurrent use.
package procstat

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// Indexes into Stat.Fields (proc(5) numbers the line's fields from 1: the
// first after the name is its third).
const (
	State     = 0  // "R", "S", "Z" (a zombie) …
	PPID      = 1  // the parent's pid
	PGRP      = 2  // the process group
	UTime     = 11 // user time, in clock ticks
	STime     = 12 // system time, in clock ticks
	StartTime = 19 // the start, in clock ticks since boot
)

// Stat is one process's /proc/PID/stat.
type Stat struct {
	PID    int
	Comm   string   // the command name: at most 15 bytes of the program's name
	Fields []string // the fields after the name, indexed by State, PPID …
}

// ErrMalformed is a stat line without its name in parentheses.
var ErrMalformed = errors.New("no command name in parentheses")

// Parse reads one stat line.
func Parse(line []byte) (Stat, error) {
	open, close := bytes.IndexByte(line, '('), bytes.LastIndexByte(line, ')')
	if open < 0 || close < open {
		return Stat{}, ErrMalformed
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(line[:open])))
	if err != nil {
		return Stat{}, fmt.Errorf("the pid: %w", err)
	}
	st := Stat{PID: pid, Comm: string(line[open+1 : close])}
	for _, f := range bytes.Fields(line[close+1:]) {
		st.Fields = append(st.Fields, string(f))
	}
	return st, nil
}

// Read reads the stat of process pid.
func Read(pid int) (Stat, error) {
	return ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
}

// ReadFile reads a stat file (/proc/PID/stat) by its path.
func ReadFile(path string) (Stat, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Stat{}, err
	}
	st, err := Parse(b)
	if err != nil {
		return Stat{}, fmt.Errorf("reading %s: %w", path, err)
	}
	return st, nil
}

// Field is field i (State, PPID …), or "" where the line has none.
func (s Stat) Field(i int) string {
	if i < 0 || i >= len(s.Fields) {
		return ""
	}
	return s.Fields[i]
}

// Int is field i as a number, or 0 where it is missing or not one.
func (s Stat) Int(i int) int64 {
	n, _ := strconv.ParseInt(s.Field(i), 10, 64)
	return n
}
