//go:build !linux || wayland

package desktop

// Set does nothing: there is no X11 primary selection here.
func (p *Primary) Set(string) {}

// Get is "": there is no X11 primary selection here.
func (p *Primary) Get() string { return "" }
