package servers

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/gui/widgets"
)

// calmAfter is how long a restarted server runs before its row stops
// warning of the restart: it still says it, as history.
const calmAfter = 10 * time.Minute

// maxStopShown is how much of the last stop's reason the row shows (the
// reason is bounded already: the exit status and three lines of stderr,
// cleaned); Copy copies it whole.
const maxStopShown = 400

// restartPart says on a ready server's row that it stopped and was
// restarted: when, with what exit status, how many times since it was
// started, and the last stop's reason (stderr's last lines) with a Copy.
// A crashing server said only "ready" once it was back.
func (s *Panel) restartPart(st servers.ServerStatus, r *Row) fyne.CanvasObject {
	r.Restarted = widget.NewLabel("")
	r.Restarted.Wrapping = fyne.TextWrapWord
	r.StopReason = widget.NewLabel("")
	r.StopReason.Wrapping = fyne.TextWrapWord
	r.StopReason.TextStyle.Monospace = true
	stop := st.LastStop
	r.CopyStop = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		s.host.App().Clipboard().SetContent(stop.Reason)
		r.CopyStop.SetText("Copied")
		r.CopyStop.SetIcon(theme.ConfirmIcon())
	})
	r.CopyStop.Importance = widget.LowImportance
	obj := container.NewVBox(r.Restarted, container.NewBorder(nil, nil, nil, container.NewVBox(r.CopyStop), r.StopReason))
	if st.Stops == 0 || stop.Back.IsZero() || (st.State != servers.StateReady && st.State != servers.StateIdle) {
		// Never stopped, or the failure shows as its Reason now.
		r.Restarted.Hide()
		r.StopReason.Hide()
		r.CopyStop.Hide()
		obj.Hide()
		return obj
	}
	state := r.State.Text
	ages := func() {
		ago := time.Since(stop.Back)
		after := "after it stopped"
		if stop.Exit != "" {
			after += " (" + stop.Exit + ")"
		}
		times := ""
		if st.Stops > 1 {
			times = fmt.Sprintf(" It has stopped %d times since it was started.", st.Stops)
		}
		if ago < calmAfter {
			widgets.SetText(r.State, state+" · restarted "+agoText(ago))
			widgets.SetText(r.Restarted, fmt.Sprintf("Restarted %s %s.%s", agoText(ago), after, times))
			r.Restarted.Importance = widget.WarningImportance
			return
		}
		widgets.SetText(r.State, state)
		if r.Restarted.Importance != widget.MediumImportance {
			r.Restarted.Importance = widget.MediumImportance
			r.Restarted.Refresh()
		}
		widgets.SetText(r.Restarted, fmt.Sprintf("Running fine for %s since it was restarted %s.%s", widgets.Elapsed(ago.Truncate(time.Minute)), after, times))
	}
	ages()
	s.ages = append(s.ages, ages)
	r.StopReason.SetText("Last stop: " + widgets.Shorten(stop.Reason, maxStopShown))
	return obj
}

// agoText is how long ago, to the minute past the first (the row is
// drawn again as the server's status changes, not every second).
func agoText(d time.Duration) string {
	if d < time.Minute {
		return "just now"
	}
	return widgets.Elapsed(d.Truncate(time.Minute)) + " ago"
}

// ageTick is how often the rows' "restarted 2 min ago" are said again
// while a row says one.
const ageTick = 20 * time.Second

// tickAges has the rows' ages said again in ageTick, and again after
// that, while a row says one (Refresh rebuilds the list of them). Only
// the texts change: a rebuilt row would take the keyboard's focus from
// its buttons.
func (s *Panel) tickAges() {
	if len(s.ages) == 0 || s.ticking {
		return
	}
	s.ticking = true
	time.AfterFunc(ageTick, func() {
		s.host.Post(func() {
			s.ticking = false
			for _, f := range s.ages {
				f()
			}
			s.tickAges()
		})
	})
}
