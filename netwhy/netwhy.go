// Package netwhy says in plain words why a connection could not be made:
// "nothing is listening there (connection refused)" rather than
// "dial tcp 127.0.0.1:9: connect: connection refused". The model client
// and the MCP servers' states both use it.
//
// Its functions are pure and safe anywhere.
package netwhy

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// Why is the reason err could not connect, in plain words, and false when
// err is something else (an answer that was an error, a cancellation).
func Why(err error) (string, bool) {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case err == nil:
		return "", false
	case errors.Is(err, syscall.ECONNREFUSED):
		return "nothing is listening there (connection refused)", true
	case errors.As(err, &dns):
		return fmt.Sprintf("its host name %q does not resolve", dns.Name), true
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return "no route to its host", true
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout():
		return "its host did not answer in time", true
	}
	return "", false
}
