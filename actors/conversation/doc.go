// Package conversation owns the tool loop of one chat: one actor per open
// conversation (conversation.go) under a one-for-one supervisor
// (conversations.go, started by [Spawn]), and one goroutine per run
// (run.go) that reads top to bottom. It keeps the chat's history
// (history.go rebuilds it from the log; versions.go holds the versions of
// each message), checks attachments (attach.go; prompts.go and
// resources_attach.go turn a server's prompt or resource into a message),
// and runs the CMD: route (shell.go).
//
// One run, on its goroutine: unload the lazy tools not called for a while
// and, when the history no longer fits, summarise its oldest turns in one
// model request (compact.go: the summary stands in for them in the model's
// view; the history keeps them); build the request (package request), stream
// the model's answer (streamModel, package transport/llm), resolve and check
// each call (calls.go, packages toolcall and policy: a refused call goes
// back to the model and reaches no server), ask the gate once per call
// (approval.Decide: Allow, Refuse or Ask), and for Ask emit
// ApprovalRequested and wait for its Reply (which whoever answers calls:
// the answer comes to the run directly, not through the actor), the
// approval timeout (a deny) or Stop; run the allowed calls
// (consecutive read-only ones together) through the router's Call
// (package servers) with the exact definition that was checked and shown,
// collect their results, and go round again. Every step is an event
// (events.go) to the watchers: the user actor and the store actor, which
// writes the log.
//
// Who owns its state: the actor owns what outlives a run (the queue of
// messages, the versions, the model chosen, the watchers) and starts and
// stops runs; its Receive never blocks. A run owns its own state (usage,
// the calls of the turn and their step) and, from its start to its end,
// the history, the session's grants, the loaded tools and the summary, which the actor
// hands it and takes back with runEnded; Stop cancels the run's context,
// which ends the model request, the question and the calls in flight;
// RetryNow signals the run's own channel (a buffer of one, sent to
// without blocking) with the try it asks for, which ends the wait for
// that try before a refused model request is tried again
// (llm.Retries.Now). What
// a run reads of the actor as it changes (the config, the catalog, the
// watchers) is a view, an immutable value the actor swaps whole.
//
// Expected failures (a tool that errs, a model that refuses, a key that
// cannot be read) are events and states, never panics. A run that panics
// anyway (a bug) fails visibly: its RunFinished carries the error, its
// watchers get ConversationFailed, and the conversation stops; the log
// keeps everything recorded before, to reopen it from.
package conversation
