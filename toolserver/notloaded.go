package toolserver

import (
	"fmt"
	"path/filepath"
	"strings"

	"deckhand/tools"
)

// notOffered is a tool of the definitions that cannot run here: its file,
// and why; off when the person's settings keep it out (shell commands off).
type notOffered struct {
	file, why string
	off       bool
}

// NotLoaded is one definition the server does not offer now, and why: a
// definition file it rejected (one entry per problem), or a tool whose
// program cannot run here. It is what a person needs to fix it (the file,
// the key in it, the reason) and what the model is told when it calls the
// tool all the same.
type NotLoaded struct {
	// Tool is the tool's name; for a rejected file, which names no tool
	// the server could trust, the file's name without its extension (the
	// name a definition most often has).
	Tool   string
	File   string
	Path   string // the JSON path of the problem in the file ("$.command"); "" for a tool that cannot run
	Reason string
	// Kept: the file's previous good version is still in use (an edit
	// broke it while the server ran); its tool is offered as it was.
	Kept bool
	// Off: the person's settings keep the tool out (shell commands are
	// off), which is no mistake to fix.
	Off bool
}

// String is file: key "command": reason, the key left out when the
// problem is the whole file's.
func (n NotLoaded) String() string {
	key := strings.TrimPrefix(strings.TrimPrefix(n.Path, "$"), ".")
	if key == "" {
		return fmt.Sprintf("%s: %s", n.File, n.Reason)
	}
	return fmt.Sprintf("%s: key %q: %s", n.File, key, n.Reason)
}

// NotLoaded lists the definitions not offered now, by file then tool: the
// rejected files' problems, then the tools that cannot run here.
func (s *Server) NotLoaded() []NotLoaded {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []NotLoaded
	add := func(p Problem, kept bool) {
		name := strings.TrimSuffix(filepath.Base(p.File), filepath.Ext(p.File))
		out = append(out, NotLoaded{Tool: name, File: p.File, Path: p.Path, Reason: p.Reason, Kept: kept})
	}
	for _, p := range s.builtinBad {
		add(p, false)
	}
	for _, k := range sortedKeys(s.broken) {
		_, kept := s.user[k]
		for _, p := range s.broken[k] {
			add(p, kept)
		}
	}
	for _, p := range s.assembled {
		add(p, false)
	}
	for _, name := range sortedKeys(s.unavailable) {
		no := s.unavailable[name]
		out = append(out, NotLoaded{Tool: name, File: no.file, Reason: no.why, Off: no.off})
	}
	return out
}

// LeftOut is NotLoaded for the catalog (tools.Source.NotLoaded): each
// tool's name with its file, key and reason.
func (s *Server) LeftOut() []tools.Rejected {
	var out []tools.Rejected
	for _, n := range s.NotLoaded() {
		reason := n.String()
		if n.Kept {
			reason += " (its previous version is still offered)"
		}
		out = append(out, tools.Rejected{Name: n.Tool, Reason: reason, Off: n.Off})
	}
	return out
}
