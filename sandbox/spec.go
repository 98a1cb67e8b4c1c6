// Package sandbox confines what Deckhand starts (stdio servers, shell
// commands) with the kernel: on Linux, Landlock, applied by a supervisor
// (Deckhand's own binary in a hidden mode) to itself before it starts the
// program, so that the program and everything it starts inherit the
// confinement while Deckhand stays free. On macOS the same supervisor would
// run the program under sandbox-exec with a profile (profile_darwin.go
// writes it; it is not tested on a Mac).
//
// A Spec is allow-only: what is not named is denied. Landlock filters TCP
// by port, not by host, and (before ABI 10) not UDP at all.
package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// specEnv carries the spec from Deckhand to the supervisor, which removes
// it from the environment before the program starts.
const specEnv = "DECKHAND_SANDBOX"

// Spec is what a confined program may do.
type Spec struct {
	// Read are folders (and files) it may read and execute.
	Read []string `json:"read,omitempty"`
	// Write are folders (and files) it may read, write, create and delete in.
	Write []string `json:"write,omitempty"`
	// Network: TCP allowed. When false, every TCP connect and bind is denied
	// (Landlock ABI 4 and later).
	Network bool `json:"network"`
}

// noLandlockEnv, set to 1, makes this process act as if the kernel had no
// Landlock: for tests of what a person without it meets. It can only make
// sandboxed programs fail to start, never run them unconfined.
const noLandlockEnv = "DECKHAND_TEST_NO_LANDLOCK"

// ErrUnavailable means the kernel cannot confine a program here.
var ErrUnavailable = errors.New("the kernel offers no Landlock sandbox here")

// Check reports a spec that cannot be applied: paths must be absolute.
func (s *Spec) Check() error {
	for _, p := range slices.Concat(s.Read, s.Write) {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("sandbox path %q is not absolute", p)
		}
	}
	return nil
}

func (s *Spec) encode() string {
	data, _ := json.Marshal(s)
	return string(data)
}

func decodeSpec(raw string) (*Spec, error) {
	var s Spec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return nil, fmt.Errorf("reading the sandbox spec: %w", err)
	}
	return &s, s.Check()
}

// Describe says in a line what the spec allows, for logs and `deckhand
// policy`.
func (s *Spec) Describe() string {
	net := "network on"
	if !s.Network {
		net = "no network"
	}
	return fmt.Sprintf("reads %s; writes %s; %s", strings.Join(s.Read, ", "), strings.Join(s.Write, ", "), net)
}
