package tools

import (
	"regexp"
	"strings"
)

// Signs of tool poisoning in a description: text that speaks to the model
// rather than describing the tool. A sign is a warning for the person
// deciding, never a verdict.
var steering = regexp.MustCompile(`(?i)(ignore (all |any )?(previous|prior|above|other) (instructions|tools)|do not (tell|inform|mention|show)[^.]{0,40}(user|person)|<\s*important\s*>|system prompt|before (using|calling) (this|any other) tool|you must (always|first|never)|instead of (the|using) )`)

// steeringWords are in every match of steering: the regular expression
// runs only on text that holds one (most descriptions hold none).
var steeringWords = []string{"ignore", "do not", "important", "system prompt", "before", "you must", "instead of"}

// steers returns the text's first sign of steering, or "".
func steers(text string) string {
	lower := strings.ToLower(text)
	for _, w := range steeringWords {
		if strings.Contains(lower, w) {
			return steering.FindString(text)
		}
	}
	return ""
}

// flag adds warnings about what a tool's definition says of other tools and
// of the model, and about names on one server that differ only in case.
// Called with c.tools sorted by display name.
func (c *Catalog) flag() {
	folded := map[string][]int{}
	for i := range c.tools {
		t := &c.tools[i]
		key := t.Server + "." + strings.ToLower(t.Name)
		folded[key] = append(folded[key], i)
	}
	for _, idx := range folded {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			for _, j := range idx {
				if i != j {
					c.tools[i].Warnings = append(c.tools[i].Warnings, "its name differs only in case from "+c.tools[j].Display+" on the same server")
				}
			}
		}
	}
	for i := range c.tools {
		t := &c.tools[i]
		text := t.Def.Title + "\n" + t.Def.Description
		if m := steers(text); m != "" {
			t.Warnings = append(t.Warnings, "its description speaks to the model (\""+strings.TrimSpace(m)+"\"), which may be an attempt to steer it")
		}
		if other := c.namesOther(t.Server, text); other != "" {
			t.Warnings = append(t.Warnings, "its description names "+other+", a tool of another server")
		}
	}
}

// namesOther returns a tool of a server other than alias that text names
// (as alias.tool or its wire name alias__tool), or "". Only servers whose
// alias appears in text are searched.
func (c *Catalog) namesOther(alias, text string) string {
	if c.byServer == nil {
		c.byServer = map[string][]int{}
		for i, t := range c.tools {
			c.byServer[t.Server] = append(c.byServer[t.Server], i)
		}
	}
	for server, idx := range c.byServer {
		if server == alias || !(strings.Contains(text, server+".") || strings.Contains(text, server+"__")) {
			continue
		}
		for _, i := range idx {
			o := c.tools[i]
			if strings.Contains(text, o.Display) || strings.Contains(text, o.Server+"__"+o.Name) {
				return o.Display
			}
		}
	}
	return ""
}
