//go:build !deckhand_testhooks

package main

import "log/slog"

// The test hooks (conformance.go, screen.go, memstats.go) are built only
// with the deckhand_testhooks tag, which the tests' builds set
// (testutil.BuildProgram): the conformance suite's client adapter, the
// screen dump on SIGUSR2 and the memory reports and profiles. The binary
// a person runs (make build, go install) has none of them; here they do
// nothing.

func testCommands() []command            { return nil }
func screenOnSignal(*slog.Logger) func() { return func() {} }
func memoryReports(*slog.Logger) func()  { return func() {} }
func cpuProfile(*slog.Logger) func()     { return func() {} }
