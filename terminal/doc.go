// Package terminal owns the terminal user actor of `deckhand chat`: it
// prints a conversation's events as they come (streamed text, tool calls
// and their progress, notices, the servers that join), turns typed lines
// into messages, :commands, /prompts and :attach-ed resources, and asks the
// person about tool calls that need approval and about servers' questions
// (MCP elicitation). Run holds one chat, one-shot (-p) or a conversation;
// cmd/deckhand parses the flags and starts the actors.
//
// It also owns the text that the chat and the `deckhand mcp` subcommands
// both print: the servers' table and states (PrintStatuses, StateText),
// prompts and resources (PromptsOf, ResourcesOf and their Print
// functions), a tool's schemas, progress lines and the ProgressGate that
// keeps a flood of them to a few a second.
//
// Concurrency: everything the chat prints is printed by the actor, in its
// Receive, so lines never interleave, and all of its state is the actor's
// alone. Receive never blocks: it only prints and sends. What waits on
// other actors or servers (:mcp, :resources, :prompts, :attach, a /prompt,
// a resource's re-read after an update, subscriptions) runs on a goroutine
// of its own that reports back to the actor by message; lines typed while
// an :attach or a /prompt is being read are held and taken in order after
// it. Stdin is read by Run on one goroutine, which hands each line to the
// actor as a message and stops handing them over when Run returns (the
// read itself may stay blocked until stdin closes). Ctrl+C reaches the
// actor as a message too, through Options.HandleInterrupt.
package terminal
