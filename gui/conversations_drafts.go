package gui

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"deckhand/gui/composer"
	"deckhand/store"
)

// Drafts: each chat keeps what the person typed in the message box and
// has not sent, and the files attached to it (those only while Deckhand
// runs). Opening another chat sets the box's text aside and shows
// that chat's own (a new chat's is empty); the log keeps the drafts
// (store.SaveDraft), so that they survive a quit and a restart. One
// message box served every chat: a draft typed for one chat was sent to
// the next one opened, and quitting threw it away.
//
// The texts belong to the UI goroutine; the log is written off it, by
// draftSaver.

// drafts is the window's drafts.
type drafts struct {
	texts  map[string]string               // by conversation: drafts set aside this run
	files  map[string]composer.Attachments // by conversation: its chips set aside (not kept over a restart)
	logged map[string]string               // what the log held at the start (store.Drafts), until used
	saver  draftSaver
}

// draftKey is the log's key of the shown conversation's draft: its id, or
// store.NewChatDraft while nothing has been said in it.
func (u *UI) draftKey(conv string) string {
	if len(u.chat.Rows) == 0 {
		return store.NewChatDraft
	}
	return conv
}

// swapDraft sets the box's text aside as prev's draft, and shows next's,
// as the window goes from conversation prev to next. Called before the
// transcript shows next; fresh says next has nothing said in it yet.
func (u *UI) swapDraft(prev, next string, fresh bool) {
	d := &u.drafts
	if d.texts == nil {
		d.texts, d.files = map[string]string{}, map[string]composer.Attachments{}
	}
	key := next // the log's key of next's draft
	if fresh {
		key = store.NewChatDraft
	}
	if prev == "" {
		// The first chat shown: what was typed or attached before it
		// showed is its own.
		if u.input.Text == "" {
			u.setDraft(d.logged[key])
		}
		delete(d.logged, key)
		return
	}
	text := u.input.Text
	if text == "" {
		delete(d.texts, prev)
	} else {
		d.texts[prev] = text
	}
	u.saveDraft(u.draftKey(prev), text)
	d.files[prev] = u.comp.TakeAttachments()
	u.comp.SetAttachments(d.files[next])
	delete(d.files, next)
	text, ok := d.texts[next]
	if !ok {
		text = d.logged[key]
		delete(d.logged, key)
	}
	if u.input.Text != text {
		u.setDraft(text)
	}
}

// setDraft shows a chat's draft in the message box with the caret at its
// end, where the person goes on typing: Fyne's entry kept the caret's
// row and column from the text before, and typing landed inside the
// draft ("tabXles").
func (u *UI) setDraft(text string) {
	u.input.SetText(text)
	last := text[strings.LastIndexByte(text, '\n')+1:]
	u.input.CursorRow, u.input.CursorColumn = strings.Count(text, "\n"), utf8.RuneCountInString(last)
	u.input.Refresh()
}

// loadDrafts reads the drafts the log keeps, off the UI goroutine; the
// shown chat gets its own if the person has not typed yet.
func (u *UI) loadDrafts() {
	db := u.d.Log
	if db == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		logged, err := db.Drafts(ctx)
		if err != nil {
			u.log.Warn("reading the drafts", "err", err)
			return
		}
		u.post(func() {
			u.drafts.logged = logged
			if u.conv == "" || u.input.Text != "" {
				return // swapDraft finds it when the chat shows
			}
			key := u.draftKey(u.conv)
			if text, ok := logged[key]; ok {
				delete(u.drafts.logged, key)
				u.setDraft(text)
			}
		})
	}()
}

// saveDraft has the log keep text as the draft under key ("" forgets it).
func (u *UI) saveDraft(key, text string) {
	if u.d.Log == nil {
		return
	}
	u.drafts.saver.save(u.d.Log, u.log, key, text)
}

// keepDrafts saves the shown chat's draft and waits until the log has
// every draft: Deckhand is quitting.
func (u *UI) keepDrafts() {
	if u.conv != "" {
		u.saveDraft(u.draftKey(u.conv), u.input.Text)
	}
	u.drafts.saver.wait()
}

// draftSaver writes drafts to the log one at a time, off the UI goroutine;
// a draft saved again before it was written is written once, its latest
// text.
type draftSaver struct {
	mu      sync.Mutex
	pending map[string]string
	busy    bool
	done    sync.WaitGroup
}

func (s *draftSaver) save(db *store.DB, log *slog.Logger, key, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		s.pending = map[string]string{}
	}
	s.pending[key] = text
	if s.busy {
		return
	}
	s.busy = true
	s.done.Add(1)
	go s.drain(db, log)
}

func (s *draftSaver) drain(db *store.DB, log *slog.Logger) {
	defer s.done.Done()
	for {
		s.mu.Lock()
		if len(s.pending) == 0 {
			s.busy = false
			s.mu.Unlock()
			return
		}
		var key, text string
		for key, text = range s.pending {
			break
		}
		delete(s.pending, key)
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := db.SaveDraft(ctx, key, text); err != nil {
			log.Warn("saving a draft", "err", err)
		}
		cancel()
	}
}

// wait returns once every draft saved is written.
func (s *draftSaver) wait() { s.done.Wait() }
