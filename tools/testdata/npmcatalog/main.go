// Command npmcatalog records the tools/list answers of real MCP servers from
// npm, with their initialize instructions, as the retrieval benchmark's
// npm catalog (tools/testdata/npm): definitions nobody here wrote.
//
// It starts each server over stdio with node, as a client would, and writes
// one JSON file per server. Servers that want a key to call their API get a
// dummy one: listing tools does not use it.
//
//	go run ./tools/testdata/npmcatalog NODE_MODULES...
//
// (run from the module; each NODE_MODULES is a folder holding
// @modelcontextprotocol/server-*, the first one found wins.)
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one npm package to record: its alias in the catalog, its
// arguments and the environment it will not start without.
type server struct {
	alias, pkg string
	args, env  []string
}

var servers = []server{
	{alias: "everything", pkg: "server-everything", args: []string{"stdio"}},
	{alias: "filesystem", pkg: "server-filesystem", args: []string{"/tmp"}},
	{alias: "memory", pkg: "server-memory"},
	{alias: "thinking", pkg: "server-sequential-thinking"},
	{alias: "github", pkg: "server-github", env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=dummy"}},
	{alias: "gitlab", pkg: "server-gitlab", env: []string{"GITLAB_PERSONAL_ACCESS_TOKEN=dummy"}},
	{alias: "slack", pkg: "server-slack", env: []string{"SLACK_BOT_TOKEN=dummy", "SLACK_TEAM_ID=dummy"}},
	{alias: "maps", pkg: "server-google-maps", env: []string{"GOOGLE_MAPS_API_KEY=dummy"}},
	{alias: "brave", pkg: "server-brave-search", env: []string{"BRAVE_API_KEY=dummy"}},
	{alias: "postgres", pkg: "server-postgres", args: []string{"postgresql://localhost:1/none"}},
}

// record is what a file holds.
type record struct {
	Package      string      `json:"package"`
	Version      string      `json:"version"`
	License      string      `json:"license"`
	Server       string      `json:"server"` // the name it gives in initialize
	Instructions string      `json:"instructions,omitempty"`
	Tools        []*sdk.Tool `json:"tools"`
}

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: npmcatalog NODE_MODULES...")
	}
	out := filepath.Join("tools", "testdata", "npm")
	if err := os.MkdirAll(out, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, s := range servers {
		dir := ""
		for _, nm := range os.Args[1:] {
			d := filepath.Join(nm, "@modelcontextprotocol", s.pkg)
			if _, err := os.Stat(d); err == nil {
				dir = d
				break
			}
		}
		if dir == "" {
			log.Printf("%s: not installed, skipped", s.pkg)
			continue
		}
		rec, err := dump(dir, s)
		if err != nil {
			log.Printf("%s: %v", s.pkg, err)
			continue
		}
		data, _ := json.MarshalIndent(rec, "", "  ")
		if err := os.WriteFile(filepath.Join(out, s.alias+".json"), append(data, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
		log.Printf("%s %s: %d tools", s.pkg, rec.Version, len(rec.Tools))
	}
}

func dump(dir string, s server) (*record, error) {
	var pkg struct {
		Name, Version string
		License       string
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, fmt.Errorf("package.json: %w", err)
	}
	if pkg.License == "SEE LICENSE IN LICENSE" {
		pkg.License = "MIT (its README; the package points at the LICENSE of modelcontextprotocol/servers)"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command("node", append([]string{filepath.Join(dir, "dist", "index.js")}, s.args...)...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Dir = os.TempDir()
	client := sdk.NewClient(&sdk.Implementation{Name: "npmcatalog", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	defer cs.Close()
	rec := &record{Package: pkg.Name, Version: pkg.Version, License: pkg.License}
	if r := cs.InitializeResult(); r != nil {
		rec.Instructions = r.Instructions
		if r.ServerInfo != nil {
			rec.Server = r.ServerInfo.Name
		}
	}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		rec.Tools = append(rec.Tools, t)
	}
	return rec, nil
}
