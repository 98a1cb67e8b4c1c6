#!/usr/bin/env bash
# Deckhand's tray and notifications on a real desktop session bus, not a
# fake: inside dbus-run-session it starts a virtual X display (Xvfb), a
# StatusNotifierWatcher (status-notifier-watcher), a tray host that draws
# the items (gtk-sni-tray-standalone), a notification daemon (dunst) and
# dbus-monitor, logging every message on the bus. Then it runs the real
# deckhand binary with an empty home, a scripted model (aimock, answering
# from fixtures.json) and a test MCP server (testutil/stdioserver), drives
# it with xdotool as a person would, and checks, in the bus log and on the
# screen:
#
#  1. Deckhand registers a StatusNotifierItem with the watcher and the tray
#     host reads it and draws its icon; clicking the icon opens the menu,
#     whose items (Show Deckhand, Quick prompt…, Quit) come over
#     com.canonical.dbusmenu; choosing Quick prompt… opens the quick
#     prompt, where a question makes the model write a file (asked, allowed
#     from the keyboard) and the call shows above the answer.
#  2. An approval requested while Deckhand is not the window in front (the
#     model runs a slow tool, meanwhile another window takes the focus)
#     sends org.freedesktop.Notifications.Notify, and dunst shows it.
#  3. Quit in the tray menu ends Deckhand.
#
# Screenshots: OUTDIR/tray-menu.png, OUTDIR/tray-quick-prompt.png and
# OUTDIR/approval-notification.png. Logs (dbus.log, deckhand.log, …) go to
# LOGDIR (default: a temporary folder, removed unless a check failed).
#
# Usage: testutil/desktop/run.sh BIN OUTDIR [LOGDIR]   (make desktop-check)
# Exit status: 0 every check passed, 1 one failed, 77 a program it needs is
# missing (nothing was run). STDIOSERVER may name a built
# testutil/stdioserver; otherwise it is built here with go.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PEERS=$ROOT/testutil/node_modules
AIMOCK=$PEERS/@copilotkit/aimock/dist/cli.js

