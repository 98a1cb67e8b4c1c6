package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os/exec"
	"regexp"
	"strings"

	"deckhand/sandbox"
)

// ErrClosed is the cause of calls cut short because the connection was closed
// on purpose.
var ErrClosed = errors.New("connection closed")

// HTTPError is an HTTP response that refused a request.
type HTTPError struct {
	Method string
	URL    string // credentials redacted
	Status int
	Body   string // an excerpt, whitespace collapsed
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.URL, e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// ExitError says that a server's process ended, how, and what it wrote to
// stderr that says why.
type ExitError struct {
	Command string
	Status  string // "exit status 1", "signal: killed"
	Stderr  string // its lines that say error, else its last ones; cleaned; or ""
	// Sandboxed: it ran in Deckhand's sandbox, which shows it only the
	// folders its policy grants.
	Sandboxed bool
}

// unreadableRE matches what a program writes when it could not find or
// open a file or module: an errno (node's ENOENT, EACCES), node's module
// errors, the C library's messages, Python's ModuleNotFoundError, the
// dynamic loader's. Not EPERM: the sandbox's seccomp filter answers it to
// the system calls it refuses, which granting a folder does not change.
var unreadableRE = regexp.MustCompile(`\bE(NOENT|ACCES)\b|\bERR_MODULE_NOT_FOUND\b|\bMODULE_NOT_FOUND\b|ModuleNotFoundError|(?i:cannot find (module|package)|no such file or directory|permission denied|cannot open shared object file)`)

// MayBeSandbox reports whether the process ran sandboxed and what it wrote
// says it could not find or open a file or module: one the sandbox hides
// from it, or one really missing, which only the person can tell apart.
func (e *ExitError) MayBeSandbox() bool {
	return e.Sandboxed && unreadableRE.MatchString(e.Stderr)
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("process %s exited (%s)", e.Command, e.Status)
	if e.Stderr != "" {
		msg += "; stderr: " + e.Stderr
	}
	return msg
}

// Failure classifies why a connection attempt failed, so that callers can
// give advice without reading error text.
type Failure string

const (
	FailureNone        Failure = ""
	FailureNotFound    Failure = "not_found"   // the command does not exist
	FailureAuth        Failure = "auth"        // 401/403, or the token's variable is unset
	FailureUnreachable Failure = "unreachable" // nothing listens there, or no such host
	FailureHTTP        Failure = "http"        // another HTTP refusal (404, 405, 5xx)
	FailureTimeout     Failure = "timeout"     // no answer in time
	FailureExited      Failure = "exited"      // the process ended
	FailureProtocol    Failure = "protocol"    // it answered, but not with MCP
	FailureSignIn      Failure = "sign_in"     // the server wants the person to sign in (OAuth)
	FailureConfig      Failure = "config"      // the config asks what the sandbox cannot honour; the error says what to change
	FailureSandbox     Failure = "sandbox"     // Deckhand could not build the sandbox, and the server never ran; the error says why
)

// ErrConfig is wrapped (silently) by errors found before a server starts,
// in what its config and the policy ask of its sandbox: retrying, or
// running the command by hand, changes nothing; the config must.
var ErrConfig = errors.New("the config cannot be honoured")

// ErrAuthEnv is wrapped by errors about a missing or empty auth_env variable.
var ErrAuthEnv = errors.New("auth_env variable missing")

// Classify says what kind of failure err is.
func Classify(err error) Failure {
	var (
		httpErr  *HTTPError
		exitErr  *ExitError
		buildErr *sandbox.BuildError
	)
	switch {
	case err == nil:
		return FailureNone
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist) && strings.Contains(err.Error(), "exec"):
		return FailureNotFound
	case errors.Is(err, ErrConfig):
		return FailureConfig
	case errors.As(err, &buildErr):
		return FailureSandbox
	case errors.Is(err, ErrAuthEnv):
		return FailureAuth
	case errors.Is(err, ErrSignInRequired):
		return FailureSignIn
	case errors.As(err, &httpErr):
		if httpErr.Status == http.StatusUnauthorized || httpErr.Status == http.StatusForbidden {
			return FailureAuth
		}
		return FailureHTTP
	case errors.As(err, &exitErr):
		return FailureExited
	case isUnreachable(err):
		return FailureUnreachable
	case errors.Is(err, context.DeadlineExceeded):
		return FailureTimeout
	}
	return FailureProtocol
}

// silently wraps err so that it can be matched with errors.Is without adding
// to the message.
func silently(err error) error { return quiet{err} }

type quiet struct{ err error }

func (q quiet) Error() string { return "" }
func (q quiet) Unwrap() error { return q.err }
