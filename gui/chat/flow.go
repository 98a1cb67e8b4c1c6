package chat

import (
	"deckhand/gui/chat/block"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// A paragraph longer than transcript.MaxBlock is cut in rows, each row
// going on on the last line of the one before (package block's Flow and
// Leads). The View keeps the widths (leads) until the width or the rows
// change, and lays the rows out off screen to learn them (measureText).

// flowOf is how row i flows with its neighbours'.
func (cv *View) flowOf(i int) block.Flow {
	return block.Flow{Lead: cv.leadOf(i), Under: cv.leadOf(i+1) > 0}
}

// leadOf is the width of the blank row i begins with (0: it begins a
// line).
func (cv *View) leadOf(i int) float32 {
	return cv.leads.Of(cv.Rows, i, cv.listWidth(), cv.measureText)
}

// measureText lays row out off screen at the list's width after a blank
// of lead, and gives its text block, if it shows one.
func (cv *View) measureText(row transcript.Row, lead float32) *richtext.SelText {
	cv.measureRow(row, block.Flow{Lead: lead})
	return cv.measure.Selectable()
}
