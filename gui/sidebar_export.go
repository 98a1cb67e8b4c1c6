package gui

import (
	"context"
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/export"
)

// Exporting a chat from its row's menu: a file dialog, then the bridge
// writes the chat (package export) off its goroutine.

// uiExportSession writes session id to w in format (export.Markdown or
// export.JSON); name is where, for the person.
type uiExportSession struct {
	id, format, name string
	w                io.WriteCloser
}

type sessionExported struct {
	name, broken string
	others       int // versions of messages left out (export.Chat.OtherVersions)
	err          error
}

// askExport asks where to export the chat, in format.
func (s *sidebarSide) askExport(item sessionItem, format string) {
	back := s.u.keepFocus()
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		back()
		if err != nil {
			s.u.showError("Could not export the chat: " + err.Error())
			return
		}
		if w == nil {
			return // cancelled
		}
		s.u.tell(&uiExportSession{id: item.id, format: format, name: w.URI().Path(), w: w})
	}, s.u.win)
	ext := ".md"
	if format == export.JSON {
		ext = ".json"
	}
	d.SetFileName(fileName(item.title) + ext)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	d.Show()
	d.Resize(s.u.win.Canvas().Size()) // after Show: before, it has no window to measure

}

// fileName is a chat's title as a file name: no separators, at most 60
// characters.
func fileName(title string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < ' ' {
			return '-'
		}
		return r
	}, strings.Join(strings.Fields(title), " "))
	if r := []rune(name); len(r) > 60 {
		name = string(r[:60])
	}
	if strings.Trim(name, ". -") == "" {
		name = "chat"
	}
	return name
}

func (m *uiExportSession) handleSidebar(b *bridge, c actor.Context) {
	if b.db == nil {
		m.w.Close()
		b.notices = append(b.notices, "Could not export the chat: this Deckhand keeps no log.")
		return
	}
	self, root, db, sys := c.Self(), c.ActorSystem().Root, b.db, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
		defer cancel()
		// What was said a moment ago may still be in the store actor's
		// batch.
		err := sys.SyncLog(ctx)
		var chat export.Chat
		if err == nil {
			chat, err = export.Load(ctx, db, m.id)
		}
		if err == nil {
			err = export.Write(m.w, chat, m.format)
		}
		if cerr := m.w.Close(); err == nil {
			err = cerr
		}
		root.Send(self, &sessionExported{name: m.name, broken: chat.Broken, others: chat.OtherVersions(), err: err})
	}()
}

func (m *sessionExported) handleSidebar(b *bridge, c actor.Context) {
	versions := ""
	switch {
	case m.others == 1:
		versions = " It holds the version of each message shown; 1 other version is left out (the file says so)."
	case m.others > 1:
		versions = fmt.Sprintf(" It holds the version of each message shown; %d other versions are left out (the file says so).", m.others)
	}
	switch {
	case m.err != nil:
		b.notices = append(b.notices, fmt.Sprintf("Could not export the chat to %s: %v", m.name, m.err))
	case m.broken != "":
		b.notices = append(b.notices, fmt.Sprintf("Exported to %s. Warning: %s (the export says so too).%s", m.name, m.broken, versions))
	default:
		// Done as asked: said, and logged as information, not a warning.
		text := "Exported to " + m.name + "." + versions
		b.ui.post(func() { b.ui.showInfo(text) })
	}
}
