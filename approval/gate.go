package approval

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
	"deckhand/policy"
	"deckhand/tools"
)

// The gate as one decision: Decide takes everything that decides a
// call and gives one Outcome, in this order: the policy (which no grant or
// rule overrides), then the tool's pin (a changed definition is asked
// again, whatever grants or rules say), then the person's grants and the
// config's rules. It reads nothing but its arguments and changes none of
// them; carrying the outcome out (asking, running, refusing) is the
// caller's job.

// Pin is what the pin book holds of a tool: the hash and definition pinned
// when it was first seen (or last accepted). The zero Pin (no pin book, or
// a tool never pinned) compares as unchanged.
type Pin struct {
	Hash       string    // tools.Tool.Hash of the pinned definition; "" for none
	Definition *sdk.Tool // the pinned definition as the server sent it; nil when unreadable
}

// Granted are the person's grants that can cover a call.
type Granted struct {
	Session Grants  // this conversation's "allow for this session"
	Always  *Always // "always allow", everywhere; nil for none
}

// Always are the "always allow" grants, the gate's one input shared by
// every conversation: a run's gate reads them without waiting for anything
// (least of all the disk), a grant counts at once, here and in every
// conversation, and so does a revocation.
//
// With a log (NewAlways), the log's writer keeps them in step with the
// disk and nothing else: it reads them in at start and at each run start
// (Reload: grants given or revoked by another Deckhand process sharing the
// log count from then on), writes each grant given here (save), and says
// when a grant or a revocation made here is on disk (Saved, Deleted).
// Until then a reload does not undo it: a grant given here stays, and a
// grant revoked here stays revoked. The zero Always keeps grants for the
// life of the process.
//
// Who owns its state: nobody holds a lock on it. It is an immutable value
// (an alwaysBook) swapped whole: a change copies the book, changes the
// copy and swaps it in (again, on the newest book, if another change came
// first), so a reader sees one book, before or after a change, never half
// of one. Safe for concurrent use.
type Always struct {
	book atomic.Pointer[alwaysBook]
	save func(Grant) // writes a grant given here to the log; nil without one
}

// Grant is one "always allow".
type Grant struct {
	Tool string
	By   string // who granted it (the user actor's name)
	At   time.Time
}

// alwaysBook is one state of the grants; never changed once stored.
type alwaysBook struct {
	granted  map[string]Grant // as last read from the log, and confirmed since (or given, without a log)
	pending  map[string]Grant // given here, not yet on disk
	revoking map[string]int   // revoked here, not yet deleted on disk: a reload does not bring them back
}

// NewAlways makes the grants of a log; save writes a grant given here
// (it must not wait for the disk: it hands the grant to the log's writer).
func NewAlways(save func(Grant)) *Always { return &Always{save: save} }

// Allowed reports whether tool (alias.tool) is always allowed now.
func (g *Always) Allowed(tool string) bool {
	if g == nil {
		return false
	}
	b := g.book.Load()
	if b == nil {
		return false
	}
	_, granted := b.granted[tool]
	_, pending := b.pending[tool]
	return granted || pending
}

// Grant counts tool at once, and has the log write it. It does not wait
// for the log: the run that granted it may ask the gate again first.
func (g *Always) Grant(tool, by string) {
	gr := Grant{Tool: tool, By: by, At: time.Now()}
	g.change(func(b *alwaysBook) {
		if g.save == nil {
			b.granted[tool] = gr
			return
		}
		b.pending[tool] = gr
	})
	if g.save != nil {
		g.save(gr)
	}
}

// Revoke stops tool's grant counting at once. With a log, a reload does
// not bring it back until Deleted says the log's copy is gone.
func (g *Always) Revoke(tool string) {
	g.change(func(b *alwaysBook) {
		delete(b.granted, tool)
		delete(b.pending, tool)
		if g.save != nil {
			b.revoking[tool]++
		}
	})
}

// Reload replaces the grants with the log's (the rows Deckhand wrote),
// read again: a grant given here that the log does not hold yet stays, and
// a grant revoked here that the log still holds stays revoked.
func (g *Always) Reload(saved []Grant) {
	g.change(func(b *alwaysBook) {
		b.granted = make(map[string]Grant, len(saved))
		for _, gr := range saved {
			if b.revoking[gr.Tool] == 0 {
				b.granted[gr.Tool] = gr
			}
		}
	})
}

