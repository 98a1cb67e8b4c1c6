package tools

import (
	"regexp"
	"slices"
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
// of the model, and about names on one server that look alike: equal but
// for case, or for characters easy to confuse (see skeleton). Names are
// ASCII by then (the catalog leaves out any other), so look-alikes from
// other scripts cannot occur. Called with c.tools sorted by display name.
func (c *Catalog) flag() {
	alike := map[string][]int{}
	for i := range c.tools {
		t := &c.tools[i]
		key := t.Server + "." + skeleton(t.Name)
		alike[key] = append(alike[key], i)
	}
	for _, idx := range alike {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			for _, j := range idx {
				if i == j {
					continue
				}
				a, b := c.tools[i], c.tools[j]
				if strings.EqualFold(a.Name, b.Name) {
					c.tools[i].Warnings = append(c.tools[i].Warnings, "its name differs only in case from "+b.Display+" on the same server")
				} else {
					c.tools[i].Warnings = append(c.tools[i].Warnings, "its name looks like "+b.Display+" on the same server (characters easy to confuse: "+confusedIn(a.Name, b.Name)+")")
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

// confusables are the ASCII sequences a reader easily takes for another, and
// what skeleton makes of each. Longer ones come first.
var confusables = strings.NewReplacer("rn", "m", "vv", "w", "cl", "d", "0", "o", "1", "l", "i", "l", "-", "_", ".", "_")

// skeleton is what a name looks like to a hurried reader: lower case, and
// each confusable replaced by what it is taken for.
func skeleton(name string) string {
	return confusables.Replace(strings.ToLower(name))
}

// confusedIn names the characters that make a and b look alike, for the
// warning: those that differ, position by position, when the names are as
// long; otherwise the multi-letter look-alikes (rn and m) they hold.
func confusedIn(a, b string) string {
	var out []string
	add := func(x, y string) {
		if x > y {
			x, y = y, x
		}
		if p := x + " and " + y; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if len(la) == len(lb) {
		for i := range len(la) {
			if la[i] != lb[i] {
				add(la[i:i+1], lb[i:i+1])
			}
		}
	} else {
		for _, p := range [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}} {
			if (strings.Contains(la, p[0]) && strings.Contains(lb, p[1])) || (strings.Contains(la, p[1]) && strings.Contains(lb, p[0])) {
				out = append(out, p[0]+" and "+p[1])
			}
		}
	}
	if la != a || lb != b {
		out = append(out, "case")
	}
	if len(out) == 0 {
		return "several"
	}
	return strings.Join(out, ", ")
}
