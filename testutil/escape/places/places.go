// Package places names where the escape probe (testutil/escape) leaves
// its token to persist and where the escape test looks for it: one list
// for both, so that a place probed is a place checked.
package places

// Persist is where a program leaves something that runs, or is
// read as Deckhand's, once the person logs in or starts a program
// unconfined: shell start-up files, autostart entries, user services,
// desktop entries, Deckhand's config and data, the folders shared with
// the host (/tmp, /var/tmp, /dev/shm, the runtime folder), the package
// caches npx and uvx run from, and the config and hooks of the
// repositories in the default workspace (~/Deckhand and a project in it),
// which git runs. Relative paths are in the home folder; %s is the token.
var Persist = []string{
	".bashrc", ".profile",
	".config/autostart/%s.desktop", ".config/systemd/user/%s.service", ".local/share/applications/%s.desktop",
	".config/deckhand/config.toml", ".local/share/deckhand/%s",
	"/tmp/%s", "/var/tmp/%s", "/dev/shm/%s",
	".npm/%s", ".npm/_npx/%s", ".cache/uv/%s", ".local/share/uv/%s", ".cache/pip/%s", ".cache/node-gyp/%s", ".bun/install/cache/%s",
	"Deckhand/.git/config", "Deckhand/.git/hooks/%s", "Deckhand/project/.git/config", "Deckhand/project/.git/hooks/%s",
}