// Saved says a grant given here is on disk: from now on the log's copy
// counts, unless a revocation made since is still on its way (the log's
// writer calls Saved and Deleted in the order of the log's rows).
func (g *Always) Saved(tool string) {
	g.change(func(b *alwaysBook) {
		if b.revoking[tool] > 0 {
			// A grant made before a revocation: the revocation cleared it
			// (and a grant since is pending, saved after the revocation).
			return
		}
		gr, ok := b.pending[tool]
		if !ok {
			gr = Grant{Tool: tool}
		}
		b.granted[tool] = gr
		delete(b.pending, tool)
	})
}

// Deleted says a revocation made here is on disk.
func (g *Always) Deleted(tool string) {
	g.change(func(b *alwaysBook) {
		if b.revoking[tool]--; b.revoking[tool] <= 0 {
			delete(b.revoking, tool)
		}
	})
}

// List returns the grants that count now, sorted by tool.
func (g *Always) List() []Grant {
	b := g.book.Load()
	if b == nil {
		return nil
	}
	all := maps.Clone(b.granted)
	maps.Copy(all, b.pending)
	return slices.SortedFunc(maps.Values(all), func(x, y Grant) int { return strings.Compare(x.Tool, y.Tool) })
}

// change applies f to a copy of the book and swaps the copy in.
func (g *Always) change(f func(b *alwaysBook)) {
	for {
		old := g.book.Load()
		next := &alwaysBook{granted: map[string]Grant{}, pending: map[string]Grant{}, revoking: map[string]int{}}
		if old != nil {
			next.granted, next.pending, next.revoking = maps.Clone(old.granted), maps.Clone(old.pending), maps.Clone(old.revoking)
		}
		f(next)
		if g.book.CompareAndSwap(old, next) {
			return
		}
	}
}

// Cause says which step of the gate gave its outcome.
type Cause int

const (
	// CauseNone: nothing allows the call, so a person is asked.
	CauseNone Cause = iota
	// CausePolicy: the capability policy refuses a path the call names.
	CausePolicy
	// CauseHidden: a shell command holds characters a person would not
	// see, so what would be approved is not what would run.
	CauseHidden
	// CauseChanged: the tool's definition differs from its pin; the
	// person is asked, with what changed.
	CauseChanged
	// CauseOnceOnly: the call is asked every time (shell commands).
	CauseOnceOnly
	// CauseRuleAsk: an auto_approve rule set to false asks.
	CauseRuleAsk
	// CauseSession: allowed for this conversation.
	CauseSession
	// CauseAlways: always allowed.
	CauseAlways
	// CauseRule: an auto_approve rule (the tool's, or its server's .*).
	CauseRule
	// CauseVisibility: the caller may not call the tool (an MCP App's
	// _meta.ui.visibility: an app-only tool called by the model, a
	// model-only one by a view).
	CauseVisibility
)

func (c Cause) String() string {
	names := [...]string{"none", "policy", "hidden", "changed", "once only", "rule asks", "session grant", "always grant", "rule", "visibility"}
	if c < 0 || int(c) >= len(names) {
		return fmt.Sprintf("Cause(%d)", int(c))
	}
	return names[c]
}

// Outcome is the gate's whole word on one call.
type Outcome struct {
	Verdict Verdict // Allow, Ask or Refuse
	Cause   Cause
	// By says, for people and the log, what allowed the call or why it
	// is asked: "auto_approve fs.*", "allowed for this session", "always
	// allowed", "auto_approve fs.write_file = false", "each is asked", "".
	By string
	// Err is why a refused call was refused: errors.Is(Err, ErrPolicy),
	// ErrHidden or ErrVisibility; its text is what the model is told. Nil unless Refuse.
	Err error
	// Request is the call as a person is shown it: the caller's, with
	// Access said from the policy's decisions and, for a changed
	// definition, Change.
	Request Request
}

// Scope is how an allowing outcome was reached, as the log records it:
// "rule" for an auto_approve rule, "grant" for the person's own grant.
func (o Outcome) Scope() string {
	if o.Cause == CauseRule {
		return "rule"
	}
	return "grant"
}

