package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Themes for [UI.Theme].
const (
	ThemeSystem = "system" // the desktop's choice of light or dark
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Text scales the settings offer; the file accepts 0.5 to 2.
const (
	MinTextScale = 0.9
	MaxTextScale = 1.5
)

// UI is how the window looks: the [ui] table.
type UI struct {
	// Theme is "system" (the default), "light" or "dark".
	Theme string `toml:"theme" validate:"omitempty,oneof=system light dark"`
	// TextScale multiplies the size of the window's text: 1 (the default)
	// is 100%, 1.25 is 125%.
	TextScale float64 `toml:"text_scale" validate:"omitempty,gte=0.5,lte=2"`
}

// ThemeOrDefault is Theme, "system" when unset.
func (u UI) ThemeOrDefault() string {
	if u.Theme == "" {
		return ThemeSystem
	}
	return u.Theme
}

// Scale is TextScale, 1 when unset.
func (u UI) Scale() float64 {
	if u.TextScale == 0 {
		return 1
	}
	return u.TextScale
}

// check says what is wrong with u, as the settings would show it.
func (u UI) check() error {
	switch u.ThemeOrDefault() {
	case ThemeSystem, ThemeLight, ThemeDark:
	default:
		return fmt.Errorf("theme: %q is not system, light or dark", u.Theme)
	}
	if s := u.Scale(); s < 0.5 || s > 2 {
		return fmt.Errorf("text size: %.0f%% is not between 50%% and 200%%", s*100)
	}
	return nil
}

// Edits are the edits of the config file that make its [ui] table u; a
// default removes its key, so that a file nobody customised stays short.
func (u UI) Edits() []Edit {
	var theme, scale any
	if t := u.ThemeOrDefault(); t != ThemeSystem {
		theme = t
	}
	if s := u.Scale(); s != 1 {
		scale = s
	}
	return []Edit{{Table: "ui", Key: "theme", Value: theme}, {Table: "ui", Key: "text_scale", Value: scale}}
}

// WithSystemPrompt is Deckhand's own system prompt (frame) followed by the
// person's model.system_prompt, when there is one.
func (m Model) WithSystemPrompt(frame string) string {
	if p := strings.TrimSpace(m.SystemPrompt); p != "" {
		return frame + "\n\n" + p
	}
	return frame
}

// ParseTemperature reads the settings' temperature: "" is the model's
// default (nil), else a number from 0 to 2.
func ParseTemperature(s string) (*float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || t < 0 || t > 2 {
		return nil, fmt.Errorf("temperature: %q is not a number from 0 to 2", s)
	}
	return &t, nil
}
