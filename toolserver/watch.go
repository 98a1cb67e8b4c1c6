package toolserver

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// debounce is how long the watcher waits for a burst of changes (an
// editor's save: write a temporary file, rename it over) to settle.
const debounce = 250 * time.Millisecond

// Watch reloads the definitions of opts.Dir when its files change, until
// ctx ends: the folder is watched (fsnotify is not recursive, and editors
// save by rename), changes are debounced, and a file that no longer parses
// keeps its previous good version (the reason is logged).
func (s *Server) Watch(ctx context.Context) error {
	dir := s.opts.Dir
	if dir == "" {
		return errors.New("no definitions folder to watch")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return err
	}
	// What changed between New and now (the watch was not yet there).
	s.Reload()
	changed := map[string]bool{}
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			name := filepath.Base(ev.Name)
			if !IsDefinitionFile(name) {
				continue
			}
			changed[ev.Name] = true
			if timer == nil {
				timer = time.NewTimer(debounce)
			} else {
				timer.Reset(debounce)
			}
			fire = timer.C
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.log.Warn("watching the tool definitions", "dir", dir, "err", err)
		case <-fire:
			fire = nil
			paths := make([]string, 0, len(changed))
			for p := range changed {
				paths = append(paths, p)
			}
			clear(changed)
			s.Reload(paths...)
		}
	}
}

// Reload reads the named definition files again (every file of the folder
// when none is named) and updates the tools. A file that fails keeps its
// last good version; a file removed takes its tools away.
func (s *Server) Reload(paths ...string) Event {
	dir := s.opts.Dir
	if dir == "" {
		return Event{}
	}
	if len(paths) == 0 {
		entries, _ := os.ReadDir(dir)
		seen := map[string]bool{}
		for _, e := range entries {
			if !e.IsDir() && IsDefinitionFile(e.Name()) {
				p := filepath.Join(dir, e.Name())
				paths = append(paths, p)
				seen[p] = true
			}
		}
		s.mu.Lock()
		for p := range s.user {
			if !seen[p] {
				paths = append(paths, p)
			}
		}
		for p := range s.broken {
			if !seen[p] {
				paths = append(paths, p)
			}
		}
		s.mu.Unlock()
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		s.mu.Lock()
		switch {
		case errors.Is(err, fs.ErrNotExist) || err == nil && st.IsDir():
			if _, ok := s.user[p]; ok {
				s.log.Info("tool definition removed", "file", p)
			}
			delete(s.user, p)
			delete(s.broken, p)
		default:
			f, perr := ParseFile(p)
			if perr != nil {
				s.broken[p] = problemsOf(p, perr)
				kept := "no earlier version to keep"
				if _, ok := s.user[p]; ok {
					kept = "its previous version stays in use"
				}
				for _, pr := range s.broken[p] {
					s.log.Warn("tool definition rejected: "+kept, "file", pr.File, "path", pr.Path, "reason", pr.Reason)
				}
			} else {
				delete(s.broken, p)
				s.user[p] = f
			}
		}
		s.mu.Unlock()
	}
	ev := s.apply()
	if len(ev.Added)+len(ev.Removed)+len(ev.Changed) > 0 {
		s.log.Info("tools reloaded", "added", ev.Added, "removed", ev.Removed, "changed", ev.Changed)
	}
	return ev
}