if [ $# -lt 2 ]; then
	echo "usage: $0 BIN OUTDIR [LOGDIR]" >&2
	exit 2
fi

# What it needs. The Debian packages are in the Makefile's
# DESKTOP_APT_PACKAGES.
missing=()
for p in dbus-run-session dbus-monitor dbus-send Xvfb status-notifier-watcher gtk-sni-tray-standalone dunst xdotool import convert; do
	command -v "$p" >/dev/null 2>&1 || missing+=("$p")
done
NODE=$PEERS/.bin/node
[ -x "$NODE" ] || NODE=$(command -v node || true)
[ -n "$NODE" ] || missing+=(node)
[ -f "$AIMOCK" ] || missing+=("$AIMOCK (make setup-peers)")
if [ ${#missing[@]} -gt 0 ]; then
	echo "desktop check skipped: missing ${missing[*]} (make desktop-check installs them)" >&2
	exit 77
fi

# Everything below runs on a session bus of its own.
if [ -z "${DECKHAND_DESKTOP_BUS:-}" ]; then
	DECKHAND_DESKTOP_BUS=1 exec dbus-run-session -- "$0" "$@"
fi

BIN=$(realpath "$1")
OUT=$(realpath -m "$2")
mkdir -p "$OUT"
WORK=$(mktemp -d)
KEEP_LOGS=${3:-}
LOGS=$(realpath -m "${KEEP_LOGS:-$WORK/logs}")
mkdir -p "$LOGS"
PIDS=()
FAILED=0
cleanup() {
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[i]}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ "$FAILED" = 0 ] && [ -z "$KEEP_LOGS" ]; then
		rm -rf "$WORK"
	else
		rm -rf "$WORK/home" "$WORK/data"
		echo "logs kept in $LOGS" >&2
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

say() { echo "desktop: $*"; }
fail() {
	FAILED=1
	echo "desktop: FAILED: $*" >&2
	for f in deckhand.log tray.log dunst.log watcher.log; do
		[ -s "$LOGS/$f" ] && { echo "--- $f (last lines)" >&2; tail -n 15 "$LOGS/$f" >&2; }
	done
	exit 1
}
# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds, or fail.
wait_for() {
	local until=$((SECONDS + $1)) what=$2
	shift 2
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt "$until" ] || fail "timed out waiting for $what"
		sleep 0.2
	done
}
has_name() { # has_name NAME: someone owns NAME on the session bus
	dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q "boolean true"
}
in_log() { grep -q -- "$1" "$LOGS/dbus.log"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# No accessibility bus, no Wayland: only X and this session bus.
export NO_AT_BRIDGE=1 GTK_A11Y=none
unset WAYLAND_DISPLAY
export XDG_RUNTIME_DIR=$WORK/run
mkdir -m 0700 "$XDG_RUNTIME_DIR"

# The display. Xvfb picks a free number itself.
Xvfb -displayfd 5 -noreset -screen 0 1280x800x24 -nolisten tcp 5>"$WORK/display" >"$LOGS/xvfb.log" 2>&1 &
PIDS+=($!)
wait_for 20 "Xvfb" test -s "$WORK/display"
export DISPLAY=:$(head -1 "$WORK/display")

# A desktop's background, and another application's window for later.
convert -size 1280x800 gradient:'#4a5568-#1a202c' "$WORK/background.png"
display -window root "$WORK/background.png" || true # it sets it, then exits 1
convert -size 900x372 xc:'#f4f5f7' -fill '#2d3748' -pointsize 22 -annotate +28+48 'Another application' \
	-fill '#718096' -pointsize 15 -annotate +28+84 'in front, with the keyboard focus, while Deckhand works' "$WORK/other.png"

# Every message on the bus, from here on.
dbus-monitor --session >"$LOGS/dbus.log" 2>&1 &
PIDS+=($!)
wait_for 10 "dbus-monitor" grep -q "member=NameAcquired\|member=BecomeMonitor" "$LOGS/dbus.log"

# The desktop: the watcher first, then the tray host, then notifications.
start_tray() { # the watcher, then the host: a panel starting
	status-notifier-watcher >>"$LOGS/watcher.log" 2>&1 &
	WATCHER=$!
	PIDS+=($WATCHER)
	wait_for 20 "the StatusNotifierWatcher on the bus" has_name org.kde.StatusNotifierWatcher
	gtk-sni-tray-standalone --top --end --size 32 --color "#1a1d23" >>"$LOGS/tray.log" 2>&1 &
	TRAY=$!
	PIDS+=($TRAY)
}
start_tray
wait_for 20 "the tray host to register with the watcher" in_log "member=RegisterStatusNotifierHost"
dunst -conf "$HERE/dunstrc" >"$LOGS/dunst.log" 2>&1 &
PIDS+=($!)
wait_for 20 "dunst on the bus" has_name org.freedesktop.Notifications
HOMEDIR=$WORK/home
WORKSPACE=$HOMEDIR/Deckhand
mkdir -p "$WORKSPACE" "$WORK/config/deckhand" "$WORK/data"
# A desktop session's keyring, unlocked, where Deckhand looks for the
# model's key: without it, the Secret Service that D-Bus starts on demand
# would be locked and ask to be unlocked.
if command -v gnome-keyring-daemon >/dev/null 2>&1; then
	printf '\n' | HOME=$HOMEDIR XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/config \
		gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>"$LOGS/keyring.log"
fi
say "desktop up on $DISPLAY: watcher, tray host, dunst"

# The model and the MCP server.
sed "s#WORKSPACE#$WORKSPACE#g" "$HERE/fixtures.json" >"$WORK/fixtures.json"
MODEL_PORT=$(free_port)
"$NODE" "$AIMOCK" -p "$MODEL_PORT" -f "$WORK/fixtures.json" --log-level warn >"$LOGS/aimock.log" 2>&1 &
PIDS+=($!)
wait_for 30 "aimock" bash -c "exec 3<>/dev/tcp/127.0.0.1/$MODEL_PORT"
SERVER=${STDIOSERVER:-}
if [ -z "$SERVER" ]; then
	# In a folder of its own: the sandbox lets a server read its command's
	# folder, never one holding the home folder.
	SERVER=$WORK/bin/stdioserver
	(cd "$ROOT" && go build -o "$SERVER" ./testutil/stdioserver)
fi
cat >"$WORK/config/deckhand/config.toml" <<TOML
[model]
base_url = "http://127.0.0.1:$MODEL_PORT/v1"
name = "gpt-4o-mini"

[mcp.servers.s]
command = "$SERVER"
args = ["-probe"]

[mcp.auto_approve]
"s.slow" = true
TOML

# Deckhand, with an empty home, as a person would start it.
HOME=$HOMEDIR XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data XDG_CACHE_HOME=$WORK/cache \
	"$BIN" --log-level info >"$LOGS/deckhand.log" 2>&1 &
DECKHAND=$!
PIDS+=($DECKHAND)
wait_for 60 "the MCP server to connect" grep -q "msg=connected" "$LOGS/deckhand.log"
wait_for 20 "the main window" xdotool search --name '^Deckhand$'
MAIN=$(xdotool search --name '^Deckhand$' | head -1)
# No window manager places it: put it under the tray bar.
xdotool windowmove "$MAIN" 40 48

shot() { # shot FILE [GEOMETRY]: the screen, or a part of it (WxH+X+Y)
	sleep "${SETTLE:-1}"
	if [ -n "${2:-}" ]; then
		import -window root -crop "$2" +repage "$OUT/$1"
	else
		import -window root "$OUT/$1"
	fi
	say "saved $OUT/$1"
}
focus() { xdotool windowraise "$1" windowfocus --sync "$1" 2>/dev/null || true; }
# The tray icon: the host's bar is 32 px high along the top, its icons at
# the end; Deckhand's is the only one.
ICON_X=1264 ICON_Y=16
# menu_window: the tray host's popup menu, once open.
menu_window() {
	local w
	for w in $(xdotool search --onlyvisible --class gtk-sni-tray-standalone 2>/dev/null); do
		eval "$(xdotool getwindowgeometry --shell "$w")"
		if [ "$Y" -ge 30 ] && [ "$HEIGHT" -gt 40 ]; then
			echo "$w"
			return 0
		fi
	done
	return 1
}

# open_menu WHAT: a click on the icon, until the tray host's menu opens.
# A click that comes before the host's dbusmenu client has built the menu
# it fetched opens nothing (the host logs "dbusmenu_menuitem_send_about_to_show:
# assertion 'DBUSMENU_IS_MENUITEM(mi)' failed", and Deckhand is not asked
# AboutToShow): 2 clicks in 6 right after the icon was drawn, at the
# commit before this wait too. A person clicks again; so does this, at
# most three times, saying so.
open_menu() {
	local try
	for try in 1 2 3; do
		xdotool mousemove "$ICON_X" "$ICON_Y" click 1
		local until=$((SECONDS + 4))
		while [ $SECONDS -lt $until ]; do
			menu_window >/dev/null 2>&1 && return 0
			sleep 0.2
		done
		say "click $try on the icon opened no menu; clicking again"
		xdotool key Escape
	done
	fail "timed out waiting for $1"
}

# 1. The StatusNotifierItem, its icon and its menu.
wait_for 20 "RegisterStatusNotifierItem" in_log "member=RegisterStatusNotifierItem"
ITEM=$(grep -m1 "member=RegisterStatusNotifierItem" "$LOGS/dbus.log" | sed -n 's/.*sender=\([^ ]*\).*/\1/p')
say "Deckhand ($ITEM) registered its StatusNotifierItem"
wait_for 20 "the watcher to announce the item" in_log "member=StatusNotifierItemRegistered"
# The host reads the item's properties (its icon among them) from Deckhand.
wait_for 20 "the tray host to read the item" grep -q "destination=$ITEM .*interface=org.freedesktop.DBus.Properties" "$LOGS/dbus.log"
# The icon is drawn: the bar's last 32 px are more than the bar's colour.
icon_drawn() {
	local n
	n=$(import -window root -crop 32x32+1248+0 +repage png:- | convert png:- -format %k info:)
	[ "$n" -gt 8 ]
}
wait_for 20 "the tray host to draw the icon" icon_drawn
say "the tray host shows the icon"

open_menu "the tray menu to open"
MENU=$(menu_window)
# The host asked Deckhand for the menu over dbusmenu, and got its items.
wait_for 10 "com.canonical.dbusmenu GetLayout" grep -q "destination=$ITEM .*interface=com.canonical.dbusmenu; member=GetLayout" "$LOGS/dbus.log"
for label in "Show Deckhand" "Quick prompt…" "Quit"; do
	wait_for 5 "the menu item \"$label\" over dbusmenu" grep -q "string \"$label\"" "$LOGS/dbus.log"
done
say "the tray menu is open, its items from com.canonical.dbusmenu"
xdotool mousemove "$ICON_X" 73 # over "Quick prompt…": highlighted in the screenshot
SETTLE=1 shot tray-menu.png 900x420+380+0

# Quick prompt…, from the menu: a click on its item.
eval "$(xdotool getwindowgeometry --shell "$MENU")"
MENU_X=$X MENU_Y=$Y MENU_W=$WIDTH MENU_H=$HEIGHT
events() { grep -c "interface=com.canonical.dbusmenu; member=Event\(Group\)\?$" "$LOGS/dbus.log" || true; }
events_before=$(events)
xdotool mousemove $((MENU_X + MENU_W / 2)) $((MENU_Y + MENU_H * 41 / 84)) click 1
wait_for 10 "the quick prompt" xdotool search --onlyvisible --name '^Deckhand: quick prompt$'
QUICK=$(xdotool search --onlyvisible --name '^Deckhand: quick prompt$' | head -1)
[ "$(events)" -gt "$events_before" ] ||
	fail "the quick prompt opened without a com.canonical.dbusmenu Event"
say "Quick prompt… in the tray menu opened the quick prompt (a dbusmenu Event)"
xdotool windowmove "$QUICK" 700 60
focus "$QUICK"
xdotool type --delay 15 "Note the train times in my workspace"
xdotool key Return
# The model writes a file: asked, in a dialog over the quick prompt.
sleep 3
focus "$QUICK"
# Tab goes in order on screen: the note's "1 more line", Deny (the default),
# then Allow once.
xdotool key Tab Tab Tab space
wait_for 20 "the file the quick prompt's call wrote" test -s "$WORKSPACE/train.txt"
sleep 1
import -window "$QUICK" "$OUT/tray-quick-prompt.png"
say "saved $OUT/tray-quick-prompt.png"
xdotool key Escape

# 2. An approval while Deckhand is not in front: a notification.
focus "$MAIN"
eval "$(xdotool getwindowgeometry --shell "$MAIN")"
xdotool mousemove $((X + 600)) $((Y + 640)) click 1
xdotool type --delay 15 "Remind me to send the invoice"
xdotool key Return
# The model first runs a slow tool; meanwhile another application's window
# opens in front and takes the keyboard focus.
display -title "Another application" -geometry +380+48 "$WORK/other.png" &
PIDS+=($!)
wait_for 10 "the other window" xdotool search --onlyvisible --name '^Another application$'
OTHER=$(xdotool search --onlyvisible --name '^Another application$' | head -1)
focus "$OTHER"
xdotool mousemove 640 780
wait_for 30 "org.freedesktop.Notifications.Notify" in_log "interface=org.freedesktop.Notifications; member=Notify"
wait_for 5 "the notification's text" grep -q "Deckhand: Allow " "$LOGS/dbus.log"
wait_for 5 "the notification's Allow once" grep -q '"Allow once"' "$LOGS/dbus.log"
wait_for 10 "dunst to show it" xdotool search --onlyvisible --class Dunst
say "Deckhand sent org.freedesktop.Notifications.Notify, offering Allow once, and dunst shows it"
SETTLE=1 shot approval-notification.png 900x420+380+0

# Back to Deckhand, to allow it in the window: the notification is
# withdrawn.
focus "$MAIN"
sleep 1
xdotool key Tab Tab space
wait_for 20 "the file the main window's call wrote" test -s "$WORKSPACE/invoice.txt"
wait_for 10 "the notification withdrawn (CloseNotification)" in_log "member=CloseNotification"
say "answered in the window, the notification was withdrawn"

# 3. The panel restarts (the watcher and the host quit, and start again):
# the icon comes back. A watcher may own its name before it serves its
# object, so Fyne's own registration can fail; Deckhand checks and
# registers the item again (cmd/deckhand/window.go).
kill "$TRAY" "$WATCHER"
no_name() { ! has_name "$1"; }
wait_for 10 "the watcher to leave the bus" no_name org.kde.StatusNotifierWatcher
registered=$(grep -c "member=StatusNotifierItemRegistered" "$LOGS/dbus.log" || true)
sleep 1
start_tray
more_registered() { [ "$(grep -c member=StatusNotifierItemRegistered "$LOGS/dbus.log")" -gt "$registered" ]; }
wait_for 20 "Deckhand's item registered with the new watcher" more_registered
wait_for 20 "the new tray host to draw the icon" icon_drawn
grep -q 'msg="system tray host" up=false' "$LOGS/deckhand.log" || fail "Deckhand did not see the tray host leave"
grep -q 'msg="system tray host" up=true' "$LOGS/deckhand.log" || fail "Deckhand did not see the tray host come back"
say "the panel restarted, and the icon is back"

# 4. Quit, from the tray menu.
open_menu "the tray menu to open again"
MENU=$(menu_window)
eval "$(xdotool getwindowgeometry --shell "$MENU")"
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT * 67 / 84)) click 1
for _ in $(seq 100); do kill -0 "$DECKHAND" 2>/dev/null || break; sleep 0.2; done
kill -0 "$DECKHAND" 2>/dev/null && fail "Quit in the tray menu did not end Deckhand"
wait "$DECKHAND" || fail "Deckhand exited with status $? after Quit"
say "Quit in the tray menu ended Deckhand"

# The calls, as the bus saw them.
echo "--- the bus (from $LOGS/dbus.log)"
grep -E "member=(RegisterStatusNotifierItem|StatusNotifierItemRegistered|GetLayout|AboutToShow|Event|EventGroup|Notify)$" "$LOGS/dbus.log" | sed 's/time=[0-9.]* //' | sort | uniq -c | sort -rn
grep -A5 "member=Notify$" "$LOGS/dbus.log" | head -6
say "every check passed"
