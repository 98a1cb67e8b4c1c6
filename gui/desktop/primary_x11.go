//go:build linux && !wayland

package desktop

import "github.com/go-gl/glfw/v3.4/glfw"

// Set makes text the primary selection: Deckhand owns it, and GLFW
// hands it to a program that asks (its events are Fyne's loop's).
func (p *Primary) Set(text string) {
	glfw.SetX11SelectionString(text)
	p.check("owning the primary selection")
}

// Get is the primary selection, from the program that owns it; "" when
// none does.
func (p *Primary) Get() string {
	text := glfw.GetX11SelectionString()
	p.check("reading the primary selection")
	return text
}

// check takes the error GLFW reported, if any: the binding leaves it
// pending, and the next GLFW call of Fyne's that checks for errors would
// panic with it.
func (p *Primary) check(doing string) {
	if code, desc := glfw.GetError(); code != glfw.NoError {
		p.log.Warn(doing, "err", desc, "code", code.String())
	}
}
