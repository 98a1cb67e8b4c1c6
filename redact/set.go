package redact

import "sync/atomic"

// Set is a set of secrets shared by goroutines that grows as servers and
// keys are added: every conversation and server removes its values from
// tool results. Safe for concurrent use; a nil *Set holds nothing.
type Set struct {
	v atomic.Pointer[Secrets]
}

// Add adds values to the set.
func (s *Set) Add(values ...string) {
	for {
		old := s.v.Load()
		var cur Secrets
		if old != nil {
			cur = *old
		}
		next := cur.With(values...)
		if s.v.CompareAndSwap(old, &next) {
			return
		}
	}
}

// Get returns the secrets in the set now.
func (s *Set) Get() Secrets {
	if s == nil {
		return Secrets{}
	}
	if p := s.v.Load(); p != nil {
		return *p
	}
	return Secrets{}
}
