package desktop

import "log/slog"

// Primary is the desktop's primary selection (X11's PRIMARY): what the
// person selected last, in any program, pasted with a middle click. Fyne
// has no API for it; its GLFW binding does, on X11 (primary_x11.go).
// Elsewhere (a Wayland build, another system) it holds nothing and Set
// does nothing (primary_other.go).
//
// Set and Get must be called on Fyne's goroutine (its event handlers,
// fyne.Do's functions): GLFW wants the main thread, which Fyne's driver
// runs them on, and an initialized GLFW, which it has while the app runs.
type Primary struct {
	log *slog.Logger
}

// NewPrimary is the primary selection; what fails is logged to log (nil
// discards it).
func NewPrimary(log *slog.Logger) *Primary {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Primary{log: log}
}
