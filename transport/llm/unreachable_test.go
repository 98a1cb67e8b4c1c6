package llm

import (
	"errors"
	"net"
	"strings"
	"testing"
)

// A model server that is down is said so in plain words, not as a raw
// "dial tcp … connection refused", and the network error stays underneath.
func TestUnreachableModelServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c := &Client{BaseURL: "http://" + addr + "/v1", APIKey: "sk-secret"}
	_, err = c.Stream(t.Context(), &Request{})
	var ue *UnreachableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "is not reachable: nothing is listening there (connection refused). Is it running?") {
		t.Fatalf("Stream = %v", err)
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		t.Errorf("the dial error is not underneath: %#v", err)
	}
	if strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("the key leaked: %v", err)
	}
	c.BaseURL = "http://no-such-host.invalid/v1"
	if _, err = c.Stream(t.Context(), &Request{}); !strings.Contains(err.Error(), `host name "no-such-host.invalid" does not resolve`) {
		t.Errorf("unknown host: %v", err)
	}
}
