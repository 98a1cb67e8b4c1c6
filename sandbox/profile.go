package sandbox

import (
	"fmt"
	"strings"
)

// Profile is the sandbox-exec (Seatbelt) profile of s, for macOS: deny by
// default; read and execute the Read folders, read and write the Write
// folders; the process calls a program needs (fork, exec, signals within
// the sandbox, sysctl reads, Mach lookups); the network only when
// s.Network. Paths are quoted for the profile language.
func Profile(s *Spec) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-fork)\n(allow process-exec)\n(allow signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n(allow iokit-open)\n")
	// The root folder itself must be readable to resolve any path.
	b.WriteString("(allow file-read-metadata (literal \"/\"))\n")
	if len(s.Read) > 0 {
		b.WriteString("(allow file-read* process-exec")
		for _, p := range s.Read {
			fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(p))
		}
		b.WriteString(")\n")
	}
	if len(s.Write) > 0 {
		b.WriteString("(allow file-read* file-write*")
		for _, p := range s.Write {
			fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(p))
		}
		b.WriteString(")\n")
	}
	if s.Network {
		b.WriteString("(allow network*)\n")
	} else {
		// Local name resolution and the system's own sockets only.
		b.WriteString("(allow network-outbound (literal \"/private/var/run/mDNSResponder\"))\n")
	}
	return b.String()
}

// sbplString quotes s as a string of the profile language: backslashes and
// double quotes escaped, control characters written in hex.
func sbplString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
