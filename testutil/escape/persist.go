package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"deckhand/testutil/escape/places"
)

// probePersist appends a line holding token to each of places.Persist
// (creating the file and its folders where needed; %s is token). It is
// never an escape by itself (a write may land in the sandbox's own
// copy): the session looks for token on the host.
func probePersist(token string) finding {
	home := os.Getenv("HOME")
	var wrote, failed []string
	list := places.Persist
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		list = append(list, filepath.Join(rt, "%s"))
	}
	for _, p := range list {
		if strings.Contains(p, "%s") {
			p = fmt.Sprintf(p, token)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(home, p)
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			_, err = fmt.Fprintf(f, "\n# %s\n", token)
			f.Close()
		}
		if err != nil {
			failed = append(failed, err.Error())
			continue
		}
		wrote = append(wrote, p)
	}
	return finding{Detail: fmt.Sprintf("wrote %s (an escape if the host sees them); failed: %s", strings.Join(wrote, ", "), strings.Join(failed, "; "))}
}

// probeLinks plants, in the folder it works in (a folder it may write),
// a symbolic link and a hard link to files outside what it was given (the
// home folder's key and start-up file), and reads and writes through
// them. The links are removed after.
func probeLinks() finding {
	home := os.Getenv("HOME")
	var got, tried []string
	for _, l := range []struct {
		target string
		write  bool
	}{{".ssh/id_ed25519", false}, {".bashrc", true}} {
		target := filepath.Join(home, l.target)
		for _, kind := range []string{"symlink", "hard link"} {
			name := fmt.Sprintf("escape-%s-%d", strings.ReplaceAll(kind, " ", "-"), os.Getpid())
			mk := os.Symlink
			if kind == "hard link" {
				mk = os.Link
			}
			if err := mk(target, name); err != nil {
				tried = append(tried, fmt.Sprintf("%s to ~/%s: %v", kind, l.target, err))
				continue
			}
			if l.write {
				f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
				if err == nil {
					_, err = f.WriteString("") // opened for writing is enough
					f.Close()
				}
				if err == nil {
					got = append(got, fmt.Sprintf("opened ~/%s for writing through a %s", l.target, kind))
				} else {
					tried = append(tried, fmt.Sprintf("writing ~/%s through a %s: %v", l.target, kind, err))
				}
			} else if data, err := os.ReadFile(name); err == nil && len(data) > 0 {
				got = append(got, fmt.Sprintf("read ~/%s through a %s (%d bytes)", l.target, kind, len(data)))
			} else {
				tried = append(tried, fmt.Sprintf("reading ~/%s through a %s: %v", l.target, kind, err))
			}
			os.Remove(name)
		}
	}
	if len(got) == 0 {
		return finding{Detail: strings.Join(tried, "; ")}
	}
	return finding{Escaped: true, Detail: strings.Join(got, "; ")}
}