// Decide is the gate. call is the request as toolcall.Request or
// toolcall.CommandRequest builds it (its Change set if a change was found
// before); def is the tool as the catalog resolved it (zero for a shell
// command); pin is its pin as the pin book holds it now; decisions are the
// capability policy's on the call's paths (policy.CheckPaths; none for a
// remote server or a command); granted and rules are the grants and the
// config's auto_approve rules.
//
//  0. Visibility: a tool its server made for its views only
//     (_meta.ui.visibility ["app"]) called by the model, or one made for
//     the model only called by a view (call.Origin set), is refused
//     (Refuse, ErrVisibility), whatever grants or rules say.
//  1. Policy: a command hiding characters, or a path the policy denies,
//     refuses the call (Refuse, Err). The first denied decision is the one
//     told.
//  2. Pin: a tool whose definition differs from its pin (or a call already
//     found changed) is asked, with what changed (Ask, CauseChanged): no
//     grant or rule covers it.
//  3. Grants, then rules: a shell command is always asked; a
//     session grant, then an "always" grant, then the tool's rule (false
//     asks), then its server's ".*" rule allow; else the person is asked.
func Decide(call Request, def tools.Tool, pin Pin, decisions []policy.Decision, granted Granted, rules Rules) Outcome {
	if err := visible(call, def); err != nil {
		return Outcome{Verdict: Refuse, Cause: CauseVisibility, Err: err, Request: call}
	}
	call, err := Check(call, decisions)
	if err != nil {
		cause := CausePolicy
		if errors.Is(err, ErrHidden) {
			cause = CauseHidden
		}
		return Outcome{Verdict: Refuse, Cause: cause, Err: err, Request: call}
	}
	if call.Command == "" {
		if call.Change == "" && pin.Hash != "" && pin.Hash != def.Hash {
			call.Change = Diff(pin.Definition, def.Raw)
		}
		if call.Change != "" {
			return Outcome{Verdict: Ask, Cause: CauseChanged, Request: call}
		}
	}
	v, by, cause := decide(rules, granted.Always, granted.Session, call)
	return Outcome{Verdict: v, Cause: cause, By: by, Request: call}
}

// decide is the last step of the gate, grants and rules: grants come
// first (the person's own answers), then the tool's rule, then its
// server's; with nothing allowing the call, the person is asked. by says
// what allowed it or why it is asked.
func decide(rules Rules, always *Always, session Grants, req Request) (v Verdict, by string, cause Cause) {
	switch {
	case req.OnceOnly:
		return Ask, "each is asked", CauseOnceOnly
	case session[req.Display]:
		return Allow, "allowed for this session", CauseSession
	case always.Allowed(req.Display):
		return Allow, "always allowed", CauseAlways
	}
	if v, ok := rules[req.Display]; ok {
		if v {
			return Allow, "auto_approve " + req.Display, CauseRule
		}
		return Ask, "auto_approve " + req.Display + " = false", CauseRuleAsk
	}
	if rules[req.Server+".*"] {
		return Allow, "auto_approve " + req.Server + ".*", CauseRule
	}
	return Ask, "", CauseNone
}

// Check is the gate's first step alone, the one no grant or rule
// overrides: a command hiding characters (ErrHidden) or a path the policy
// denies (ErrPolicy; the first denied decision is the one told) refuses
// the call. It gives the call with Access said from the allowed decisions,
// as a person would be shown it. A caller applies it when it checks a
// call, so that a refusal is final before any call of the turn is asked
// about; Decide begins with it, so the gate stays whole on its own.
func Check(call Request, decisions []policy.Decision) (Request, error) {
	call.Access = nil
	for _, d := range decisions {
		if d.Allowed {
			call.Access = append(call.Access, d.Describe())
		}
	}
	if call.Command != "" {
		if what, at, hidden := clean.Hidden(call.Command); hidden {
			return call, &HiddenError{What: what, At: at, Command: call.Command}
		}
	}
	for _, d := range decisions {
		if !d.Allowed {
			return call, &PolicyError{Capability: d.Capability, Target: d.Target, Rule: d.Rule}
		}
	}
	return call, nil
}

// visible refuses a call by a caller the tool is not for: the model
// (Origin "") calling an app-only tool, a view calling a model-only one.
func visible(call Request, def tools.Tool) error {
	if call.Command != "" {
		return nil
	}
	switch {
	case call.Origin == "" && !def.Visibility.ForModel():
		return &VisibilityError{Tool: def.Display, For: "its server's views", Caller: "the model"}
	case call.Origin != "" && !def.Visibility.ForApps():
		return &VisibilityError{Tool: def.Display, For: "the model", Caller: call.Origin}
	}
	return nil
}

// VisibilityError is a call by a caller its tool is not for (an MCP App's
// _meta.ui.visibility); its text is what the caller is told.
type VisibilityError struct {
	Tool   string // server.tool
	For    string // who may call it: "the model", "its server's views"
	Caller string // who called: "the model", "the view of server.tool"
}

func (e *VisibilityError) Error() string {
	return fmt.Sprintf("Refused (not run): %s is for %s only (its server's _meta.ui.visibility), and %s may not call it.", e.Tool, e.For, e.Caller)
}

func (e *VisibilityError) Unwrap() error { return ErrVisibility }

