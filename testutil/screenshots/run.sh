#!/usr/bin/env bash
# Runs the real deckhand binary on a virtual X display against a scripted
# model (aimock, answering from fixtures.json) and real MCP servers, drives
# it with xdotool as a person would, and saves PNGs of: the chat with tool
# cards, the approval dialog, the servers panel and the quick prompt.
#
# Usage: testutil/screenshots/run.sh BIN OUTDIR   (make screenshots does this)
set -euo pipefail

BIN=$(realpath "$1")
OUT=$(realpath -m "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
PEERS=$(cd "$HERE/.." && pwd)/node_modules
NODE=$PEERS/.bin/node
[ -x "$NODE" ] || NODE=node
mkdir -p "$OUT"
WORK=$(mktemp -d)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() { # wait_for SECONDS COMMAND...
	local until=$((SECONDS + $1)); shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $until ] || { echo "timed out: $*" >&2; exit 1; }
		sleep 0.2
	done
}

# A folder of notes for the filesystem server.
NOTES=$WORK/notes
mkdir -p "$NOTES"
printf '# This week\n\n- [ ] send the invoice\n- [ ] book the train\n- [x] water the plants\n' >"$NOTES/todo.md"
printf '# Ideas\n\nA desktop agent that asks before it acts.\n' >"$NOTES/ideas.md"
printf '# Monday meeting\n\nShip the window.\n' >"$NOTES/meeting.md"

# The scripted model.
sed "s#NOTES#$NOTES#g" "$HERE/fixtures.json" >"$WORK/fixtures.json"
MODEL_PORT=$(free_port)
"$NODE" "$PEERS/@copilotkit/aimock/dist/cli.js" -p "$MODEL_PORT" -f "$WORK/fixtures.json" --log-level warn >"$WORK/aimock.log" 2>&1 &
PIDS+=($!)
wait_for 30 bash -c "exec 3<>/dev/tcp/127.0.0.1/$MODEL_PORT"

cat >"$WORK/config.toml" <<TOML
[model]
base_url = "http://127.0.0.1:$MODEL_PORT/v1"
name = "gpt-4o-mini"

[policy]
workspace = "$NOTES"

[mcp]
# The scripted model calls these two by name: sent with every request,
# not left for tool_search (the lazy tool surface).
eager = ["fs.list_directory", "fs.get_file_info"]

[mcp.auto_approve]
"fs.list_directory" = true

[mcp.servers.fs]
command = "$NODE"
args = ["$PEERS/@modelcontextprotocol/server-filesystem/dist/index.js", "$NOTES"]

[mcp.servers.everything]
command = "$NODE"
args = ["$PEERS/@modelcontextprotocol/server-everything/dist/index.js", "stdio"]

[mcp.servers.memory]
command = "$NODE"
args = ["$PEERS/@modelcontextprotocol/server-memory/dist/index.js"]

[mcp.servers.offline]
url = "http://127.0.0.1:9/mcp"
TOML

# A display, and Deckhand on it.
for n in $(seq 97 130); do [ -e /tmp/.X11-unix/X$n ] || break; done
export DISPLAY=:$n
Xvfb "$DISPLAY" -noreset -screen 0 1280x800x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
PIDS+=($!)
wait_for 10 test -e /tmp/.X11-unix/X$n
XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK "$BIN" --config "$WORK/config.toml" --log-level info window >"$WORK/deckhand.log" 2>&1 &
DECKHAND=$!
PIDS+=($DECKHAND)
wait_for 60 grep -q "server=memory.*msg=connected\|msg=connected.*server=memory" "$WORK/deckhand.log"
wait_for 20 xdotool search --name '^Deckhand$'
MAIN=$(xdotool search --name '^Deckhand$' | head -1)

shot() { # shot WINDOW FILE
	sleep "${SETTLE:-1}"
	import -window "$1" "$OUT/$2"
	echo "saved $OUT/$2"
}
focus() { xdotool windowraise "$1" windowfocus --sync "$1" 2>/dev/null || true; }
say() { # say TEXT: type into the message box and press Enter
	focus "$MAIN"
	xdotool mousemove --window "$MAIN" 600 640 click 1
	xdotool type --delay 15 "$1"
	xdotool key Return
}

# The chat: one tool runs by rule, the next asks.
say "Which files are in my notes folder, and how big is todo.md?"
sleep 3
shot "$MAIN" approval.png
# Tab to "Allow once" and press it (Deny is first, and the default).
xdotool key Tab Tab space
sleep 2
# Scroll up a little, to show the tool cards above the start of the answer.
xdotool mousemove --window "$MAIN" 700 300 click --repeat 2 --delay 50 4
xdotool mousemove --window "$MAIN" 135 400 # off the transcript: no hover highlight
shot "$MAIN" chat.png

# The servers panel, in the main window in the chat's place; Escape
# brings the chat back.
xdotool mousemove --window "$MAIN" 135 657 click 1
SETTLE=2 shot "$MAIN" servers.png
focus "$MAIN"
xdotool key Escape

# The settings (Ctrl+,), then Escape closes them.
focus "$MAIN"
xdotool mousemove --window "$MAIN" 600 640 click 1
xdotool key ctrl+comma
SETTLE=2 shot "$MAIN" settings.png
focus "$MAIN"
xdotool key Escape

# The quick prompt (Ctrl+K, as the tray's "Quick prompt…" does).
focus "$MAIN"
xdotool key ctrl+k
wait_for 10 xdotool search --name '^Deckhand: quick prompt$'
QUICK=$(xdotool search --name '^Deckhand: quick prompt$' | head -1)
focus "$QUICK"
xdotool type --delay 15 "How do I say good morning in French?"
xdotool key Return
SETTLE=2 shot "$QUICK" quick-prompt.png

# A fresh install: no config, an empty home. Deckhand offers to choose a
# model.
kill "$DECKHAND"
wait "$DECKHAND" 2>/dev/null || true
FRESH=$WORK/fresh
mkdir -p "$FRESH/home" "$FRESH/config" "$FRESH/data"
HOME=$FRESH/home XDG_CONFIG_HOME=$FRESH/config XDG_DATA_HOME=$FRESH/data "$BIN" >"$WORK/fresh.log" 2>&1 &
PIDS+=($!)
wait_for 20 xdotool search --name '^Deckhand$'
FIRST=$(xdotool search --name '^Deckhand$' | head -1)
SETTLE=2 shot "$FIRST" first-run.png
