package config

import (
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

var (
	aliasJunk   = regexp.MustCompile(`[^A-Za-z0-9-]+`)
	serverNoise = regexp.MustCompile(`^(mcp-server-|server-|mcp-)|(-mcp-server|-mcp|-server)$`)
	// genericPart are folders that say nothing of what they hold.
	genericPart = map[string]bool{"dist": true, "build": true, "lib": true, "src": true, "bin": true, "out": true, "node_modules": true, "tmp": true}
	// entryPoint are the names of a package's entry point: the package
	// is named by its folder, not by them.
	entryPoint = map[string]bool{"index": true, "main": true, "server": true, "cli": true, "app": true, "start": true, "run": true, "entry": true, "mod": true, "__main__": true, "stdio": true}
)

// DeriveAlias picks an alias from a URL's host or a command's package name:
// https://api.example.com/mcp is "api-example-com"; npx -y
// @modelcontextprotocol/server-filesystem ~/notes is "filesystem"; node
// /tmp/x.js is "x" (a script is named by its file), and node
// ~/weather/build/index.js "weather" (a package's entry point by its
// package's folder). Whatever it is given, the alias is valid ("server"
// when nothing else is).
func DeriveAlias(srv Server) string {
	var base string
	if srv.URL != "" {
		if u, err := url.Parse(srv.URL); err == nil {
			base = u.Hostname()
			if base == "localhost" || base == "127.0.0.1" || base == "::1" {
				base = "local-" + u.Port()
			}
		}
		base = tidyAlias(base)
	} else {
		var names []string
		for _, a := range append(slices.Clone(srv.Args), srv.Command) {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if n := tidyAlias(nameOf(a)); n != "" {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			base = names[0]
		}
		for _, n := range names {
			if strings.Contains(n, "mcp") || strings.Contains(n, "server") {
				base = n
				break
			}
		}
		if trimmed := serverNoise.ReplaceAllString(base, ""); trimmed != "" {
			base = trimmed
		}
	}
	a := base
	if len(a) > 32 {
		a = strings.Trim(a[:32], "-")
	}
	if ValidAlias(a) != nil {
		return "server"
	}
	return a
}

// tidyAlias is s lowercased, each run of what an alias may not hold (and
// of '_', so that "__" never appears) one '-', without '-' at the ends.
func tidyAlias(s string) string {
	return strings.Trim(aliasJunk.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// nameOf is the package or program an argument names: the last part of
// @scope/name@1.2; a script's or program's own name (x of /tmp/x.js); or,
// for a package's entry point (dist/index.js, main.py), the last
// meaningful folder above it. "" when it names nothing.
func nameOf(arg string) string {
	if strings.HasPrefix(arg, "@") {
		arg = arg[strings.LastIndexByte(arg, '/')+1:]
		if i := strings.IndexByte(arg, '@'); i >= 0 { // name@version
			arg = arg[:i]
		}
		return arg
	}
	var parts []string
	for _, p := range strings.FieldsFunc(arg, func(r rune) bool { return r == '/' || r == '\\' }) {
		if p != "." && p != ".." {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	last := parts[len(parts)-1]
	if i := strings.IndexByte(last, '@'); i > 0 { // name@version
		last = last[:i]
	}
	stem := strings.TrimSuffix(last, filepath.Ext(last))
	if len(parts) == 1 || (stem != "" && !genericPart[stem] && !entryPoint[stem]) {
		return stem
	}
	for i := len(parts) - 2; i >= 0; i-- {
		if p := parts[i]; !genericPart[p] && filepath.Ext(p) == "" {
			return p
		}
	}
	return stem
}
