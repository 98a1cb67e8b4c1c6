package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrAliasExists is returned by [AddServers] when an alias is already taken.
var ErrAliasExists = errors.New("alias already in the config")

// AddServers appends new [mcp.servers.ALIAS] tables to the config file at
// path, creating the file (mode 0600, as it may hold tokens) and its
// directory when missing. The existing text, comments included, is kept as
// it is. The result is parsed and validated before it replaces the file, so a
// bad entry never reaches disk.
func AddServers(path string, servers map[string]Server) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading config: %w", err)
	}
	current, err := Parse(path, old)
	if err != nil {
		return err
	}
	aliases := make([]string, 0, len(servers))
	for alias := range servers {
		if _, ok := current.MCP.Servers[alias]; ok {
			return fmt.Errorf("%s: mcp.servers.%s: %w", path, alias, ErrAliasExists)
		}
		aliases = append(aliases, alias)
	}
	slices.Sort(aliases)

	var b strings.Builder
	b.Write(old)
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		b.WriteByte('\n')
	}
	for _, alias := range aliases {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		writeServer(&b, alias, servers[alias])
	}
	next := []byte(b.String())
	if _, err := Parse(path, next); err != nil {
		return fmt.Errorf("the new entries would not be valid: %w", err)
	}
	return writeFileAtomic(path, next)
}

// writeServer renders one server table, every key that is set. Strings are
// written as JSON strings, which are valid TOML basic strings.
func writeServer(b *strings.Builder, alias string, s Server) {
	fmt.Fprintf(b, "[mcp.servers.%s]\n", quoteKey(alias))
	str := func(key, v string) {
		if v != "" {
			fmt.Fprintf(b, "%s = %s\n", key, jsonString(v))
		}
	}
	dur := func(key string, d time.Duration) {
		if d != 0 {
			fmt.Fprintf(b, "%s = %q\n", key, d.String())
		}
	}
	boolean := func(key string, v bool) {
		if v {
			fmt.Fprintf(b, "%s = true\n", key)
		}
	}
	str("command", s.Command)
	if len(s.Args) > 0 {
		fmt.Fprintf(b, "args = %s\n", jsonStrings(s.Args))
	}
	if len(s.Env) > 0 {
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		pairs := make([]string, len(keys))
		for i, k := range keys {
			pairs[i] = fmt.Sprintf("%s = %s", quoteKey(k), jsonString(s.Env[k]))
		}
		fmt.Fprintf(b, "env = { %s }\n", strings.Join(pairs, ", "))
	}
	str("cwd", s.Cwd)
	str("sandbox", s.Sandbox)
	list := func(key string, v []string) {
		if len(v) > 0 {
			fmt.Fprintf(b, "%s = %s\n", key, jsonStrings(v))
		}
	}
	list("secrets", s.Secrets)
	list("allow_secrets", s.AllowSecrets)
	list("read", s.Read)
	list("write", s.Write)
	if s.Network.Set {
		fmt.Fprintf(b, "network = %s\n", s.Network.TOML())
	}
	list("sockets", s.Sockets)
	str("url", s.URL)
	str("transport", s.Transport)
	str("auth_token", s.AuthToken)
	str("auth_env", s.AuthEnv)
	dur("timeout", s.Timeout)
	dur("connect_timeout", s.ConnectTimeout)
	boolean("trusted", s.Trusted)
	switch {
	case s.ReadOnly.All:
		b.WriteString("read_only = true\n")
	case len(s.ReadOnly.Tools) > 0:
		fmt.Fprintf(b, "read_only = %s\n", jsonStrings(s.ReadOnly.Tools))
	}
	list("disabled_tools", s.DisabledTools)
	if s.Lazy != nil {
		fmt.Fprintf(b, "lazy = %v\n", *s.Lazy)
	}
	str("connect", s.Connect)
	boolean("disabled", s.Disabled)
}

func jsonString(s string) string {
	out, _ := json.Marshal(s) // a string always marshals
	return string(out)
}

func jsonStrings(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = jsonString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// writeFileAtomic replaces path by renaming a temporary file over it, so a
// crash leaves either the old or the new config, never half of one.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating config directory: %w", err)
	}
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, ".config-*.toml")
	if err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	defer os.Remove(f.Name()) // after a successful rename this is a no-op
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	return nil
}
