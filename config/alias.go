package config

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	aliasJunk   = regexp.MustCompile(`[^A-Za-z0-9-]+`)
	serverNoise = regexp.MustCompile(`^(mcp-server-|server-|mcp-)|(-mcp-server|-mcp|-server)$`)
	genericPart = map[string]bool{"dist": true, "build": true, "lib": true, "src": true, "bin": true, "out": true, "node_modules": true, ".": true, "..": true}
)

// DeriveAlias picks an alias from a URL's host or a command's package name:
// https://api.example.com/mcp is "api-example-com"; npx -y
// @modelcontextprotocol/server-filesystem ~/notes is "filesystem".
func DeriveAlias(srv Server) string {
	var base string
	if srv.URL != "" {
		if u, err := url.Parse(srv.URL); err == nil {
			base = u.Hostname()
			if base == "localhost" || base == "127.0.0.1" || base == "::1" {
				base = "local-" + u.Port()
			}
		}
	} else {
		var names []string
		for _, a := range srv.Args {
			if !strings.HasPrefix(a, "-") {
				names = append(names, nameOf(a))
			}
		}
		names = append(names, nameOf(srv.Command))
		base = names[0]
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
	a := strings.Trim(aliasJunk.ReplaceAllString(strings.ToLower(base), "-"), "-")
	if len(a) > 32 {
		a = strings.Trim(a[:32], "-")
	}
	if ValidAlias(a) != nil {
		return "server"
	}
	return a
}

// nameOf is the package or program an argument names: the last part of
// @scope/name@1.2, or the last meaningful directory of a path to a script.
func nameOf(arg string) string {
	if strings.HasPrefix(arg, "@") {
		arg = arg[strings.LastIndexByte(arg, '/')+1:]
	} else if strings.Contains(arg, "/") {
		parts := strings.Split(strings.Trim(arg, "/"), "/")
		arg = parts[len(parts)-1]
		for i := len(parts) - 1; i >= 0; i-- {
			if p := parts[i]; !genericPart[p] && filepath.Ext(p) == "" {
				arg = p
				break
			}
		}
	}
	if i := strings.IndexByte(arg, '@'); i > 0 { // name@version
		arg = arg[:i]
	}
	return strings.TrimSuffix(arg, filepath.Ext(arg))
}
