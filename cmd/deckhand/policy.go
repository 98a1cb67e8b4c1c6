package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"deckhand/apps"
	"deckhand/policy"
	"deckhand/sandbox"
	"deckhand/transport/mcp"
)

// policyReport is the effective policy; --json prints it as is.
type policyReport struct {
	Workspace    string         `json:"workspace"`
	ReadRoots    []string       `json:"read_roots"`
	WriteRoots   []string       `json:"write_roots"`
	AllowExec    bool           `json:"allow_exec"`
	AllowDomains []string       `json:"allow_domains"`
	SecretKeys   []string       `json:"secret_keys"`
	Landlock     int            `json:"landlock_abi"`
	Sandbox      string         `json:"sandbox"`
	Views        string         `json:"views"` // how tools' views (MCP Apps) are confined
	Servers      []policyServer `json:"servers"`
	Warnings     []string       `json:"warnings"`
}

type policyServer struct {
	Alias   string           `json:"alias"`
	Kind    string           `json:"kind"` // sandboxed, unconfined, remote, disabled
	Read    []string         `json:"read,omitempty"`
	Write   []string         `json:"write,omitempty"`
	Network string           `json:"network,omitempty"` // all, none, hosts
	Sandbox *sandbox.Summary `json:"sandbox,omitempty"`
	Secrets []string         `json:"secrets,omitempty"`
	// Granted are the secrets granted it in the servers form
	// (allow_secrets): from the keyring, else the environment.
	Granted []string `json:"granted_secrets,omitempty"`
	Hosts   []string `json:"hosts,omitempty"`
	Roots   []string `json:"roots,omitempty"`
	// OwnHidden are Deckhand's own places inside what the server sees,
	// each replaced by an empty one.
	OwnHidden []policy.OwnPath `json:"own_hidden,omitempty"`
	StateDir  string           `json:"state_dir,omitempty"`
	Unresolve string           `json:"command_error,omitempty"`
}

