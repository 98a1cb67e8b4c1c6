// Package sandbox confines the programs Deckhand starts for a model or a
// server: a command server, a CMD: line, a command of the built-in tools.
// It owns the enforcement; what a program may do is decided elsewhere
// (package policy turns the config into a Spec) and handed over as a Spec,
// allow-only: folders to read and to write, the network (all, none, or some
// hosts through the egress Proxy), session sockets granted by name, and
// what to hide inside what it shows.
//
// On Linux a confined program is started by Deckhand's own binary in a
// hidden helper mode, which builds new user, mount, PID, IPC and (unless
// the network is on) network namespaces, applies Landlock as a second
// wall, keeps the descriptors it inherited from the program and caps its
// processes and memory file systems (limits_linux.go), leaves the
// person's kernel keyring for a new anonymous one, installs a seccomp
// filter (seccomp_linux.go: the kernel's keyrings, io_uring, ptrace,
// namespaces from inside and the rest of Flatpak's and Docker's lists),
// and then becomes the program: Command starts one such
// program, a Runner keeps one sandbox for many short commands (each in a
// PID namespace of its own, killed with everything it started). On macOS
// a sandbox-exec profile is written instead (Profile); elsewhere programs
// run plain. Available says why the kernel cannot confine programs here
// (ErrUnavailable); a program meant to be confined then does not start,
// rather than run unconfined.
//
// Concurrency: a Spec is a plain value, to be left unchanged once handed
// over. A Runner and a Proxy are safe for concurrent use (Runner.Run may be
// called from many goroutines; Close ends whatever still runs). A Cmd
// belongs to the goroutine that starts and waits for it; its OnConnect
// callback is called from the proxy's goroutines. Available probes the
// kernel once per process and remembers the answer.
package sandbox
