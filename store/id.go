package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// NewID returns an id for a row of the log (a conversation, run, event,
// grant, question) as prefix-TTTTTTTTTTTT-RRRRRRRR: the time in milliseconds (hex,
// so that ids sort by creation) and 32 random bits.
func NewID(prefix string) string {
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%s-%012x-%s", prefix, time.Now().UnixMilli(), hex.EncodeToString(r[:]))
}
