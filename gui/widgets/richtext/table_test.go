package richtext

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestTableWheelShift: over a wide table, the wheel with Shift held
// scrolls the table sideways and leaves the list it is in; without
// Shift, the turn goes to the list and the table stays (the window's
// wheel: chat's TestWheelOverAWideTable).
func TestTableWheelShift(t *testing.T) {
	test.NewTempApp(t)
	rt := NewMDText(MarkdownSegments(strings.Repeat("| a long column heading ", 8) + "|\n" + strings.Repeat("|---", 8) + "|\n" + strings.Repeat("| a cell ", 8) + "|\n")...)
	if !FitTables(rt) {
		t.Fatal("FitTables found no table")
	}
	var list float32
	rt.Wheel = func(e *fyne.ScrollEvent) { list -= e.Scrolled.DY }
	w := test.NewTempWindow(t, rt)
	w.Resize(fyne.NewSize(300, 300))
	var box *TableBox
	for _, r := range []fyne.CanvasObject{rt} {
		walkBoxes(r, &box)
	}
	if box == nil || !box.Wide() {
		t.Fatalf("the table is not drawn wide: %v", box)
	}
	shift := false
	box.wheel.shift = func() bool { return shift }
	tests := []struct {
		name        string
		shift       bool
		list, table bool // which moves
	}{
		{name: "wheel", list: true},
		{name: "Shift and wheel", shift: true, table: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shift = tt.shift
			l, x := list, box.Scroll().Offset.X
			box.wheel.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -25}})
			if moved := list != l; moved != tt.list {
				t.Errorf("the list moved: %v, want %v", moved, tt.list)
			}
			if moved := box.Scroll().Offset.X != x; moved != tt.table {
				t.Errorf("the table scrolled sideways: %v, want %v", moved, tt.table)
			}
		})
	}
}

// walkBoxes finds the TableBox in what o's renderer drew.
func walkBoxes(o fyne.CanvasObject, box **TableBox) {
	if b, ok := o.(*TableBox); ok {
		*box = b
		return
	}
	switch o := o.(type) {
	case *fyne.Container:
		for _, c := range o.Objects {
			walkBoxes(c, box)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(o).Objects() {
			walkBoxes(c, box)
		}
	}
}