// runPolicy prints the effective capability policy and the sandbox's state.
func runPolicy(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("policy", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("policy takes no arguments")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	pol := policy.New(cfg, e.getenv)
	rep := policyReport{
		Workspace: pol.Workspace, ReadRoots: pol.Read, WriteRoots: pol.Write, AllowExec: pol.AllowExec,
		AllowDomains: nonNil(pol.Domains), SecretKeys: nonNil(pol.Secrets), Landlock: sandbox.ABI(),
		Servers: []policyServer{}, Warnings: nonNil(pol.Warnings(cfg)),
	}
	rep.Sandbox, rep.Views = "available", apps.Confinement()
	if err := sandbox.Available(); err != nil {
		rep.Sandbox = err.Error()
	}
	paths := &mcp.PathResolver{}
	for _, alias := range slices.Sorted(maps.Keys(cfg.MCP.Servers)) {
		srv := cfg.MCP.Servers[alias]
		ps := policyServer{Alias: alias, Secrets: srv.Secrets, Granted: srv.AllowSecrets}
		switch {
		case srv.Disabled:
			ps.Kind = "disabled"
		case !srv.IsStdio():
			ps.Kind = "remote"
			ps.Hosts = append([]string{hostOf(srv.URL)}, pol.Domains...)
		case !srv.SandboxOn():
			ps.Kind = "unconfined"
		default:
			ps.Kind = "sandboxed"
			path, loginPath, err := paths.LookPath(srv.Command)
			if err != nil {
				ps.Unresolve = err.Error()
			}
			spec, err := pol.ServerSpec(alias, srv, path, mcp.ChildPath(loginPath))
			if err != nil {
				ps.Unresolve = err.Error()
				break
			}
			sum := sandbox.Summarize(spec)
			ps.Read, ps.Write, ps.Roots, ps.StateDir = spec.Read, spec.Write, pol.ServerRoots(srv), pol.StateDir(alias)
			ps.Network, ps.Sandbox = spec.NetworkMode(), &sum
			for _, o := range pol.OwnIn(slices.Concat(spec.Read, spec.Write)) {
				if _, err := os.Stat(o.Path); err == nil { // what is not there has nothing to hide
					ps.OwnHidden = append(ps.OwnHidden, o)
				}
			}
			if len(spec.Hosts) > 0 {
				ps.Hosts = spec.Hosts
			}
		}
		rep.Servers = append(rep.Servers, ps)
	}
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	printPolicy(e, rep)
	return nil
}

func printPolicy(e *env, rep policyReport) {
	w := e.stdout
	state := "exists"
	if _, err := os.Stat(rep.Workspace); err != nil {
		state = "created on first use"
	}
	fmt.Fprintf(w, "Workspace:     %s (%s)\n", rep.Workspace, state)
	fmt.Fprintf(w, "Read roots:    %s\n", strings.Join(rep.ReadRoots, ", "))
	fmt.Fprintf(w, "Write roots:   %s\n", strings.Join(rep.WriteRoots, ", "))
	if rep.AllowExec {
		fmt.Fprintln(w, "Shell (CMD:):  on: each command is asked, then runs sandboxed in the workspace; the built-in shell tool is offered")
	} else {
		fmt.Fprintln(w, "Shell (CMD:):  off, and the built-in shell tool is not offered (policy.allow_exec = true turns both on)")
	}
	fmt.Fprintf(w, "Remote hosts:  each server's own host%s\n", listOr(rep.AllowDomains, "; also ", ""))
	fmt.Fprintf(w, "Secrets:       %s\n", listOr(rep.SecretKeys, "may be passed on: ", "none are passed on (policy.secrets.keys)"))
	if rep.Sandbox == "available" {
		fmt.Fprintf(w, "Sandbox:       namespaces (user, mount, PID, IPC, network) and Landlock ABI %d: files%s%s; a seccomp filter; a keyring of its own\n", rep.Landlock, ifs(rep.Landlock >= 4, ", TCP ports"), ifs(rep.Landlock >= 6, ", signals and abstract sockets"))
	} else {
		fmt.Fprintf(w, "Sandbox:       %s\n", rep.Sandbox)
	}
	fmt.Fprintf(w, "Tool views:    %s\n", rep.Views)
	if len(rep.Servers) > 0 {
		fmt.Fprintf(w, "\nServers:\n")
	}
	for _, s := range rep.Servers {
		switch s.Kind {
		case "sandboxed":
			if s.Sandbox == nil && s.Unresolve != "" {
				fmt.Fprintf(w, "  %s: sandboxed, does not start: %s\n", s.Alias, s.Unresolve)
				continue
			}
			net := map[string]string{"all": "network: all", "none": "network: none (a network of its own)", "hosts": "network: only " + strings.Join(s.Hosts, ", ") + " (through Deckhand's proxy)"}[s.Network]
			fmt.Fprintf(w, "  %s: sandboxed, %s; writes %s (and devices, package caches); told roots %s\n", s.Alias, net, strings.Join(notable(s.Write), ", "), strings.Join(s.Roots, ", "))
			if sb := s.Sandbox; sb != nil {
				socks := "none of the session's"
				if len(sb.Sockets) > 0 {
					socks = strings.Join(sb.Sockets, ", ")
				}
				fmt.Fprintf(w, "      namespaces %s; Landlock ABI %d; sockets: %s\n", strings.Join(sb.Namespaces, ", "), sb.Landlock, socks)
				if sc := sb.Seccomp; sc != nil {
					fmt.Fprintf(w, "      seccomp: %d system calls denied (from %s: the kernel keyring, io_uring, userfaultfd, perf, bpf, ptrace, namespaces and mounts from inside, …)\n", sc.Denied, sc.List)
				}
				if sb.Keyring != "" {
					fmt.Fprintf(w, "      kernel keyring: %s\n", sb.Keyring)
				}
				if len(sb.Hidden) > 0 {
					fmt.Fprintf(w, "      hidden inside what it sees: %s\n", strings.Join(sb.Hidden, ", "))
				}
			}
			if len(s.OwnHidden) > 0 {
				var own []string
				for _, o := range s.OwnHidden {
					own = append(own, o.Path+" ("+o.What+")")
				}
				fmt.Fprintf(w, "      Deckhand's own files inside what it sees, hidden: %s\n", strings.Join(own, ", "))
			} else if s.Unresolve == "" {
				fmt.Fprintln(w, "      Deckhand's own files: none inside what it sees (and none may be named)")
			}
			if len(s.Secrets) > 0 {
				fmt.Fprintf(w, "      secrets passed on: %s\n", strings.Join(s.Secrets, ", "))
			}
			if len(s.Granted) > 0 {
				fmt.Fprintf(w, "      granted in the servers form (from the keyring, else Deckhand's environment): %s\n", strings.Join(s.Granted, ", "))
			}
			if s.Unresolve != "" {
				fmt.Fprintf(w, "      %s\n", s.Unresolve)
			}
		case "unconfined":
			fmt.Fprintf(w, "  %s: UNCONFINED (sandbox = \"off\")\n", s.Alias)
		case "remote":
			fmt.Fprintf(w, "  %s: remote, reached only at %s\n", s.Alias, strings.Join(s.Hosts, ", "))
		default:
			fmt.Fprintf(w, "  %s: %s\n", s.Alias, s.Kind)
		}
	}
	if len(rep.Warnings) > 0 {
		fmt.Fprintf(w, "\nWarnings:\n")
		for _, warn := range rep.Warnings {
			fmt.Fprintf(w, "  ! %s\n", warn)
		}
	}
}

// notable leaves out the devices and package caches every sandbox writes.
func notable(paths []string) []string {
	var out []string
	for _, p := range paths {
		if strings.HasPrefix(p, "/dev/") || strings.Contains(p, "/.npm") || strings.Contains(p, "/.cache/") ||
			strings.Contains(p, "/.local/share/uv") || strings.Contains(p, "/.bun/") {
			continue
		}
		out = append(out, p)
	}
	return out
}

func hostOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndex(u, "@"); i >= 0 {
		u = u[i+1:]
	}
	if h, _, ok := strings.Cut(u, ":"); ok && !strings.HasPrefix(u, "[") {
		return h
	}
	return u
}

func listOr(list []string, prefix, empty string) string {
	if len(list) == 0 {
		return empty
	}
	return prefix + strings.Join(list, ", ")
}

func ifs(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