// Changed reports whether an outcome found the tool's definition changed
// since it was pinned for the first time for this call (the caller says
// so once, as an event): before is the request given to Decide.
func (o Outcome) Changed(before Request) bool {
	return o.Cause == CauseChanged && before.Change == ""
}

// Sentinel errors: the kinds of refusal and denial, for errors.Is.
var (
	// ErrPolicy: the capability policy refused the call (PolicyError).
	ErrPolicy = errors.New("refused by the policy")
	// ErrHidden: a command holds characters a person would not see
	// (HiddenError).
	ErrHidden = errors.New("the command holds hidden characters")
	// ErrVisibility: the tool is not for its caller (VisibilityError).
	ErrVisibility = errors.New("not for this caller")
	// ErrDenied: the person answered no.
	ErrDenied = errors.New("denied by the person")
	// ErrNotAnswered: no person answered (a timeout, no terminal, a
	// --approve mode); the Reason says which (DeniedError).
	ErrNotAnswered = errors.New("denied without an answer")
	// ErrTimedOut: no answer came within the approval timeout. Such a
	// denial is ErrNotAnswered too.
	ErrTimedOut = errors.New("no answer in time")
)

// PolicyError is a call the capability policy refused before the gate;
// its text is what the model is told: which capability, for what, and why.
type PolicyError struct {
	Capability, Target, Rule string
}

func (e *PolicyError) Error() string {
	what := map[string]string{policy.CapRead: "read", policy.CapWrite: "write", policy.CapExec: "run", policy.CapNet: "reach"}[e.Capability]
	if what == "" {
		what = e.Capability
	}
	if e.Capability == policy.CapExec {
		return fmt.Sprintf("Refused by Deckhand's policy (not run): this call would run %s, which is %s. Do not call it again; the person can turn shell commands on (Settings, or policy.allow_exec in the config) if it is needed.", e.Target, e.Rule)
	}
	return fmt.Sprintf("Refused by Deckhand's policy (not run): this call would %s %s, which is %s. Do not retry it with the same path; ask the person to widen the roots (Settings, or policy.fs in the config) if it is needed.", what, e.Target, e.Rule)
}

func (e *PolicyError) Unwrap() error { return ErrPolicy }

// HiddenError is a shell command holding a character a person would not
// see (clean.Hidden): which one, and where. Its text is what the model is
// told.
type HiddenError struct {
	What    string
	At      int
	Command string
}

func (e *HiddenError) Error() string {
	return fmt.Sprintf("Refused (not run): the command holds %s at byte %d, so what a person would be shown is not what would run: %s. Write the command in plain visible characters.", e.What, e.At, clean.Quote(e.Command))
}

func (e *HiddenError) Unwrap() error { return ErrHidden }

// Reason says why a question to a person (an approval, an elicitation)
// closed: Answered when a person answered, otherwise why no one did, in
// words shown as they are ("no answer within 2m0s", "--approve=auto").
// Compare with IsAnswered, not with a string.
type Reason string

// Answered is the reason of a question a person answered.
const Answered Reason = "answered"

// timedOut begins the reason of a question no one answered in time.
const timedOut = "no answer within "

// TimedOut is the reason of a question no one answered within d.
func TimedOut(d time.Duration) Reason { return Reason(timedOut + d.String()) }

// IsAnswered reports whether a person answered; "" (an answer sent with no
// reason) counts as the person's.
func (r Reason) IsAnswered() bool { return r == "" || r == Answered }

// IsTimedOut reports whether no answer came in time.
func (r Reason) IsTimedOut() bool { return strings.HasPrefix(string(r), timedOut) }

// By says who decided, for the log: "the person", or the reason.
func (r Reason) By() string {
	if r.IsAnswered() {
		return "the person"
	}
	return string(r)
}

// DeniedError is a call denied without a person's answer, and why.
type DeniedError struct{ Reason Reason }

func (e *DeniedError) Error() string { return "denied: " + string(e.Reason) }

// Is makes a timeout both ErrNotAnswered and ErrTimedOut.
func (e *DeniedError) Is(target error) bool {
	return target == ErrNotAnswered || (target == ErrTimedOut && e.Reason.IsTimedOut())
}

// Denial is the error of an asked call's answer: nil when it allows the
// call, ErrDenied when the person said no, a DeniedError (ErrNotAnswered,
// and ErrTimedOut for a timeout) when no person answered.
func Denial(ans Answer, r Reason) error {
	switch {
	case ans.Allowed():
		return nil
	case r.IsAnswered():
		return ErrDenied
	}
	return &DeniedError{Reason: r}
}
