package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// A tool's whole result, kept for the person when the result limit cut
// what the model was given (a log file a tool returned): a file of its
// session's beside the log (results/<session>/<call>.txt under the data
// folder), never in the log itself, removed with its session
// (DeleteSession). The text is the one the model was given a part of,
// secrets already removed; it is bounded by what one message from a
// server may hold (16 MiB: a bigger answer fails its call, and nothing is
// kept).

// ResultsDir is the folder of the kept results of the log at path.
func ResultsDir(path string) string { return filepath.Join(filepath.Dir(path), "results") }

// sessionResults is session's folder of kept results: named by a hash of
// its id, which a file name could not always hold.
func (db *DB) sessionResults(session string) string {
	return filepath.Join(ResultsDir(db.path), hashName(session))
}

// ResultPath is the file that keeps the whole result of call call of run
// run of session, kept or not. The ids are the model's (a call's) and
// Deckhand's: the name is their hash, never a path they could write.
func (db *DB) ResultPath(session, run, call string) string {
	return filepath.Join(db.sessionResults(session), hashName(run+"\x00"+call)+".txt")
}

func hashName(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// KeepResult writes text, a call's whole result, to its file
// (ResultPath), readable by the person alone.
func (db *DB) KeepResult(session, run, call, text string) error {
	p := db.ResultPath(session, run, call)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("keeping the whole result: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".result-*")
	if err != nil {
		return fmt.Errorf("keeping the whole result: %w", err)
	}
	_, err = tmp.WriteString(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("keeping the whole result: %w", err)
	}
	return nil
}

// removeResults removes session's kept results.
func (db *DB) removeResults(session string) error {
	if err := os.RemoveAll(db.sessionResults(session)); err != nil {
		return fmt.Errorf("removing the session's kept results: %w", err)
	}
	return nil
}
