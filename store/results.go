package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
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
	if err := writeKept(db.ResultPath(session, run, call), ".result-*", []byte(text)); err != nil {
		return fmt.Errorf("keeping the whole result: %w", err)
	}
	return nil
}

// writeKept writes data to p whole (a file of pattern beside it, renamed
// into place), its folder made readable by the person alone.
func writeKept(p, pattern string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), pattern)
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// removeResults removes session's kept results.
func (db *DB) removeResults(session string) error {
	if err := os.RemoveAll(db.sessionResults(session)); err != nil {
		return fmt.Errorf("removing the session's kept results: %w", err)
	}
	return nil
}

// A tool's images, as a call's whole result: files of its session's
// (results/<session>/<SHA-256>.img), named by the SHA-256 of their bytes
// (one image a session's calls return again is kept once), removed with
// the session. The log names each by that hash (EventData.Images); a
// file whose bytes no longer match it is not read back.

// MaxKeptImage is the largest image file read back: a tool's image is
// at most 16 MiB of base64 (tools.MaxImageBase64).
const MaxKeptImage = 12 << 20

// LoggedImage is what the log keeps of one image of a tool's result.
type LoggedImage struct {
	MIME string `json:"mime"`
	Size int    `json:"size"`
	// SHA256 is the hex SHA-256 of its bytes, when they were kept
	// (KeepImage); "" when not.
	SHA256 string `json:"sha256,omitempty"`
}

// ImagePath is the file that keeps session's image of hex SHA-256 sum,
// or "" when sum is not one (the log's word is not a path).
func (db *DB) ImagePath(session, sum string) string {
	if b, err := hex.DecodeString(sum); err != nil || len(b) != sha256.Size || sum != hex.EncodeToString(b) {
		return ""
	}
	return filepath.Join(db.sessionResults(session), sum+".img")
}

// KeepImage writes data, an image of a tool's result, to its file of
// session's, readable by the person alone, unless it is there already
// (a file changed on disk is written again), and returns its hex SHA-256.
func (db *DB) KeepImage(session string, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:])
	p := db.ImagePath(session, name)
	if db.KeptImage(session, name) != nil { // kept already, intact (else written again)
		return name, nil
	}
	if err := writeKept(p, ".image-*", data); err != nil {
		return "", fmt.Errorf("keeping the image: %w", err)
	}
	return name, nil
}

// KeptImage reads session's image of hex SHA-256 sum back: nil when it
// is not kept, too large, or its bytes no longer match sum (changed on
// disk).
func (db *DB) KeptImage(session, sum string) []byte {
	p := db.ImagePath(session, sum)
	if p == "" {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxKeptImage+1))
	if err != nil || len(data) > MaxKeptImage {
		return nil
	}
	if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sum {
		return nil
	}
	return data
}
