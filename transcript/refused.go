package transcript

import "strings"

// PolicyRefused begins what the model (and the window) is told of a call
// Deckhand's capability policy refused before the gate
// (toolcall.PolicyRefusal). The transcript keeps only the output of a
// call, so this is how a tool card, or the quick prompt's line for it,
// knows it was refused rather than failed.
const PolicyRefused = "Refused by Deckhand's policy"

// RefusedByPolicy reports whether r is a call the policy refused.
func (r Row) RefusedByPolicy() bool {
	return r.State == Failed && strings.HasPrefix(r.Output, PolicyRefused)
}
