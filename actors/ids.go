package actors

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// newID returns prefix-TTTTTTTTTTTT-RRRRRRRR: the time in milliseconds (hex,
// so that ids sort by creation) and 32 random bits.
func newID(prefix string) string {
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%s-%012x-%s", prefix, time.Now().UnixMilli(), hex.EncodeToString(r[:]))
}

// NewConversationID makes the id of a new conversation (and its session in
// the log), for a user actor that names it before it starts.
func NewConversationID() string { return newID("conv") }
