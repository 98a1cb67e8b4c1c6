package toolcard

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"fyne.io/fyne/v2"

	"deckhand/tools"
	"deckhand/transcript"
)

// saveWhole asks where to save the whole result of the card of row (of
// conversation conv), which Deckhand kept when the result limit cut what
// the model saw, and copies it there. The model saw a part: Show and Copy
// give that part, this the rest too (a log file a tool returned).
func (cs *Cards) saveWhole(conv string, row transcript.Row) {
	src := cs.host.ResultFile(conv, row.Run, row.Call)
	if src == "" {
		cs.host.ShowError("The whole result was not kept: Deckhand has no log here.")
		return
	}
	cs.saveAs(wholeName(row.Tool), "the whole result", func(wc fyne.URIWriteCloser) { cs.writeWhole(wc, src) })
}

// writeWhole copies the kept result at src to wc, and says how it went.
func (cs *Cards) writeWhole(wc fyne.URIWriteCloser, src string) {
	n, err := copyFile(wc, src)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		cs.host.ShowError("The whole result is not kept any more (its file is gone from Deckhand's data folder).")
	case err != nil:
		cs.host.ShowError("Could not save the whole result: " + err.Error())
	default:
		cs.host.ShowInfo(fmt.Sprintf("Saved the whole result (%s) to %s.", tools.Size(int(n)), wc.URI().Path()))
	}
}

func copyFile(w io.Writer, src string) (int64, error) {
	f, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return io.Copy(w, f)
}

// wholeName is the file name offered for a tool's whole result: the
// tool's name (server.tool), its dots and slashes made dashes.
func wholeName(tool string) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '.' || r < ' ' {
			return '-'
		}
		return r
	}, tool)
	if name == "" {
		name = "tool"
	}
	return name + "-result.txt"
}
