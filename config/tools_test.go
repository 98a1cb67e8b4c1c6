package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestToolsTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("[tools]\nenabled = false\ndir = \"~/my-tools\"\n"), 0o644)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	if cfg.Tools.On() || cfg.Tools.DefinitionsDir() != filepath.Join(home, "my-tools") {
		t.Errorf("tools: %+v, dir %s", cfg.Tools, cfg.Tools.DefinitionsDir())
	}
	if (Tools{}).On() != true {
		t.Error("the built-in server is on by default")
	}
	os.WriteFile(path, []byte("[tools]\ndir = \"relative/tools\"\nbogus = 1\n"), 0o644)
	_, err = Load(path)
	if err == nil || !strings.Contains(err.Error(), "tools.dir") || !strings.Contains(err.Error(), "absolute") || !strings.Contains(err.Error(), "tools.bogus") {
		t.Errorf("want tools.dir and tools.bogus reported, got %v", err)
	}
}
