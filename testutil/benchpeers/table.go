package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

var peerNames = []string{"mcphost", "crush"}

// raw lists every measure in the order of the raw table, with its unit.
var raw = []struct{ key, label, unit string }{
	{"answer1", "time to the answer, 1 server", "s"},
	{"tools1", "tools in the first model request carrying tools, 1 server", ""},
	{"answer19", "time to the answer, 19 servers all ready", "s"},
	{"tools19", "tools in the first model request carrying tools, 19 servers", ""},
	{"whole1", "whole run to exit, 1 server", "s"},
	{"whole19", "whole run to exit, 19 servers all ready", "s"},
	{"round", "one round of the 8-round tool loop, 31 servers", "s"},
	{"size31", "first model request, 31 servers", "B"},
	{"tools31", "tool definitions in that request", ""},
	{"count31", "processes in the host's tree at the peak, 31 servers", ""},
	{"rss31", "RSS of that tree at the peak", "MB"},
	{"hostrss31", "RSS of the host's own process then", "MB"},
	{"answer31", "time to the answer, 31 servers all ready (includes the 0.3 s the bench holds each host's first request carrying tools to sample)", "s"},
	{"whole31", "whole run to exit, 31 servers all ready (same runs)", "s"},
	{"hang", "time to the answer with a server that never initializes", "s"},
	{"scale1", "start to the first model request carrying tools, 1 server of 10 tools", "s"},
	{"toolsscale1", "tools in that request", ""},
	{"scale10", "the same, 10 servers of 10 tools", "s"},
	{"toolsscale10", "tools in that request", ""},
	{"scale100", "the same, 100 servers of 10 tools", "s"},
	{"toolsscale100", "tools in that request", ""},
	{"rss5000", "RSS of the host's own process, 100 servers of 50 tools, at its first model request carrying tools", "MB"},
	{"tools5000", "tools in that request", ""},
}

