package netwhy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// Real dial errors, wrapped as callers wrap them, read in plain words;
// other errors are left alone.
func TestWhy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, refused := net.DialTimeout("tcp", addr, time.Second)
	if why, ok := Why(fmt.Errorf("connecting: %w", refused)); !ok || !strings.Contains(why, "nothing is listening") {
		t.Errorf("refused: %q %v (%v)", why, ok, refused)
	}
	var r net.Resolver
	_, dnsErr := r.LookupHost(context.Background(), "no-such-host.invalid")
	if why, ok := Why(dnsErr); !ok || !strings.Contains(why, "does not resolve") {
		t.Errorf("dns: %q %v (%v)", why, ok, dnsErr)
	}
	if _, ok := Why(errors.New("401 Unauthorized")); ok {
		t.Error("an answer taken for a network failure")
	}
	if _, ok := Why(nil); ok {
		t.Error("nil")
	}
}
