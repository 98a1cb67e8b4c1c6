package sandbox

import (
	"os"
	"os/exec"
	"testing"
)

// BenchmarkCommand is one short command (sh -c true) started and waited
// for: directly, confined through a helper of its own, and through a
// Runner. Compare the ns/op of each to direct's in the same run.
func BenchmarkCommand(b *testing.B) {
	requireSandbox(b)
	ws := b.TempDir()
	spec := &Spec{Read: systemDirs, Write: []string{ws}}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("/bin/sh", "-c", "true")
			cmd.Dir = ws
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("confined", func(b *testing.B) {
		for b.Loop() {
			cmd, _ := Command("/bin/sh", []string{"-c", "true"}, nil, spec)
			cmd.Dir = ws
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runner", func(b *testing.B) {
		r := NewRunner(spec)
		defer r.Close()
		for b.Loop() {
			pr, pw, _ := os.Pipe()
			st, err := r.Run(b.Context(), Job{Path: "/bin/sh", Args: []string{"-c", "true"}, Dir: ws, Stdout: pw, Stderr: pw})
			pw.Close()
			readAll(pr)
			if err != nil || st != 0 {
				b.Fatal(st, err)
			}
		}
	})
}