func (b *bench) table(w io.Writer) {
	fmt.Fprintln(w, "Deckhand ÷ peer: the median of the ratios paired run by run (run i of Deckhand over run i of the peer; below 1: Deckhand is faster or smaller). Times are to a host's first model request carrying tools or to its answer; every measure but the 1-server ones and the hung server has every server ready first.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| measure | vs mcphost | vs crush |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	rows := []struct {
		label string
		keys  []string
	}{
		{"time to the answer, 1 / 19 servers (19: all ready)", []string{"answer1", "answer19"}},
		{"whole `chat -p`, 1 / 19 servers", []string{"whole1", "whole19"}},
		{"each round of an 8-round tool loop (" + b.catalog() + ")", []string{"round"}},
		{"first model request size with " + b.catalog() + " on 31 servers", []string{"size31"}},
		{"process tree (count and RSS) with 31 servers", []string{"count31", "rss31", "hostrss31"}},
		{"a server that never initializes (time to answer)", []string{"hang"}},
		{"start to the first request carrying tools, 1 / 10 / 100 servers of 10 tools", []string{"scale1", "scale10", "scale100"}},
		{"RSS of the host's own process with " + b.toolCount("tools5000", "5,000 tools") + " (100 servers)", []string{"rss5000"}},
	}
	for _, row := range rows {
		cells := []string{row.label}
		for _, p := range peerNames {
			cells = append(cells, b.cell(row.keys, p))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}

	if b.res["scale10"] != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Each host's own growth with servers (start to the first request carrying tools, paired run by run; linear is 10×):")
		fmt.Fprintln(w)
		for _, h := range b.hosts {
			var parts []string
			for _, p := range [][2]string{{"scale10", "scale1"}, {"scale100", "scale10"}} {
				r, n := b.growth(h.name(), p[0], p[1])
				if n == 0 {
					parts = append(parts, fmt.Sprintf("%s ÷ %s not measured", strings.TrimPrefix(p[0], "scale"), strings.TrimPrefix(p[1], "scale")))
					continue
				}
				parts = append(parts, fmt.Sprintf("%s ÷ %s servers %.2f× (%d runs)", strings.TrimPrefix(p[0], "scale"), strings.TrimPrefix(p[1], "scale"), r, n))
			}
			fmt.Fprintf(w, "- %s: %s\n", h.name(), strings.Join(parts, ", "))
		}
	}

	fmt.Fprintln(w)
	fmt.Fprintln(w, "Raw: min / median / max (runs that gave a value of the runs made).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| measure | deckhand | mcphost | crush |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	for _, m := range raw {
		if b.res[m.key] == nil {
			continue
		}
		cells := []string{m.label}
		for _, h := range append([]string{"deckhand"}, peerNames...) {
			cells = append(cells, b.rawCell(m.key, m.unit, h))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	for _, m := range []string{"warm", "answer1", "answer19", "tree", "loop"} {
		if e, ok := b.early[m]; ok {
			b.note("deckhand: in %d %s runs it asked the model with up to %d of %d servers still connecting (its --wait grace, 2 s by default, ran out first; their tools join the next request)", e.runs, m, e.most, e.servers)
		}
	}
	for _, h := range append([]string{"deckhand"}, peerNames...) {
		for _, m := range []string{"warm", "answer1", "answer19", "tree", "loop", "hang"} {
			if l, ok := b.left[h+" "+m]; ok {
				b.note("%s: after %d %s runs, up to %d of its processes were still running when it had exited (ended by the bench before the next run)", h, l.runs, m, l.most)
			}
		}
	}
	if len(b.notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Notes:")
		for _, n := range b.notes {
			fmt.Fprintln(w, "- "+n)
		}
	}
}

// catalog names the tool count of the 31-server catalog as a host that
// sends every definition showed it (the most definitions any first
// request carried).
func (b *bench) catalog() string {
	if b.toolCount("tools31", "") == "" {
		return "every server's tools"
	}
	return b.toolCount("tools31", "")
}

// toolCount is the most tool definitions any host's first request of a
// measure carried ("N tools"), or def when none was seen.
func (b *bench) toolCount(key, def string) string {
	most := 0.0
	for _, s := range b.res[key] {
		for _, v := range s.vals() {
			most = math.Max(most, v)
		}
	}
	if most < 100 {
		return def
	}
	return fmt.Sprintf("%.0f tools", most)
}

// cell is the ratio cell of one row against one peer: the ratios of its
// measures joined by " / ", or why there is none.
func (b *bench) cell(keys []string, peer string) string {
	if _, ok := b.missing[peer]; ok {
		return "not measured: " + peer + " is not installed (see above)"
	}
	if keys[0] == "count31" {
		return fmt.Sprintf("count %s, RSS %s (the host process alone: RSS %s)",
			b.ratio("count31", peer), b.ratio("rss31", peer), b.ratio("hostrss31", peer))
	}
	var parts []string
	for _, k := range keys {
		parts = append(parts, b.ratio(k, peer))
	}
	return strings.Join(parts, " / ")
}

func shortWhy(s string) string { return oneLine(s, 120) }

func (b *bench) ratio(key, peer string) string {
	ms := b.res[key]
	if ms == nil {
		return "not measured (left out by -only)"
	}
	d, p := ms["deckhand"], ms[peer]
	if p == nil || len(p.byRun) == 0 {
		why := "no run"
		if p != nil && len(p.fails) > 0 {
			why = p.fails[0]
		}
		return "not measured: " + peer + ": " + shortWhy(why)
	}
	if d == nil || len(d.byRun) == 0 {
		why := "no run"
		if d != nil && len(d.fails) > 0 {
			why = d.fails[0]
		}
		return "not measured: deckhand: " + shortWhy(why)
	}
	_, dm, _ := stats(d.vals())
	_, pm, _ := stats(p.vals())
	limit := b.o.limit.Seconds()
	var s string
	r, n := paired(d.byRun, p.byRun)
	switch {
	case n > 0:
		s = fmt.Sprintf("%.2f×", r)
		if total := max(len(d.byRun), len(p.byRun)); n < total {
			s += fmt.Sprintf(" (%d paired runs)", n)
		}
	case math.IsInf(dm, 1) && math.IsInf(pm, 1):
		s = fmt.Sprintf("both > %.0f s", limit)
	case math.IsInf(pm, 1):
		s = fmt.Sprintf("< %.2g× (%s > %.0f s)", dm/limit, peer, limit)
	case math.IsInf(dm, 1):
		s = fmt.Sprintf("> %.2g× (deckhand > %.0f s)", limit/pm, limit)
	case pm == 0:
		s = "n/a (peer 0)"
	default:
		s = fmt.Sprintf("%.2f×", dm/pm)
	}
	if f := len(d.fails) + len(p.fails); f > 0 {
		s += fmt.Sprintf(" (%d failed runs)", f)
	}
	return s
}

func (b *bench) rawCell(key, unit, host string) string {
	if _, ok := b.missing[host]; ok {
		return "not installed"
	}
	s := b.res[key][host]
	if s == nil {
		return "–"
	}
	vals := s.vals()
	total := len(vals) + len(s.fails)
	if len(vals) == 0 {
		return fmt.Sprintf("0/%d: %s", total, shortWhy(s.fails[0]))
	}
	lo, med, hi := stats(vals)
	out := fmt.Sprintf("%s / %s / %s%s (%d/%d)", num(lo, unit, b), num(med, unit, b), num(hi, unit, b), unitSuffix(unit), len(vals), total)
	if len(s.fails) > 0 {
		out += "; " + shortWhy(s.fails[0])
	}
	return out
}

func num(v float64, unit string, b *bench) string {
	if math.IsInf(v, 1) {
		return fmt.Sprintf(">%.0f", b.o.limit.Seconds())
	}
	switch unit {
	case "s":
		return fmt.Sprintf("%.3f", v)
	case "MB":
		return fmt.Sprintf("%.0f", v/(1<<20))
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " " + unit
}
